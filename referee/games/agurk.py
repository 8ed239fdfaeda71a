"""Agurk, the Danish cucumber (RULES.md §5): seven cards, climb or play your lowest, the last trick's highest card
scores, over 21 costs a life and you come back with the highest total of the others.

Suits do not matter and the ace ranks highest. Each player must play a card equal to or higher than the highest
card so far in the trick, or their lowest; an ace led makes every other player play their lowest card
(`ace_led_lowest`). The latest of equal highest cards takes the trick and leads the next. After seven tricks the
player of the highest card of the last trick scores its value (2-10, J 11, Q 12, K 13, A 14; equal highest
cards all score). A total over the `limit` costs a life: with one left the player comes back at once with the
highest total among the players who did not lose one in that deal (0 if none); with none left the player is
out. The last one in wins; with a stake, Ogórek's elimination pool pays.
"""

from __future__ import annotations

from .climbing import (
    ACE_LED_LOWEST,
    SEATS,
    ClimbDeal,
    ClimbingGame,
    by_seat,
    card_points,
    climbing_deal,
    deal_result,
    last_card_fields,
)
from .options import Option
from .table import Table, eliminate

MAX_LIMIT = 1000
MAX_LIVES = 10


class Agurk(ClimbingGame):
    name = "agurk"
    title = "Agurk"
    description = ("Seven cards each, the ace highest; play equal or higher than the highest card so far, or your "
                   "lowest; an ace led makes everyone play their lowest. The highest card of the last trick scores "
                   "its value; over the limit you lose a life and come back with the highest total of the others.")
    min_players = 2
    max_players = 7
    hand_size = 7
    tricks_count = False
    player_figures = ("lives", "minus_points")
    example = {
        "summary": "Agurk: W led an ace, so N and E must play their lowest card",
        "match": {"players": ["S", "W", "N", "E"], "stake": "1", "currency": "DKK"},
        "events": [{"type": "deal", "dealer": 0}, {"type": "play", "seat": 1, "card": "A"},
                   {"type": "play", "seat": 2, "card": "3"}],
    }
    options = (
        ACE_LED_LOWEST,
        Option("limit", "integer", 21, "A total over this costs a life (the limit itself is still safe).",
               minimum=1, maximum=MAX_LIMIT),
        Option("lives", "integer", 2, "Lives each player starts with: with 2, the first cucumber is survived.",
               minimum=1, maximum=MAX_LIVES),
    )
    # The shapes of what the game shows, for the contract (openapi.yaml): see `Game.schemas`.
    schemas = {
        **ClimbingGame.schemas,
        "Player": {"description": "A player of Agurk; `score` is their total of points, `lives` the lives left."},
        "Deal": climbing_deal(
            "The current (or last) deal of Agurk, seven tricks.",
            ("Once the deal is over: the highest card of the last trick, who played it and the points it scored each "
             "of them; who lost a life (a cucumber), the total each of those still in came back with, and who is out; "
             "else null.")),
        "DealResult": deal_result(**last_card_fields(2), lost_life=SEATS,
                                  comeback=by_seat({"type": "integer", "minimum": 0}), out=SEATS),
    }

    def chart(self, options: dict) -> dict:
        return {"figure": "scores", "label": "minus_points", "start": 0, "limit": options["limit"]}

    # --- what Agurk says -----------------------------------------------------------------------
    def starting_lives(self, options: dict) -> int:
        return options["lives"]

    def score_deal(self, state: Table, deal: ClimbDeal) -> None:
        losers = self.highest_last(deal)
        points = card_points(losers[0].card)
        for play in losers:
            state.scores[play.seat] += points
        limit = state.options["limit"]
        losing = sorted(seat for seat in deal.seats if state.scores[seat] > limit)
        for seat in losing:
            state.lives[seat] -= 1
        out = [seat for seat in losing if state.lives[seat] <= 0]
        safe = [state.scores[seat] for seat in deal.seats if seat not in losing]
        comeback = max(safe, default=0)
        back = [seat for seat in losing if seat not in out]
        for seat in back:
            state.scores[seat] = comeback
        deal.result = {
            **self.last_card_result(losers, points),
            "lost_life": losing,
            "comeback": {str(seat): comeback for seat in back},
            "out": out,
        }
        eliminate(state, out)  # everyone still in out at once: they share the places left

    tallies = ("deals", "lives_lost")

    def tally(self, state: Table, seat: int) -> dict[str, int]:
        return {"deals": state.deals_in[seat], "lives_lost": state.options["lives"] - state.lives[seat]}


GAME = Agurk()
