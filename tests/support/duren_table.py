"""Dureń at a table, for the tests: a real shuffled deal, played with random legal attacks and defences.

`Table` holds the deck, both hands, the stock (the face-up card last) and the discards, worked out apart
from the engine. `play_deal` logs a whole deal through `match.play` (a `referee.Match`, or anything with
its face) and holds the referee's view against the table at every step.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from referee import Match, Rejected
from referee.cards import Card, deck
from referee.games.duren import beats

HAND = 5


class Table:
    """The real table: the shuffled deck, both hands, the stock (face-up card last), the discards."""

    def __init__(self, rng: random.Random, size: int, dealer: int):
        cards = deck(size)
        rng.shuffle(cards)
        self.rng = rng
        self.hands = [set(cards[:HAND]), set(cards[HAND:2 * HAND])]
        self.face_up = cards[2 * HAND]
        self.trump = self.face_up.suit
        self.stock = cards[2 * HAND + 1:] + [self.face_up]
        self.discards: set[Card] = set()
        self.dealer = dealer
        self.attacker = 1 - dealer
        self.eagerness = rng.choice([0.5, 0.8, 1.0])  # how often the defender beats a card they can beat

    def exchange(self, seat: int) -> None:
        nine = Card("9", self.trump)
        self.hands[seat].remove(nine)
        self.hands[seat].add(self.stock[-1])
        self.stock[-1] = nine

    def attack(self) -> list[Card]:
        """A random legal attack from the attacker's hand, never larger than the defender's hand."""
        hand = sorted(self.hands[self.attacker])
        limit = len(self.hands[1 - self.attacker])
        pairs = []
        for rank in {card.rank for card in hand}:
            same = [card for card in hand if card.rank == rank]
            pairs += [same[i:i + 2] for i in range(0, len(same) - 1, 2)]
        choices = [1]
        if limit >= 3 and len(hand) >= 3 and pairs:
            choices.append(3)
        if limit >= 5 and len(hand) >= 5 and len(pairs) >= 2:
            choices.append(5)
        size = self.rng.choice(choices)
        cards = [card for pair in self.rng.sample(pairs, (size - 1) // 2) for card in pair]
        cards.append(self.rng.choice([card for card in hand if card not in cards]))
        self.rng.shuffle(cards)
        return cards

    def defend(self, attack: list[Card]) -> list[tuple[Card, Card]]:
        """Beat some of the attack with legal cards from the defender's hand, at random."""
        free = sorted(self.hands[1 - self.attacker])
        pairs = []
        for card in attack:
            options = [other for other in free if beats(card, other, self.trump)]
            if options and self.rng.random() < self.eagerness:
                other = self.rng.choice(options)
                free.remove(other)
                pairs.append((card, other))
        return pairs

    def settle(self, attack: list[Card], pairs: list[tuple[Card, Card]]) -> None:
        attacker, defender = self.attacker, 1 - self.attacker
        self.hands[attacker] -= set(attack)
        beaten = {card for card, _ in pairs}
        for card, other in pairs:
            self.hands[defender].remove(other)
            self.discards |= {card, other}
        self.hands[defender] |= set(attack) - beaten
        for seat in (attacker, defender):
            while len(self.hands[seat]) < HAND and self.stock:
                self.hands[seat].add(self.stock.pop(0))
        if not set(attack) - beaten:
            self.attacker = defender

    def over(self) -> bool:
        return not self.stock and not all(self.hands)

    def winner(self) -> int | None:
        holding = [seat for seat in (0, 1) if self.hands[seat]]
        return 1 - holding[0] if holding else None


def check_against(match: Match, table: Table) -> None:
    deal = match.view()["deal"]
    assert deal["hand_sizes"] == {"0": len(table.hands[0]), "1": len(table.hands[1])}
    assert deal["stock"] == len(table.stock)
    assert set(deal["discarded"]) == {str(card) for card in table.discards}
    for seat in (0, 1):
        held = {str(card) for card in table.hands[seat]}
        assert set(deal["known"][str(seat)]) <= held, f"seat {seat} is said to hold a card it does not"
    if deal["face_up"] is not None:
        assert deal["face_up"] == str(table.stock[-1])


def try_impossible(match: Match, table: Table, seat: int, command: Callable[[str], dict]) -> None:
    """A card the referee knows to be out of `seat`'s reach is refused, even forced."""
    deal = match.view()["deal"]
    gone = deal["discarded"] + deal["known"][str(1 - seat)]
    if deal["face_up"] is not None:
        gone.append(deal["face_up"])
    if not gone:
        return
    card = table.rng.choice(gone)
    seq = match.seq
    with pytest.raises(Rejected) as caught:
        match.play({**command(card), "force": True})
    assert not caught.value.forceable and match.seq == seq


def play_deal(match: Match, table: Table) -> None:
    """A whole deal: dealt, the nine of trumps swapped half the time it can be, and played out."""
    start_deal(match, table)
    play_out(match, table)


def start_deal(match: Match, table: Table) -> None:
    match.play({"type": "deal", "dealer": table.dealer, "trump": str(table.face_up)})
    check_against(match, table)
    nine = Card("9", table.trump)
    holder = next((seat for seat in (0, 1) if nine in table.hands[seat]), None)
    if holder is not None:
        assert holder in match.expected()["exchange"]["seats"]
    if holder is not None and table.rng.random() < 0.5:
        match.play({"type": "exchange", "seat": holder})
        table.exchange(holder)
        check_against(match, table)


def play_out(match: Match, table: Table) -> None:
    """Random legal rounds to the end of the deal, each attack tried first with cards out of reach."""
    while not table.over():
        expected = match.expected()
        assert (expected["type"], expected["seat"]) == ("attack", table.attacker)
        assert max(expected["sizes"]) <= min(len(hand) for hand in table.hands)
        attacker = table.attacker
        try_impossible(match, table, attacker,
                       lambda card, attacker=attacker: {"type": "attack", "seat": attacker, "cards": [card]})
        attack = table.attack()
        event, warnings, findings = match.play({"type": "attack", "seat": table.attacker,
                                                "cards": [str(card) for card in attack]})
        assert not warnings and not findings
        pairs = table.defend(attack)
        expected = match.expected()
        assert (expected["type"], expected["seat"]) == ("defend", 1 - table.attacker)
        defender, first = 1 - table.attacker, str(attack[0])
        try_impossible(match, table, defender, lambda card, defender=defender, first=first: {
            "type": "defend", "seat": defender, "beats": [{"card": first, "with": card}]})
        match.play({"type": "defend", "seat": 1 - table.attacker,
                    "beats": [{"card": str(card), "with": str(other)} for card, other in pairs]})
        table.settle(attack, pairs)
        check_against(match, table)
    winner = table.winner()
    result = match.view()["deal"]["result"]
    assert result == {"winner": winner, "loser": None if winner is None else 1 - winner, "draw": winner is None}
