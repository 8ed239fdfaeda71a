"""Ogurets / Огурец (RULES.md §2): seven cards, the ace lowest yet worth 14, points in the tricks cost lives.

Suits do not matter. Ranks climb A < 2 < ... < 10 < J < Q < K (< joker, with `jokers: 3`). Each player
must play a card not lower than the highest on the table, or their lowest; a king as the highest card on the
table locks the trick: every later player in it plays their lowest card (`top_card_rule`), with or without
jokers (RULES.md §2, revised: a joker follows a king only as its player's lowest card; a joker led or played on
lower cards is the highest card, to be reached with a joker). Option `joker_overtakes_king` keeps the earlier
rule, under which a joker overtakes a king and the joker, not the king, locks the trick; a match created before
the revision has no such option in its header and keeps that earlier rule (`Option.earlier`).
The latest of equal highest cards takes the trick, face up, and its player leads the next.

After seven tricks each player counts the points in the tricks they took (2-10 face value, J 11, Q 12,
K 13, A 14, joker 15). Taking `threshold` (21) or more in a deal costs a life; a player with no lives left
is out and the last one left wins. When everyone still in loses their last life in the same deal, the
fewest points in that deal win and the others follow by their points in it, fewest first (equal: shared).

A player's `score` is the points they have taken in the current deal (the last one, between deals); the
history keeps each deal's points and the lives after it.
"""

from __future__ import annotations

from ..cards import JOKER, RANKS, Card
from .climbing import (
    SEATS,
    ClimbDeal,
    ClimbingGame,
    Requirement,
    Trick,
    by_seat,
    card_points,
    climbing_deal,
    deal_result,
)
from .options import Option
from .table import Table, eliminate

RANK_ORDER = ("A",) + tuple(rank for rank in RANKS if rank != "A") + (JOKER,)
MAX_THRESHOLD = 1000
MAX_LIVES = 10


def trick_points(trick: Trick) -> int:
    """The points in a trick: what its cards count (`card_points`: the ace 14, though it ranks lowest)."""
    return sum(card_points(play.card) for play in trick.plays)


