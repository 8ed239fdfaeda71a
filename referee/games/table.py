"""The table's standing, which every game keeps: seats, scores, lives, who is out, places, the record.

The helpers here read seats from a command and change the standing the same way in every game: a seat that
is out, a match that is over, players going out together, places shared by equal figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..verdicts import Finding, InvalidInput, Rejected


@dataclass
class Table:
    """The standing of a match that every game keeps: seats, scores, lives, who is out, the record, and the deal
    being played (or the last one), of the game's own kind."""

    names: list[str]
    options: dict
    scores: list[int]
    lives: list[int | None]
    out: list[bool]
    eliminated: list[list[int]] = field(default_factory=list)  # groups, in the order they went out
    final: list[list[int]] = field(default_factory=list)  # the last players in, best group first
    finished: bool = False
    deals_played: int = 0
    deals_in: list[int] = field(default_factory=list)  # per seat: the deals it was dealt and played to the end
    last_dealer: int | None = None
    findings: list[Finding] = field(default_factory=list)
    history: list[dict] = field(default_factory=list)  # the standing after every deal, for the scoresheet
    penalties: list[dict] = field(default_factory=list)  # given since the history's last entry, listed in its next
    deal: Any = None

    @property
    def seats(self) -> range:
        return range(len(self.names))

    def seats_in(self) -> list[int]:
        return [seat for seat in self.seats if not self.out[seat]]

    def next_seat_in(self, seat: int) -> int:
        """The next seat clockwise from `seat` that is still in."""
        n = len(self.names)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if not self.out[candidate]:
                return candidate
        raise AssertionError("no player is left in")

    def record_history(self, deal: int, dealer: int, seats: Iterable[int], **extra: object) -> None:
        """The standing after a deal played to its end by `seats`: who dealt it, the scores and lives, and what the
        game adds; and the penalties its scores count that no earlier entry did (given during the deal, or between
        it and the one before), when there are any."""
        for seat in seats:
            self.deals_in[seat] += 1
        entry = {"deal": deal, "dealer": dealer, "scores": list(self.scores), "lives": list(self.lives), **extra}
        if self.penalties:
            entry["penalties"], self.penalties = self.penalties, []
        self.history.append(entry)

    def give_penalty(self, seat: int, points: int, seq: int, reason: str | None) -> None:
        """`points` more for `seat` at once; the history's next entry lists the penalty with its reason."""
        self.scores[seat] += points
        penalty = {"seq": seq, "seat": seat, "points": points}
        self.penalties.append({**penalty, "reason": reason} if reason else penalty)


def seat_of(state: Table, command: dict, key: str = "seat") -> int:
    seat = command.get(key)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.names):
        raise InvalidInput("bad_seat", f"{key} must be a seat number from 0 to {len(state.names) - 1}.",
                           {key: seat})
    return seat


def check_seat_in(state: Table, seat: int) -> None:
    if state.out[seat]:
        raise Rejected("player_out", f"{state.names[seat]} is out of the match.", seat=seat, details={})


def check_playing(state: Table) -> None:
    if state.finished:
        raise Rejected("match_finished", "The match is over.", details={})


def end_match(state: Table) -> None:
    """The players end the match now: those still in share the places that are left."""
    state.final = [state.seats_in()]
    state.finished = True


def by_points(state: Table) -> list[list[int]]:
    """The places by points, the most first; equal points share their places."""
    return groups_by(state.seats, lambda seat: state.scores[seat], most_first=True)


def groups_by(seats: Iterable[int], figure: Callable[[int], int], most_first: bool = False) -> list[list[int]]:
    """`seats` in groups of equal `figure`, the fewest first (the most, with `most_first`): the best group first."""
    seats = sorted(seats)
    values = sorted({figure(seat) for seat in seats}, reverse=most_first)
    return [[seat for seat in seats if figure(seat) == value] for value in values]


def eliminate(state: Table, seats: list[int], all_out: Callable[[int], int] | None = None) -> None:
    """`seats` go out together (ex aequo); the match finishes when at most one player is left.

    When they are everyone still in, they all share the places that are left, the winner's included; or,
    given `all_out(seat)` (a total, the points of the deal), they take those places in its order, the
    fewest first, equal figures sharing.
    """
    if not seats:
        return
    seats = sorted(seats)
    everyone = len(seats) == len(state.seats_in())
    for seat in seats:
        state.out[seat] = True
    if everyone:
        state.final = groups_by(seats, all_out) if all_out else [seats]
        state.finished = True
        return
    state.eliminated.append(seats)
    left = state.seats_in()
    if len(left) == 1:
        state.final = [left]
        state.finished = True
