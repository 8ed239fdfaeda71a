"""Ogórek międzynarodowy (RULES.md §1): six cards, climb or play your lowest, the highest last card pays.

Suits do not matter and the ace ranks highest. After six tricks every player shows their last card;
whoever holds the highest pays its value in minus points (all of them, when several tie). A player whose
minus points exceed the limit is out; the last one left wins the pool.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from ..verdicts import InvalidInput
from .base import Decision
from .climbing import ClimbDeal, ClimbingGame, card_points, climbing_deal, deal_result, last_card_fields
from .options import Option
from .table import Table, check_seat_in, eliminate, seat_of

MAX_PENALTY_POINTS = 1000


class Ogorek(ClimbingGame):
    name = "ogorek"
    title = "Ogórek"
    description = ("Six cards each; play equal or higher than the highest card so far, or your lowest. "
                   "The highest last card takes its value in minus points; over the limit you are out.")
    min_players = 2
    max_players = 8
    hand_size = 6
    example = {
        "summary": ("Ogórek, as the scorer (with the key) reads it: W's hand is known; W led K, N played 2, "
                    "E must reach K"),
        "match": {"players": ["S", "W", "N", "E"], "stake": "0.50", "currency": "PLN"},
        "events": [{"type": "deal", "dealer": 0, "hands": {"1": ["K", "K", "7", "6", "4", "3"]}},
                   {"type": "play", "seat": 1, "card": "K"}, {"type": "play", "seat": 2, "card": "2"}],
    }
    tricks_count = False
    player_figures = ("minus_points",)
    event_fields = {**ClimbingGame.event_fields, "penalty": frozenset({"seat", "points", "reason"})}
    event_types = frozenset(event_fields)
    options = (
        Option("packets", "integer", 2, "The dealer gives the cards in packets of 2 (Małopolska) or 3 (Mazovia).",
               choices=(2, 3)),
        Option("ace_penalty", "integer", 21, "Minus points for an ace as the last card: 21, or 1 in the ace variant "
               "(the ace still ranks highest in play).", choices=(21, 1)),
        Option("limit", "integer", 21, "A player whose minus points exceed this is out (the limit itself is still in).",
               minimum=1, maximum=MAX_PENALTY_POINTS),
        Option("cut_penalty", "integer", 5, "Minus points for cutting the shuffled deck, logged as a penalty.",
               minimum=1, maximum=MAX_PENALTY_POINTS),
        Option("all_out", "choice", "share", "When everyone still in goes out in the same deal: they share the places "
               "left and the pool (share), or they take those places by their totals, the lowest first (lowest_total).",
               choices=("share", "lowest_total")),
    )
    # The shapes of what the game shows, for the contract (openapi.yaml): see `Game.schemas`.
    schemas = {
        **ClimbingGame.schemas,
        "Player": {
            "description": "A player of Ogórek; `score` is their minus points.",
            "required": ["minus_points"],
            "properties": {
                "minus_points": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Minus points so far, penalties included (the same as `score`).",
                },
            },
        },
        "Deal": climbing_deal("The current (or last) deal of Ogórek, six tricks.",
                              ("Once the deal is over, the highest last card, who showed it and the minus points it "
                               "cost each of them; else null.")),
        "DealResult": deal_result(**last_card_fields(1)),
    }
    event_schemas = {
        "penalty": {
            "description": ("Minus points for a player (Ogórek). Without `points`, the `cut_penalty` option: the "
                            "penalty for cutting the deck. `reason` is recorded only when given, as given (trimmed); "
                            "it is one line of text: a control character, line separator or text direction mark is "
                            "`422 bad_reason`."),
            "required": ["seat"],
            "properties": {
                "seat": {"$ref": "Seat"},
                "points": {"type": "integer", "minimum": 1},
                "reason": {"type": ["string", "null"], "maxLength": 200},
            },
        },
    }

    def chart(self, options: dict) -> dict:
        return {"figure": "scores", "label": "minus_points", "start": 0, "limit": options["limit"]}

    def evolve_end(self, state: Table, event: dict) -> None:
        # penalties given during an unfinished deal still count: over the limit is out before the end
        self.eliminate_over_limit(state, state.seats_in())
        if not state.finished:
            super().evolve_end(state, event)

    def eliminate_over_limit(self, state: Table, seats: list[int]) -> None:
        limit = state.options["limit"]
        eliminate(state, [seat for seat in seats if state.scores[seat] > limit], self.all_out_rule(state))

    # --- penalties -----------------------------------------------------------------------------
    def decide_penalty(self, state: Table, command: dict, force: bool) -> Decision:
        seat = seat_of(state, command)
        check_seat_in(state, seat)
        points = command.get("points", state.options["cut_penalty"])
        if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_PENALTY_POINTS:
            raise InvalidInput("bad_points", f"points must be a whole number from 1 to {MAX_PENALTY_POINTS}.",
                               {"points": points})
        reason = command.get("reason")
        if reason is not None and (not isinstance(reason, str) or len(reason) > 200):
            raise InvalidInput("bad_reason", "reason is a short text (at most 200 characters).")
        if reason and any(control(char) for char in reason):
            raise InvalidInput("bad_reason", "reason is one line of text, without control characters (a line break, "
                               "a tab, a text direction mark, ...).")
        event = {"type": "penalty", "seat": seat, "points": points}
        if reason and reason.strip():
            event["reason"] = reason.strip()  # only when given: the points alone say nothing of why
        return Decision(event)

    def evolve_penalty(self, state: Table, event: dict) -> None:
        seat = event["seat"]
        state.give_penalty(seat, event["points"], event["seq"], event.get("reason"))
        deal = state.deal
        if deal is None or deal.over:
            # between deals a penalty counts at once; during a deal, the deal is finished first
            self.eliminate_over_limit(state, [seat])

    # --- end of a deal -------------------------------------------------------------------------
    def score_deal(self, state: Table, deal: ClimbDeal) -> None:
        losers = self.highest_last(deal)
        points = card_points(losers[0].card, ace=state.options["ace_penalty"])  # the minus points of the last card
        for play in losers:
            state.scores[play.seat] += points
        deal.result = self.last_card_result(losers, points)
        self.eliminate_over_limit(state, deal.seats)

    def all_out_rule(self, state: Table) -> Callable[[int], int] | None:
        """Everyone still in out in the same deal: they share the places left, or take them by their totals."""
        return None if state.options["all_out"] == "share" else lambda seat: state.scores[seat]

    tallies = ("deals", "minus_points")

    def tally(self, state: Table, seat: int) -> dict[str, int]:
        """Minus points, penalties included, over the deals played to the end."""
        return {"deals": state.deals_in[seat], "minus_points": state.scores[seat]}

    def player_view(self, state: Table, seat: int) -> dict:
        return {"minus_points": state.scores[seat]}


GAME = Ogorek()


def control(char: str) -> bool:
    """A character that is no text of its own: controls, line and paragraph separators, text direction marks."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or "\u202a" <= char <= "\u202e" \
        or "\u2066" <= char <= "\u2069"
