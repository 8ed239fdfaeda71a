"""Trick play with suits and trumps: follow suit, the trick's winner, and what a blind discard claims.

Ace high. A player must follow the suit led if they can; otherwise any card, or, where trumping is
compulsory, a trump if they hold one. The highest trump takes the trick, or without trumps the highest
card of the suit led. At a real table the referee does not see the hands: a player who does not follow
claims to be void in the suit led (and, where trumping is compulsory and they did not trump, to hold no
trump); a later card of that suit from them proves the claim false.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..cards import RANKS, SUITS, Card
from ..knowledge import Claim

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def strength(card: Card) -> int:
    """Rank in play, ace high: 2 is 0, A is 12."""
    return RANKS.index(card.rank)


def card_order(card: Card) -> tuple[int, int]:
    """Sorting order of a hand: by suit (S H D C), then rank, lowest first."""
    return SUITS.index(card.suit), strength(card)


def show(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in sorted(cards, key=card_order))


@dataclass
class Play:
    """A card played into a trick: by whom, and as which event."""

    seat: int
    card: Card
    seq: int


@dataclass
class Trick:
    """A trick: its number in the deal, who led, the cards in order, and who took it once complete."""

    number: int
    lead: int
    plays: list[Play] = field(default_factory=list)
    winner: int | None = None

    @property
    def led(self) -> str | None:
        """The suit led, once the first card is down."""
        return self.plays[0].card.suit if self.plays else None


def trick_winner(trick: Trick, trump: str | None) -> int:
    """The seat of the highest trump in the trick, or without trumps of the highest card of the suit led."""
    trumps = [play for play in trick.plays if play.card.suit == trump]
    contenders = trumps or [play for play in trick.plays if play.card.suit == trick.led]
    return max(contenders, key=lambda play: strength(play.card)).seat


def legal_cards(held: Counter, led: str | None, trump: str | None, must_trump: bool) -> list[Card]:
    """The cards of a known hand that may be played, sorted: follow suit, else (must_trump) trump, else any."""
    cards = sorted(held, key=card_order)
    if led is None:
        return cards
    follow = [card for card in cards if card.suit == led]
    if follow:
        return follow
    trumps = [card for card in cards if card.suit == trump] if must_trump and trump else []
    return trumps or cards


def broken_rule(name: str, held: Counter, card: Card, led: str | None, trump: str | None,
                 must_trump: bool) -> tuple[str, str, dict] | None:
    """The rule that playing `card` from the known hand `held` breaks, as (code, message, details), or None.

    The hand is the table's secret: the verdict names the rule and the card played, no other card of it.
    """
    if held[card] == 0:
        return "card_not_in_hand", f"{name} was dealt no {card}.", {"card": str(card)}
    if card in legal_cards(held, led, trump, must_trump):
        return None
    if any(c.suit == led for c in held):
        return ("must_follow_suit", f"{name} holds {SUIT_NAMES[led]} and must follow suit, not play {card}.",
                {"card": str(card), "led": led})
    return ("must_trump", f"{name} cannot follow {SUIT_NAMES[led]}, holds a trump and must trump, not play {card}.",
            {"card": str(card), "led": led, "trump": trump})


def discard_claim(name: str, seat: int, seq: int, card: Card, trick: Trick, trump: str | None, must_trump: bool,
                  deal: int, trick_now: Callable[[], int]) -> Claim | None:
    """What a blind play off the suit led claims: void in that suit, and (must_trump, not a trump) no trump.

    `trick_now()` gives the number of the trick being played when a later card disproves the claim.
    """
    led = trick.led
    if led is None or card.suit == led:
        return None
    no_trump = trump if must_trump and trump and card.suit != trump else None
    lead = trick.plays[0].card
    where = f"in trick {trick.number} of hand {deal}"

    def disproof(later: Card) -> tuple[str, str] | None:
        if later.suit == led:
            return "must_follow_suit", (f"{name} did not follow {SUIT_NAMES[led]} {where} (played {card} on "
                                        f"{lead}), but played {later} in trick {trick_now()}: a revoke."), {
                "card": str(card), "lead": str(lead), "led": led, "trick": trick.number, "deal": deal,
                "later": str(later), "later_trick": trick_now(), "case": "found"}
        if later.suit == no_trump:
            return "must_trump", (f"{name} could not follow {SUIT_NAMES[led]} {where} and did not trump (played "
                                  f"{card} on {lead}), but played the trump {later} in trick {trick_now()}."), {
                "card": str(card), "lead": str(lead), "led": led, "trick": trick.number, "deal": deal,
                "later": str(later), "later_trick": trick_now(), "case": "found"}
        return None

    return Claim(seat, seq, disproof, deal, trick.number)
