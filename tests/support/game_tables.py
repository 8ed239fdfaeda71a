"""Every game's table simulator behind one interface, found by the game's name in `SIMULATORS`.

`SIMULATORS[game](match, rng, known=0.0)` is a table that deals shuffled real hands and plays legally by its own
reading of the rules (each game's oracle, written apart from the engine), through anything with the face of
`referee.Match` (`play`, `view`, `expected`, `options`: the engine, `tests/api_match.ApiMatch`, the bench's
`HttpMatch`); a game of the registry without one fails, naming this table. `known` is the chance that a dealt hand
is entered for the referee; `careless` the chance that a player plays any card held, legal or not, which the table
then lets stand (`force`) when the referee refuses it. `step()` logs the table's next event and answers the command
it sent, or None when the match is over; `play_out()` plays to the end. A series that runs until the players end it
(Dureń, Durak) is ended after `SERIES_DEALS` deals.
"""

from __future__ import annotations

import random

import agurk_table
import durak_table
import duren_table
import ogorek_table
import ogurets_table
import oh_hell_table
from per_game import PerGame

from referee import Rejected

SERIES_DEALS = 5


class Simulator:
    careless = 0.0

    def __init__(self, match, rng: random.Random, known: float = 0.0):
        self.match, self.rng, self.known = match, rng, known

    def step(self) -> dict | None:
        raise NotImplementedError

    def send(self, command: dict) -> dict:
        """Logs `command`; a careless table lets a refused play stand (`force`)."""
        try:
            self.match.play(command)
        except Rejected as refusal:
            if not (self.careless and refusal.forceable):
                raise
            command = {**command, "force": True}
            self.match.play(command)
        return command

    def slips(self) -> bool:
        return bool(self.careless) and self.rng.random() < self.careless

    def play_out(self, limit: int = 20_000) -> None:
        for _ in range(limit):
            if self.step() is None:
                return
        raise AssertionError(f"the match did not end in {limit} events")


class ClimbingTable(Simulator):
    """A game of ranks alone (the keypad "ranks"): each deal of shuffled ranks, each play legal by `legal`."""

    def __init__(self, match, rng: random.Random, known: float = 0.0, legal=None):
        super().__init__(match, rng, known)
        self.legal = legal
        self.hands: dict[int, list[str]] = {}
        self.trick: list[str] = []
        self.seats: list[int] = []

    def step(self) -> dict | None:
        expected = self.match.expected()
        if expected is None:
            return None
        if expected["type"] == "deal":
            if "penalty" in self.match.view()["rules"]["events"] and self.rng.random() < 0.1:
                return self.penalty()
            return self.deal(expected)
        return self.play(expected)

    def penalty(self) -> dict:
        seats = [p["seat"] for p in self.match.view()["players"] if not p["out"]]
        return self.send({"type": "penalty", "seat": self.rng.choice(seats), "points": self.rng.randint(1, 12)})

    def deal(self, expected: dict) -> dict:
        view = self.match.view()
        rules = view["rules"]
        self.seats = [p["seat"] for p in view["players"] if not p["out"]]
        cards = [rank for rank in rules["ranks"] for _ in range(3 if rank == "X" else 4)]
        self.rng.shuffle(cards)
        size = rules["hand_sizes"][0]
        self.hands = {seat: cards[size * i:size * (i + 1)] for i, seat in enumerate(self.seats)}
        self.trick = []
        command = {"type": "deal", "dealer": expected["dealer"] if expected["dealer"] is not None
                   else self.rng.choice(self.seats)}
        told = [seat for seat in self.seats if self.rng.random() < self.known]
        if told:
            command["hands"] = {str(seat): list(self.hands[seat]) for seat in told}
        return self.send(command)

    def play(self, expected: dict) -> dict:
        seat = expected["seat"]
        allowed = self.legal(self.hands[seat], self.trick, self.match.options)
        if "legal" in expected:
            assert expected["legal"] == allowed, (expected, self.hands[seat], self.trick)
        card = self.rng.choice(self.hands[seat] if self.slips() else allowed)
        command = self.send({"type": "play", "seat": seat, "card": card})
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) == len(self.seats):
            self.trick = []
        return command


class SuitRankTable(Simulator):
    """Oh Hell's table (`oh_hell_table.SimTable`): deals with a trump, bids, follows suit."""

    def __init__(self, match, rng: random.Random, known: float = 0.0):
        super().__init__(match, rng, known)
        self.table = oh_hell_table.SimTable(match, rng, known=known, first_dealer=rng.randrange(len(match.players)))

    def step(self) -> dict | None:
        expected = self.match.expected()
        if expected is None:
            return None
        if expected["type"] == "play" and self.slips():
            _, wrong = self.table.illegal_choices()
            if wrong:
                self.table.play(self.rng.choice(wrong), force=True)
                return self.table.sent
        return self.table.step()


class AttackBeatTable(Simulator):
    """Dureń's table (`duren_table.Table`): a deal, attacks and defences; the series ended after some deals."""

    def __init__(self, match, rng: random.Random, known: float = 0.0):
        super().__init__(match, rng, known)
        self.table: duren_table.Table | None = None
        self.attack: list | None = None
        self.deals = 0

    def step(self) -> dict | None:
        expected = self.match.expected()
        if expected is None:
            return None
        if expected["type"] == "deal":
            if self.deals == SERIES_DEALS:
                return self.send({"type": "end"})
            dealer = expected["dealer"] if expected["dealer"] is not None else self.rng.randrange(2)
            self.table = duren_table.Table(self.rng, self.match.options["deck"], dealer)
            self.deals += 1
            command = {"type": "deal", "dealer": dealer, "trump": str(self.table.face_up)}
            if self.rng.random() < self.known:
                command["hands"] = {str(seat): [str(card) for card in hand] for seat, hand in
                                    enumerate(self.table.hands)}
            return self.send(command)
        table = self.table
        if expected["type"] == "attack":
            self.attack = table.attack()
            return self.send({"type": "attack", "seat": table.attacker, "cards": [str(card) for card in self.attack]})
        pairs = table.defend(self.attack)
        if pairs and self.slips():  # one card "beaten" by any other card held
            free = sorted(set(table.hands[1 - table.attacker]) - {other for _, other in pairs})
            if free:
                index = self.rng.randrange(len(pairs))
                pairs[index] = (pairs[index][0], self.rng.choice(free))
        command = self.send({"type": "defend", "seat": 1 - table.attacker,
                             "beats": [{"card": str(card), "with": str(other)} for card, other in pairs]})
        table.settle(self.attack, pairs)
        return command


def climbing(legal):
    return lambda match, rng, known=0.0: ClimbingTable(match, rng, known, legal)


SIMULATORS = PerGame("SIMULATORS in tests/support/game_tables.py", "its table simulator: the game's oracle of "
                     "RULES.md, written apart from the engine, behind one of the tables above (`climbing(legal)` "
                     "for a game of ranks)", {
                         "ogorek": climbing(lambda hand, trick, options: ogorek_table.legal(hand, trick)),
                         "ogurets": climbing(ogurets_table.legal),
                         "agurk": climbing(agurk_table.legal),
                         "oh_hell": SuitRankTable,
                         "duren": AttackBeatTable,
                         "durak": lambda match, rng, known=0.0: durak_table.Table(match, rng, known, SERIES_DEALS),
                     })
