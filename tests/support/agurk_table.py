"""Agurk at a table, for the tests: the rules as our own oracle reads RULES.md §5, apart from the engine."""

from __future__ import annotations

from referee.cards import RANKS

STRENGTH = {rank: i for i, rank in enumerate(RANKS)}  # the ace highest


def legal(hand: list[str], trick: list[str], options: dict) -> list[str]:
    """The cards of `hand` that may go on the cards of the trick so far, lowest first."""
    cards = sorted(set(hand), key=STRENGTH.get)
    if not trick:
        return cards
    if trick[0] == "A" and options["ace_led_lowest"]:
        return cards[:1]
    top = max(STRENGTH[card] for card in trick)
    return [card for card in cards if STRENGTH[card] >= top] or cards[:1]
