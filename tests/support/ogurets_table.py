"""Ogurets at a table, for the tests: a deal from a shuffled deck, played by the rules as our own oracle sees them.

The oracle (`legal`, `taker`) is written apart from the engine; `Deal` deals real hands, logs the deal
through `match.play` (a `referee.Match`, or anything with its face) and keeps the hands, the turn and the
points taken, so tests can hold the referee's figures against it.
"""

from __future__ import annotations

import random

from referee import Match
from referee.cards import deck

ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]
STRENGTH = {rank: i for i, rank in enumerate(ORDER)}
POINTS = {**{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14, "X": 15}


def legal(hand: list[str], table: list[str], options: dict) -> list[str]:
    """The cards the rules allow from `hand` onto the cards of the trick so far, lowest first."""
    cards = sorted(set(hand), key=STRENGTH.get)
    if not table:
        return cards
    top = max(table, key=STRENGTH.get)
    if options["top_card_rule"]:
        if options["jokers"] and options.get("joker_overtakes_king", True):
            if top == "X":  # the rule before RULES.md §2 was revised: the joker locks, a king can be overtaken
                return cards[:1]
        elif any(card == "K" and all(STRENGTH[before] <= STRENGTH["K"] for before in table[:place])
                 for place, card in enumerate(table)):
            return cards[:1]  # a king that was the highest card on the table locks the trick
    return [card for card in cards if STRENGTH[card] >= STRENGTH[top]] or cards[:1]


def taker(plays: list[tuple[int, str]]) -> int:
    """The seat of the highest card; among equal ones, the latest."""
    best = plays[0]
    for play in plays[1:]:
        if STRENGTH[play[1]] >= STRENGTH[best[1]]:
            best = play
    return best[0]


class Deal:
    """One deal as the players see it: the hands, whose turn it is, the tricks taken."""

    def __init__(self, match: Match, rng: random.Random, known: set[int]):
        view = match.view()
        out = [p["out"] for p in view["players"]]
        self.seats = [p["seat"] for p in view["players"] if not p["out"]]
        cards = [str(card) for card in deck(55 if match.options["jokers"] else 52, suited=False)]
        rng.shuffle(cards)
        self.hands = {seat: cards[7 * i:7 * i + 7] for i, seat in enumerate(self.seats)}
        command = {"type": "deal", "hands": {str(seat): list(self.hands[seat]) for seat in sorted(known)}}
        if view["dealer"] is None:
            command["dealer"] = rng.choice(self.seats)
        event, _, _ = match.play(command)
        dealer, n = event["dealer"], len(out)
        self.order = [seat for seat in ((dealer + step) % n for step in range(1, n + 1)) if not out[seat]]
        self.known = known
        self.lead = self.order[0]
        self.table: list[tuple[int, str]] = []
        self.points = dict.fromkeys(self.seats, 0)
        self.tricks = dict.fromkeys(self.seats, 0)

    def turn(self) -> int:
        start = self.order.index(self.lead)
        return self.order[(start + len(self.table)) % len(self.order)]

    def legal(self, seat: int, options: dict) -> list[str]:
        return legal(self.hands[seat], [card for _, card in self.table], options)

    def played(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.table.append((seat, card))
        if len(self.table) == len(self.order):
            self.lead = taker(self.table)
            self.points[self.lead] += sum(POINTS[card] for _, card in self.table)
            self.tricks[self.lead] += 1
            self.table = []


def play_legally(match: Match, deal: Deal, rng: random.Random) -> list:
    """Play a card the rules allow, as the oracle sees it; returns the findings it raised."""
    seat = deal.turn()
    expected = match.expected()
    assert (expected["type"], expected["seat"]) == ("play", seat)
    allowed = deal.legal(seat, match.options)
    if seat in deal.known:
        assert expected["legal"] == allowed
    card = rng.choice(allowed)
    _, warnings, findings = match.play({"type": "play", "seat": seat, "card": card})
    assert warnings == []
    deal.played(seat, card)
    return findings
