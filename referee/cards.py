"""Cards: ranks, suits, decks, and the API's card notation.

A card is a rank and, where the game cares, a suit. Ranks are written `2`-`10` (or `T`), `J`, `Q`,
`K`, `A`; suits `S` `H` `D` `C` (or ♠ ♥ ♦ ♣); the joker is `X`. Each game orders the ranks its own
way, so this module keeps no order of play: only the notation, the decks, and the order people sort a
hand in to read it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from .verdicts import InvalidInput

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKER = "X"
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
VARIATION_SELECTORS = ("\ufe0e", "\ufe0f")  # phones send ♥ as the emoji ♥️: the symbol and a selector
COPIES_OF_RANK = 4
DECK_SIZES = (24, 36, 52, 55)
FIRST_RANK_OF_DECK = {24: "9", 36: "6", 52: "2", 55: "2"}
JOKERS_IN_DECK = {24: 0, 36: 0, 52: 0, 55: 3}

_RANK_ALIASES = {"T": "10"}


class CardError(InvalidInput):
    "A card written in a way the referee cannot read"

    def __init__(self, message: str):
        super().__init__("bad_card", message)


@dataclass(frozen=True, order=True)
class Card:
    """A card as people name it: `10H`, `QS`, a bare rank `K` where suits do not matter, or `X`.

    Its text and hash are worked out once, when it is made: a view of a match writes every card played in the
    deal, and the referee looks cards up in counts at every play.
    """

    rank: str
    suit: str | None = None
    text: str = field(init=False, repr=False, compare=False)
    hashed: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self.rank + (self.suit or ""))
        object.__setattr__(self, "hashed", hash((self.rank, self.suit)))

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return self.hashed

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER


def parse_card(text: object, *, suited: bool) -> Card:
    """Read one card in the API's notation.

    `suited=False` (games where suits do not matter) accepts a rank alone and drops a suit if one is
    written; `suited=True` needs the suit (jokers have none).
    """
    if not isinstance(text, str):
        raise CardError(f"A card is written as text, like 10H or K, not {text!r}.")
    return _parse_card(text, suited)


@lru_cache(maxsize=4096)
def _parse_card(text: str, suited: bool) -> Card:
    # every play is read again at each refold and replay: read each spelling once
    raw = text.strip().upper()
    for selector in VARIATION_SELECTORS:
        raw = raw.replace(selector, "")
    for symbol, letter in SUIT_SYMBOLS.items():
        raw = raw.replace(symbol, letter)
    if raw in (JOKER, "JOKER"):
        return Card(JOKER)
    suit = None
    if len(raw) >= 2 and raw[-1] in SUITS:
        rank, suit = raw[:-1], raw[-1]
    else:
        rank = raw
    rank = _RANK_ALIASES.get(rank, rank)
    if rank not in RANKS:
        how = "then the suit S, H, D or C, as in 10H" if suited else "as in 10 or K"
        raise CardError(f"{text!r} is not a card: write the rank 2-10, J, Q, K or A, {how}.")
    if not suited:
        return Card(rank)
    if suit is None:
        raise CardError(f"{text!r} needs a suit in this game: S, H, D or C, as in {rank}H.")
    return Card(rank, suit)


def deck(size: int, *, suited: bool = True) -> list[Card]:
    """The cards of a deck of 24, 36, 52 or 55 (52 and three jokers) cards, lowest ranks first."""
    if size not in DECK_SIZES:
        raise ValueError(f"no deck of {size} cards")
    ranks = RANKS[RANKS.index(FIRST_RANK_OF_DECK[size]):]
    cards = [Card(rank, suit if suited else None) for rank in ranks for suit in SUITS]
    return cards + [Card(JOKER)] * JOKERS_IN_DECK[size]


@cache
def copies_in_deck(size: int, *, suited: bool) -> Counter[Card]:
    """How many of each card the deck holds: 1 of each suited card, 4 of each bare rank, 3 jokers (none of a card not
    in the deck). Counted once per deck (the referee asks at every play) and shared: read it, never change it."""
    return Counter(deck(size, suited=suited))


def card_order(card: Card) -> tuple[int, int]:
    """The order people sort a hand in to read it: by suit (S H D C), then rank, lowest first, ace high."""
    return SUITS.index(card.suit), RANKS.index(card.rank)


def listed(cards: Iterable[Card]) -> list[str]:
    """Cards as people read them, by suit and rank."""
    return [str(card) for card in sorted(cards, key=card_order)]


def show(cards: Iterable[Card]) -> str:
    return " ".join(listed(cards))
