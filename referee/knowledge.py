"""What is known about the hands in a deal: dealt hands when given, and the claims of blind plays.

At a real table the referee does not see the cards. A play that would be illegal unless the player's
hand was of some kind ("I cannot reach the highest card, so this is my lowest"; "I have no spades")
is accepted and its **claim** is kept. Each later card that the same player shows is held against the
claims still open; the first card that disproves a claim raises a finding on the earlier play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .cards import Card
from .verdicts import Finding


@dataclass
class Claim:
    """A blind play's claim about the rest of its player's hand.

    `disproof(card, trick)` returns the finding's (code, message, details) when `card`, shown later by the same
    player in the same deal in trick number `trick`, proves the claim false, and None when the card is consistent
    with it. It keeps no reference to the deal (which keeps the claim): a match let go is freed at once, with no
    cycle for Python's garbage collector to find.
    """

    seat: int
    seq: int
    disproof: Callable[[Card, int], tuple[str, str, dict] | None]
    deal: int | None = None
    trick: int | None = None


@dataclass
class Knowledge:
    """The dealt hands that were given (seat -> cards still held) and the open claims of one deal."""

    hands: dict[int, Counter] = field(default_factory=dict)
    claims: dict[int, list[Claim]] = field(default_factory=dict)

    def knows_hand(self, seat: int) -> bool:
        return seat in self.hands

    def hand(self, seat: int) -> Counter:
        return self.hands[seat]

    def held_by_others(self, seat: int, card: Card) -> int:
        """How many copies of `card` sit, unplayed, in the known hands of the other players."""
        return sum(hand[card] for other, hand in self.hands.items() if other != seat)

    def forget_hand(self, seat: int) -> None:
        """The table let a card stand that the given hand did not hold: that hand is no longer known."""
        self.hands.pop(seat, None)

    def remove(self, seat: int, card: Card) -> None:
        if seat in self.hands:
            hand = self.hands[seat]
            if hand[card] > 0:
                hand[card] -= 1
                if not hand[card]:
                    del hand[card]
            else:
                self.forget_hand(seat)

    def claim(self, claim: Claim) -> None:
        self.claims.setdefault(claim.seat, []).append(claim)

    def open_claims(self, seat: int) -> list[Claim]:
        return list(self.claims.get(seat, ()))

    def test(self, seat: int, cards: Iterable[Card], proof_seq: int, trick: int) -> list[Finding]:
        """Hold `cards`, just shown by `seat` in event `proof_seq` in trick number `trick`, against that seat's
        open claims.

        Each claim disproved becomes a finding and is closed, so a play is found at most once.
        """
        findings = []
        still_open = []
        cards = list(cards)
        for claim in self.claims.get(seat, ()):
            verdict = next((v for card in cards if (v := claim.disproof(card, trick))), None)
            if verdict is None:
                still_open.append(claim)
            else:
                code, message, *details = verdict
                findings.append(Finding(claim.seq, seat, code, message, proof_seq, claim.deal, claim.trick,
                                        dict(details[0]) if details else {}))
        if seat in self.claims:
            self.claims[seat] = still_open
        return findings
