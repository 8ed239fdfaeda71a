"""The games the referee knows, by their API name."""

from __future__ import annotations

from ..verdicts import InvalidInput
from .agurk import GAME as AGURK
from .base import Game
from .durak import GAME as DURAK
from .duren import GAME as DUREN
from .ogorek import GAME as OGOREK
from .ogurets import GAME as OGURETS
from .oh_hell import GAME as OH_HELL

GAMES: dict[str, Game] = {game.name: game for game in (OGOREK, OGURETS, OH_HELL, DUREN, AGURK, DURAK)}

__all__ = ["GAMES", "Game", "get_game", "catalogue"]


def get_game(name: object) -> Game:
    if not isinstance(name, str) or name not in GAMES:
        raise InvalidInput("unknown_game", f"Unknown game {name!r}; the games are: {', '.join(GAMES)}.",
                           {"game": name, "games": list(GAMES)})
    return GAMES[name]


def catalogue() -> list[dict]:
    return [game.catalogue() for game in GAMES.values()]