class Ogurets(ClimbingGame):
    name = "ogurets"
    title = "Ogurets"
    description = ("Seven cards each, the ace lowest; play not lower than the highest card on the table, or your "
                   "lowest. Points in the tricks you take cost a life at the threshold; with no lives left, you "
                   "are out.")
    min_players = 2
    max_players = 7
    hand_size = 7
    rank_order = RANK_ORDER
    example = {
        "summary": "Ogurets: N's king tops the trick, so S must play their lowest card",
        "match": {"players": ["S", "W", "N"], "stake": "1", "currency": "PLN"},
        "events": [{"type": "deal", "dealer": 0}, {"type": "play", "seat": 1, "card": "9"},
                   {"type": "play", "seat": 2, "card": "K"}],
    }
    player_figures = ("lives", "deal_points")
    deal_figure = "deal_points_lives"
    options = (
        Option("jokers", "integer", 0, "Play with 3 jokers (a 55-card deck): the joker ranks above the king and is "
               "worth 15 points.", choices=(0, 3)),
        Option("top_card_rule", "boolean", True, "A king as the highest card on the table locks the trick: every "
               "later player in that trick plays their lowest card, even holding a king (with jokers that overtake "
               "the king, a joker locks it instead)."),
        Option("joker_overtakes_king", "boolean", False, "With jokers: a joker may overtake a king on top of the "
               "trick, and the joker, not the king, locks the trick (the earlier rule, kept by the matches created "
               "under it).",
               earlier=True),
        Option("threshold", "integer", 21, "Taking this many points or more in one deal costs a life.",
               minimum=1, maximum=MAX_THRESHOLD),
        Option("lives", "integer", 2, "Lives each player starts with; a player with none left is out.",
               minimum=1, maximum=MAX_LIVES),
    )
    # The shapes of what the game shows, for the contract (openapi.yaml): see `Game.schemas`.
    schemas = {
        **ClimbingGame.schemas,
        "Player": {
            "description": ("A player of Ogurets: `lives` left, and `score`, the same as `points`: the points in the "
                            "tricks they took in the current deal (the last one, between deals)."),
            "required": ["points", "tricks_taken"],
            "properties": {
                "points": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Points in the tricks taken in the current deal.",
                },
                "tricks_taken": {"type": "integer", "minimum": 0, "description": "Tricks taken in the current deal."},
            },
        },
        "Deal": climbing_deal(
            "The current (or last) deal of Ogurets, seven tricks; the tricks lie face up, so `taken` shows them.",
            "Once the deal is over, each player's points, who lost a life and who is out; else null.",
            taken={
                "type": "object",
                "propertyNames": {"pattern": "^[0-9]+$"},
                "description": ("By seat (as text), the tricks each player took in this deal, their cards and the "
                                "points in them."),
                "additionalProperties": {"$ref": "Taken"},
            }),
        "Taken": {
            "type": "object",
            "required": ["tricks", "cards", "points"],
            "additionalProperties": False,
            "description": "The tricks a player took in the deal, their cards and the points in them.",
            "properties": {
                "tricks": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 1},
                    "description": "The numbers of the tricks taken.",
                },
                "cards": {"type": "array", "items": {"$ref": "Card"}},
                "points": {"type": "integer", "minimum": 0},
            },
        },
        "DealResult": deal_result(points=by_seat({"type": "integer", "minimum": 0}), lost_life=SEATS, out=SEATS),
    }

    # --- what Ogurets says ---------------------------------------------------------------------
    def chart(self, options: dict) -> dict:
        return {"figure": "lives", "label": "lives", "start": options["lives"], "limit": None}

    def deck_size(self, options: dict) -> int:
        return 55 if options["jokers"] else 52

    def locking_rank(self, options: dict) -> str | None:
        if not options["top_card_rule"]:
            return None
        return JOKER if options["jokers"] and options["joker_overtakes_king"] else "K"

    def requirement(self, state: Table, deal: ClimbDeal) -> Requirement:
        """As every climbing game, except that a king that was the highest card on the table when it was played
        locks the trick for good (a joker played on it as its player's lowest card does not unlock it)."""
        options = state.options
        if options["top_card_rule"] and options["jokers"] and not options["joker_overtakes_king"]:
            top = None
            for play in deal.trick.plays:
                if top is None or self.strength(play.card) >= self.strength(top.card):
                    if play.card.rank == "K":
                        return Requirement("lowest", play.card)
                    top = play
            return Requirement("reach", top.card) if top else Requirement("any")
        return super().requirement(state, deal)

    # --- the fold ------------------------------------------------------------------------------
    def starting_lives(self, options: dict) -> int:
        return options["lives"]

    def new_deal(self, state: Table, event: dict, hands: dict[int, list[Card]]) -> ClimbDeal:
        state.scores = [0] * len(state.names)  # a player's score is the points taken in this deal
        return super().new_deal(state, event, hands)

    def take_trick(self, state: Table, deal: ClimbDeal, trick: Trick) -> None:
        state.scores[trick.winner] += trick_points(trick)

    def score_deal(self, state: Table, deal: ClimbDeal) -> None:
        threshold = state.options["threshold"]
        losing = [seat for seat in deal.seats if state.scores[seat] >= threshold]
        for seat in losing:
            state.lives[seat] -= 1
        out = sorted(seat for seat in losing if state.lives[seat] <= 0)
        deal.result = {
            "points": {str(seat): state.scores[seat] for seat in deal.seats},
            "lost_life": sorted(losing),
            "out": out,
        }
        eliminate(state, out, lambda seat: state.scores[seat])  # everyone out at once: by the points of this deal

    # --- views ---------------------------------------------------------------------------------
    def deal_details(self, state: Table, deal: ClimbDeal) -> dict:
        """Besides the cards left: the complete tricks each player of the deal has taken, in order, their cards and
        points (a score is the points taken in this deal)."""
        taken: dict[str, dict] = {}
        for seat in deal.seats:
            won = deal.won.get(seat, ())
            taken[str(seat)] = {"tricks": [trick.number for trick in won],
                                "cards": [play["card"] for trick in won for play in trick.view()["plays"]],
                                "points": state.scores[seat]}
        return {**super().deal_details(state, deal), "taken": taken}

    tallies = ("deals", "lives_lost")

    def tally(self, state: Table, seat: int) -> dict[str, int]:
        return {"deals": state.deals_in[seat], "lives_lost": state.options["lives"] - state.lives[seat]}

    def player_view(self, state: Table, seat: int) -> dict:
        deal = state.deal
        return {"points": state.scores[seat], "tricks_taken": len(deal.won.get(seat, ())) if deal is not None else 0}


GAME = Ogurets()
