"""Small helpers that play Ogórek through `Match.play`, as the table would log it."""

from __future__ import annotations

from referee import Match
from referee.cards import RANKS

# The seed's worked example (seeds/000): S deals; seats S, W, N, E clockwise; Polish D (dama) is Q.
SEED_PLAYERS = ["S", "W", "N", "E"]
SEED_HANDS = {
    "S": ["A", "9", "9", "7", "6", "2"],
    "W": ["K", "K", "7", "6", "4", "3"],
    "N": ["Q", "Q", "10", "5", "5", "2"],
    "E": ["Q", "9", "9", "8", "7", "3"],
}
SEED_TRICKS = [
    [("W", "K"), ("N", "2"), ("E", "3"), ("S", "A")],
    [("S", "9"), ("W", "K"), ("N", "5"), ("E", "7")],
    [("W", "7"), ("N", "Q"), ("E", "Q"), ("S", "2")],
    [("E", "9"), ("S", "9"), ("W", "3"), ("N", "Q")],
    [("N", "10"), ("E", "8"), ("S", "6"), ("W", "4")],
    [("N", "5"), ("E", "9"), ("S", "7"), ("W", "6")],
]


def seed_match(known_hands: bool = False) -> Match:
    """The seed's table with its deal logged (S deals), blind or with the four hands given."""
    match = Match.create("ogorek", SEED_PLAYERS)
    deal = {"type": "deal", "dealer": 0}
    if known_hands:
        deal["hands"] = {str(SEED_PLAYERS.index(name)): cards for name, cards in SEED_HANDS.items()}
    match.play(deal)
    return match


def play(match: Match, who: int | str, card: str, **extra):
    """One play by a seat (or a player's name): (event, warnings, findings)."""
    seat = match.players.index(who) if isinstance(who, str) else who
    return match.play({"type": "play", "seat": seat, "card": card, **extra})


def play_in_turn(match: Match, cards: list[str]) -> list:
    """Each card played by whoever's turn it is; the findings raised on the way."""
    findings = []
    for card in cards:
        _, _, found = play(match, match.expected()["seat"], card)
        findings.extend(found)
    return findings


def finish_deal(match: Match, last: dict[int, str]) -> list:
    """Play out the deal in progress (at most 4 players, from its start) so that seat s shows `last[s]`.

    In each of the first five tricks everybody plays the same rank, so every play is legal; the ranks
    are the lowest ones that no last card uses.
    """
    deal = match.state.deal
    assert len(deal.seats) <= 4 and not any(trick.plays for trick in deal.tricks)
    filler = [rank for rank in RANKS if rank not in last.values()][:5]
    findings = []
    for rank in filler:
        findings += play_in_turn(match, [rank] * len(deal.seats))
    for _ in deal.seats:
        seat = match.expected()["seat"]
        findings += play(match, seat, last[seat])[2]
    return findings


def deal_and_finish(match: Match, last: dict[int, str], **deal) -> list:
    """A whole deal, the dealer by the rule unless named: seat s ends holding `last[s]`."""
    match.play({"type": "deal", **deal})
    return finish_deal(match, last)
