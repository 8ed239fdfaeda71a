"""Durak at a table, for the tests: real shuffled deals, played with random legal leads, throw-ins from any seat,
beats one by one, transfers, takes and the bout's end, by this module's own reading of RULES.md §6 (written apart
from the engine).

`Table(match, rng, known)` has the face of every table simulator (`step()` logs the table's next event and answers
the command, None once the match is over); `check(view)` holds the referee's view of the deal against the table.
"""

from __future__ import annotations

import random

from referee import Rejected
from referee.cards import RANKS, Card, deck

HAND = 6
SERIES_DEALS = 5


def beats(card: Card, other: Card, trump: str) -> bool:
    if other.suit == card.suit:
        return RANKS.index(other.rank) > RANKS.index(card.rank)
    return other.suit == trump and card.suit != trump


class Table:
    careless = 0.0
    """The chance that the defender beats with any card held, legal or not, which the table then lets stand
    (`force`) when the referee refuses it."""

    def __init__(self, match, rng: random.Random, known: float = 0.0, deals: int = SERIES_DEALS):
        self.match, self.rng, self.known, self.deals_left = match, rng, known, deals
        self.options = match.options
        self.n = len(match.players)
        self.hands: list[set[Card]] = []
        self.talon: list[Card] = []
        self.bout: dict | None = None
        self.over = True
        self.bouts = 0

    # --- the deal ----------------------------------------------------------------------------------
    def deal(self, expected: dict) -> dict:
        rng, n = self.rng, self.n
        dealer = expected["dealer"] if expected["dealer"] is not None else rng.randrange(n)
        cards = deck(self.options["deck"])
        rng.shuffle(cards)
        order = [(dealer + 1 + i) % n for i in range(n)]  # clockwise from the dealer's left
        self.hands = [set() for _ in range(n)]
        for i, card in enumerate(cards[:HAND * n]):
            self.hands[order[i % n]].add(card)
        rest = cards[HAND * n:]
        if rest:
            self.trump = rest[0]
            self.talon = rest[1:] + [rest[0]]
        else:
            self.trump = cards[HAND * n - 1]  # the dealer's last card, shown
            self.talon = []
        self.suit = self.trump.suit
        self.discards: set[Card] = set()
        self.out: list[int] = []
        self.bout, self.over, self.bouts, self.durak = None, False, 0, None
        attacker = expected.get("attacker")
        if attacker is None:
            trumps = [(RANKS.index(card.rank), seat) for seat in range(n) for card in self.hands[seat]
                      if card.suit == self.suit]
            attacker = min(trumps)[1] if trumps else rng.randrange(n)
        self.attacker = attacker
        command = {"type": "deal", "dealer": dealer, "trump": str(self.trump), "attacker": attacker}
        told = [seat for seat in range(n) if rng.random() < self.known]
        if told:
            command["hands"] = {str(seat): sorted(map(str, self.hands[seat])) for seat in told}
        self.deals_left -= 1
        return self.send(command)

    # --- the bout ----------------------------------------------------------------------------------
    def cap(self) -> int:
        return 5 if self.bouts == 0 and self.options["first_bout_five"] else 6

    def next_holding(self, seat: int) -> int | None:
        for step in range(1, self.n):
            other = (seat + step) % self.n
            if self.hands[other]:
                return other
        return None

    def throwers(self) -> list[int]:
        bout = self.bout
        if self.options["throw_in"] == "neighbours":
            seats = {bout["attacker"], self.next_holding(bout["defender"])} - {None, bout["defender"]}
        else:
            seats = set(range(self.n)) - {bout["defender"]}
        return sorted(seat for seat in seats if self.hands[seat])

    def on_table(self) -> list[Card]:
        return [a[0] for a in self.bout["attacks"]] + [a[2] for a in self.bout["attacks"] if a[2] is not None]

    def lead(self) -> dict:
        rng, seat = self.rng, self.attacker
        defender = self.next_holding(seat)
        limit = min(self.cap(), len(self.hands[defender]))
        card = rng.choice(sorted(self.hands[seat]))
        cards = [card]
        if self.options["lead_same_rank"]:
            same = [c for c in sorted(self.hands[seat]) if c.rank == card.rank and c != card]
            cards += rng.sample(same, rng.randint(0, min(len(same), limit - 1)))
        self.bout = {"leader": seat, "attacker": seat, "defender": defender, "limit": limit, "attacks": [],
                     "taking": False}
        self.lay(seat, cards)
        return self.send({"type": "attack", "seat": seat, "cards": [str(c) for c in cards]})

    def lay(self, seat: int, cards: list[Card]) -> None:
        self.hands[seat] -= set(cards)
        self.bout["attacks"].extend([card, seat, None] for card in cards)

    def throw_ins(self) -> list[tuple[int, Card]]:
        bout = self.bout
        if len(bout["attacks"]) >= bout["limit"]:
            return []
        ranks = {card.rank for card in self.on_table()}
        return [(seat, card) for seat in self.throwers() for card in sorted(self.hands[seat]) if card.rank in ranks]

    def transfers(self) -> list[Card]:
        bout = self.bout
        if not self.options["transfer"] or bout["taking"] or any(a[2] for a in bout["attacks"]):
            return []
        ranks = {a[0].rank for a in bout["attacks"]}
        nxt = self.next_holding(bout["defender"])
        if len(ranks) != 1 or nxt is None or len(self.hands[nxt]) < len(bout["attacks"]) + 1 \
                or len(bout["attacks"]) + 1 > self.cap():
            return []
        return [card for card in sorted(self.hands[bout["defender"]]) if card.rank in ranks]

    def in_bout(self) -> dict:
        rng, bout = self.rng, self.bout
        defender = bout["defender"]
        unbeaten = [a for a in bout["attacks"] if a[2] is None]
        throw_ins = self.throw_ins()
        if throw_ins and rng.random() < 0.3:
            seat, card = rng.choice(throw_ins)
            self.lay(seat, [card])
            return self.send({"type": "attack", "seat": seat, "cards": [str(card)]})
        if bout["taking"]:
            return self.done()
        transfers = self.transfers()
        if transfers and rng.random() < 0.4:
            card = rng.choice(transfers)
            self.lay(defender, [card])
            bout["attacker"], bout["defender"] = defender, self.next_holding(defender)
            bout["limit"] = min(self.cap(), len(self.hands[bout["defender"]]))
            return self.send({"type": "transfer", "seat": defender, "cards": [str(card)]})
        if not unbeaten:
            if rng.random() < 0.05:
                return self.take()
            return self.done()
        attack = rng.choice(unbeaten)
        options = [card for card in sorted(self.hands[defender]) if beats(attack[0], card, self.suit)]
        if self.careless and rng.random() < self.careless:
            options = sorted(self.hands[defender])
        if not options or rng.random() < 0.15:
            return self.take()
        card = rng.choice(options)
        self.hands[defender].discard(card)
        attack[2] = card
        return self.send({"type": "defend", "seat": defender, "beats": [{"card": str(attack[0]), "with": str(card)}]})

    def take(self) -> dict:
        self.bout["taking"] = True
        return self.send({"type": "take", "seat": self.bout["defender"]})

    def done(self) -> dict:
        bout, n = self.bout, self.n
        defender = bout["defender"]
        if bout["taking"]:
            self.hands[defender] |= set(self.on_table())
        else:
            self.discards |= set(self.on_table())
        self.bout = None
        self.bouts += 1
        leader = bout["leader"]
        order = [(leader + step) % n for step in range(n)]
        for seat in [seat for seat in order if seat != defender] + [defender]:
            while len(self.hands[seat]) < HAND and self.talon:
                self.hands[seat].add(self.talon.pop(0))
        if not self.talon:
            self.out += [seat for seat in range(n) if not self.hands[seat] and seat not in self.out]
        holding = [seat for seat in range(n) if self.hands[seat]]
        if not self.talon and len(holding) <= 1:
            self.over, self.durak = True, holding[0] if holding else None
        elif bout["taking"]:
            self.attacker = self.next_holding(defender)
        else:
            self.attacker = defender if self.hands[defender] else self.next_holding(defender)
        return self.send({"type": "done"})

    # --- the table's steps -------------------------------------------------------------------------
    def send(self, command: dict) -> dict:
        try:
            self.match.play(command)
        except Rejected as refusal:
            if not (self.careless and refusal.forceable):
                raise
            command = {**command, "force": True}
            self.match.play(command)
        return command

    def play_out(self, limit: int = 20_000) -> None:
        """Plays the series to its end (the interface of `game_tables.Simulator`)."""
        for _ in range(limit):
            if self.step() is None:
                return
        raise AssertionError(f"the match did not end in {limit} events")

    def step(self) -> dict | None:
        expected = self.match.expected()
        if expected is None:
            return None
        if expected["type"] == "deal":
            if self.deals_left <= 0:
                return self.send({"type": "end"})
            return self.deal(expected)
        if self.bout is None:
            assert (expected["type"], expected["seat"]) == ("attack", self.attacker), expected
            return self.lead()
        return self.in_bout()

    def check(self, view: dict) -> None:
        """The referee's view of the deal, held against the table."""
        deal = view["deal"]
        assert deal["hand_sizes"] == {str(seat): len(self.hands[seat]) for seat in range(self.n)}
        assert deal["stock"] == len(self.talon)
        assert set(deal["discarded"]) == {str(card) for card in self.discards}
        assert deal["out"] == self.out
        for seat in range(self.n):
            assert set(deal["known"][str(seat)]) <= {str(card) for card in self.hands[seat]}, seat
        if self.over:
            assert deal["result"] == {"durak": self.durak}
        else:
            assert deal["result"] is None
            attacker = self.bout["attacker"] if self.bout else self.attacker
            assert deal["attacker"] == attacker
