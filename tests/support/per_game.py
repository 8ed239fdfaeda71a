"""A test's table by game, for the tests that loop over the games of the registry (`referee.GAMES`).

What such a test can derive from the registry it derives (the catalogue's players, events, keypad, options); what
it cannot, a game's own oracle or its walk through the page, it keeps in a `PerGame` table. A game of the registry
that lacks its entry then fails the test loudly, naming the game, the table and what to write in it (see
docs/adding-a-game.md), instead of being silently left out. A table may have a `default`, derived from the game:
then only the games that differ from it have an entry of their own.
"""

from __future__ import annotations

from collections.abc import Callable


class MissingEntry(AssertionError):
    "A game of the registry that a test's table has no entry for"


class PerGame(dict):
    """`{game name: entry}`; `table[game]` for a game without an entry is its `default(game)` when there is one,
    else a `MissingEntry` naming the table (`where`) and what its entry is (`what`)."""

    def __init__(self, where: str, what: str, entries: dict, default: Callable[[str], object] | None = None):
        super().__init__(entries)
        self.where, self.what, self.default = where, what, default

    def __missing__(self, game: str):
        if self.default is not None:
            return self.default(game)
        raise MissingEntry(f"{self.where} has no entry for the game {game!r}: add {self.what} "
                           "(docs/adding-a-game.md)")
