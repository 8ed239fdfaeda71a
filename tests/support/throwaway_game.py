"""A throwaway game for the tests, registered for a test only: Sprint, a small climbing game with an event of its own.

Sprint is what a new game brings, and nothing more: a module's worth of rules on the climbing base (three cards
each, the ace highest, the family's ace led, the last card's points as minus points, the match over after a few
deals), an event of its own (`knock`: a knock on the table costs the knocker a minus point or more), its shapes
for the contract, its example, and its table simulator (its oracle of the rules, below, apart from the engine).
`registered()` puts it in the registry (`referee.GAMES`) and the simulators (`game_tables.SIMULATORS`) for the
block, and takes it out after; `create_app()` is Kibic with Sprint registered, for a gunicorn of the test's own.

It is never in the registry outside the tests that register it: the catalogue, the contract (openapi.yaml), the
words and the recorded logs know nothing of it, and the tests that hold every game to those steps find it
missing (tests/api/test_throwaway_game.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from game_tables import SIMULATORS, climbing

from referee import GAMES, InvalidInput
from referee.cards import RANKS
from referee.games.base import Decision
from referee.games.climbing import (
    ACE_LED_LOWEST,
    ClimbDeal,
    ClimbingGame,
    card_points,
    climbing_deal,
    deal_result,
    last_card_fields,
)
from referee.games.options import Option
from referee.games.table import Table, check_seat_in, groups_by, seat_of

NAME = "sprint"
MOST_KNOCKS = 3


class Sprint(ClimbingGame):
    name = NAME
    title = "Sprint"
    description = ("Three cards each, the ace highest; climb or play your lowest, an ace led makes everyone play "
                   "their lowest. The highest card of the last trick costs its value; after the deals, the fewest "
                   "minus points win.")
    min_players = 2
    max_players = 4
    hand_size = 3
    tricks_count = False
    player_figures = ("minus_points",)
    event_fields = {**ClimbingGame.event_fields, "knock": frozenset({"seat", "times"})}
    event_types = frozenset(event_fields)
    options = (
        ACE_LED_LOWEST,
        Option("deals", "integer", 3, "The match is over after this many deals.", minimum=1, maximum=9),
    )
    example = {
        "summary": "Sprint: W led an ace, so N must play their lowest card",
        "match": {"players": ["S", "W", "N"]},
        "events": [{"type": "deal", "dealer": 0}, {"type": "play", "seat": 1, "card": "A"}],
    }
    schemas = {
        **ClimbingGame.schemas,
        "Player": {
            "description": "A player of Sprint; `score` is their minus points.",
            "required": ["minus_points"],
            "properties": {"minus_points": {"type": "integer", "minimum": 0}},
        },
        "Deal": climbing_deal("The current (or last) deal of Sprint, three tricks.",
                              "Once the deal is over, the highest last card and who played it; else null."),
        "DealResult": deal_result(**last_card_fields(2)),
    }
    event_schemas = {
        "knock": {
            "description": "A knock on the table (Sprint): it costs the knocker `times` minus points (1 to 3).",
            "required": ["seat"],
            "properties": {"seat": {"$ref": "Seat"}, "times": {"type": "integer", "minimum": 1}},
        },
    }

    def chart(self, options: dict) -> dict:
        return {"figure": "scores", "label": "minus_points", "start": 0, "limit": None}

    def decide_knock(self, state: Table, command: dict, force: bool) -> Decision:
        seat = seat_of(state, command)
        check_seat_in(state, seat)
        times = command.get("times", 1)
        if isinstance(times, bool) or not isinstance(times, int) or not 1 <= times <= MOST_KNOCKS:
            raise InvalidInput("bad_points", f"times must be a whole number from 1 to {MOST_KNOCKS}.",
                               {"times": times})
        return Decision({"type": "knock", "seat": seat, "times": times})

    def evolve_knock(self, state: Table, event: dict) -> None:
        state.scores[event["seat"]] += event["times"]

    def score_deal(self, state: Table, deal: ClimbDeal) -> None:
        losers = self.highest_last(deal)
        points = card_points(losers[0].card)
        for play in losers:
            state.scores[play.seat] += points
        deal.result = self.last_card_result(losers, points)
        if state.deals_played >= state.options["deals"]:
            state.final = groups_by(state.seats, lambda seat: state.scores[seat])
            state.finished = True

    def player_view(self, state: Table, seat: int) -> dict:
        return {"minus_points": state.scores[seat]}


GAME = Sprint()

STRENGTH = {rank: place for place, rank in enumerate(RANKS)}  # the ace highest


def legal(hand: list[str], trick: list[str], options: dict) -> list[str]:
    """Sprint's oracle, as its rules above read: the cards of `hand` that may go on the trick so far, lowest first."""
    cards = sorted(set(hand), key=STRENGTH.get)
    if not trick:
        return cards
    if trick[0] == "A" and options["ace_led_lowest"]:
        return cards[:1]
    top = max(STRENGTH[card] for card in trick)
    return [card for card in cards if STRENGTH[card] >= top] or cards[:1]


@contextlib.contextmanager
def registered() -> Iterator[Sprint]:
    """Sprint in the registry and among the table simulators for the block; neither holds it after."""
    assert NAME not in GAMES and NAME not in SIMULATORS
    GAMES[NAME] = GAME
    SIMULATORS[NAME] = climbing(legal)
    try:
        yield GAME
    finally:
        del GAMES[NAME]
        del SIMULATORS[NAME]


def create_app():
    """Kibic with Sprint registered, for gunicorn (`throwaway_game:create_app()`, tests/support on the path)."""
    from api import create_app as kibic_app

    GAMES[NAME] = GAME
    return kibic_app()
