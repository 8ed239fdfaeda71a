"""Kibic's referee: the rules of the card games, as a pure fold of a match's events."""

from .cards import Card, CardError, parse_card
from .games import GAMES, catalogue, get_game
from .match import Match
from .verdicts import CODES, Finding, InvalidInput, RefereeWarning, Rejected

__all__ = [
    "CODES",
    "Card",
    "CardError",
    "Finding",
    "GAMES",
    "InvalidInput",
    "Match",
    "RefereeWarning",
    "Rejected",
    "catalogue",
    "get_game",
    "parse_card",
]
