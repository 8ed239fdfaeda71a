"""Tables that play random legal matches, for the benchmarks: the tests' own table simulators.

The simulators live in `tests/` behind one interface (`game_tables.SIMULATORS`, one per game of the catalogue);
they deal shuffled decks and play by their own reading of the rules, through anything with the face of
`referee.Match`. `MATCHES` plays whole matches on the engine; `HttpMatch` gives a match served over HTTP that
face, so the same simulators can be the scorer of a table on a real server. Which game the HTTP runs play is
a setting (`tables.json`), not code: the benchmarks name no game.
"""

from __future__ import annotations

import json
import random
import sys
import time
from functools import partial
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from game_tables import SIMULATORS  # noqa: E402

from referee import GAMES, Match, Rejected  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dan"]
SETTINGS = json.loads(Path(__file__).with_name("tables.json").read_text(encoding="utf-8"))
SCORED = SETTINGS["scored"]["game"]
"""The game of the load and growth runs' scorer, played with `SCORED_OPTIONS` (its match never ends)."""
SCORED_OPTIONS = SETTINGS["scored"]["options"]
LOGGED = tuple(SETTINGS["logged"])
"""The games whose logs the capacity run replays, in turn."""


def players(game: str) -> list[str]:
    """As many of `NAMES` as the game seats."""
    return NAMES[:min(len(NAMES), GAMES[game].max_players)]


# --- whole matches on the engine -----------------------------------------------------------------

def whole_match(game: str, rng: random.Random) -> Match:
    """A random legal match of `game`, blind, played to its end (a series ended after a few deals)."""
    match = Match.create(game, players(game), stake="1")
    SIMULATORS[game](match, rng).play_out()
    return match


MATCHES = {game: partial(whole_match, game) for game in GAMES}


# --- matches over HTTP ---------------------------------------------------------------------------

def call(base: str, method: str, path: str, body: object = None, headers: dict | None = None):
    """One request on a new connection (gunicorn's sync workers close each one): (status, headers, body, seconds)."""
    url = urlsplit(base)
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Content-Type": "application/json"} if data is not None else {}
    sent.update(headers or {})
    start = time.perf_counter()
    connection = HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        payload = response.read()
    finally:
        connection.close()
    return response.status, dict(response.getheaders()), payload, time.perf_counter() - start


class StateFace:
    """The face of `referee.Match` the table simulators read, from `state`: the match as the server last sent it."""

    state: dict

    @property
    def players(self) -> list[str]:
        return [player["name"] for player in self.state["players"]]

    @property
    def options(self) -> dict:
        return self.state["options"]

    @property
    def seq(self) -> int:
        return self.state["seq"]

    def view(self) -> dict:
        return self.state

    def expected(self) -> dict | None:
        return self.state["expected"]


class HttpMatch(StateFace):
    """A match on a server, with the face of `referee.Match` that the table simulators use.

    The state is the one the server sent with its latest answer, as a phone keeps it; every posted
    event's latency is kept in `posted` as (seq, seconds).
    """

    def __init__(self, base: str, game: str, players: list[str], options: dict | None = None):
        self.base = base
        status, _, body, _ = call(base, "POST", "/api/matches", {"game": game, "players": players,
                                                                 "options": options or {}, "stake": "1"})
        if status != 201:
            raise RuntimeError(f"creating a match: {status} {body[:300]!r}")
        created = json.loads(body)
        self.id, self.key, self.state = created["id"], created["key"], created
        self.posted: list[tuple[int, float]] = []

    def play(self, command: dict, lot=None) -> tuple[dict, list[dict], list[dict]]:
        status, _, body, seconds = call(self.base, "POST", f"/api/matches/{self.id}/events", command,
                                        {"Authorization": f"Bearer {self.key}"})
        answer = json.loads(body)
        if status == 409 and "forceable" in answer["error"]["details"]:
            error = answer["error"]
            raise Rejected(error["code"], error["message"], seat=error["details"]["seat"],
                           forceable=error["details"]["forceable"])
        if status != 201:
            raise RuntimeError(f"posting {command}: {status} {answer}")
        self.state = answer["state"]
        self.posted.append((answer["event"]["seq"], seconds))
        return answer["event"], answer["warnings"], answer["findings"]


class Scorer:
    """The phone that logs a table's match over HTTP, one event per `step`, its moves from the game's table
    simulator; a new match starts when one is over. The `SCORED` game is played with `SCORED_OPTIONS`."""

    def __init__(self, base: str, game: str, rng: random.Random):
        self.base, self.game, self.rng = base, game, rng
        self.new_match()

    def new_match(self) -> None:
        options = SCORED_OPTIONS if self.game == SCORED else {}
        self.match = HttpMatch(self.base, self.game, players(self.game), options)
        self.table = SIMULATORS[self.game](self.match, self.rng)

    def step(self) -> None:
        if self.table.step() is None:
            self.new_match()
            self.table.step()
