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
from http.client import HTTPConnection, RemoteDisconnected
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

class Link:
    """Requests to one server from one client: on one connection held open across them, as a phone holds its own
    (`keep_alive`), or each on a new connection, closed after its answer."""

    def __init__(self, base: str, keep_alive: bool = True):
        url = urlsplit(base)
        self.host, self.port, self.keep_alive = url.hostname, url.port, keep_alive
        self.connection: HTTPConnection | None = None

    def call(self, method: str, path: str, body: object = None, headers: dict | None = None):
        """(status, headers, body, seconds): the seconds from sending (from connecting, on a new connection) to the
        answer's last byte. A kept-alive connection the server closed while idle is opened again once."""
        data = json.dumps(body).encode() if body is not None else None
        sent = {"Content-Type": "application/json"} if data is not None else {}
        sent.update(headers or {})
        reused = self.connection is not None
        start = time.perf_counter()
        try:
            response, payload = self.exchange(method, path, data, sent)
        except (RemoteDisconnected, ConnectionError):
            self.close()
            if not reused:
                raise
            start = time.perf_counter()
            response, payload = self.exchange(method, path, data, sent)
        if not self.keep_alive or response.will_close:
            self.close()
        return response.status, dict(response.getheaders()), payload, time.perf_counter() - start

    def exchange(self, method: str, path: str, data: bytes | None, headers: dict):
        if self.connection is None:
            self.connection = HTTPConnection(self.host, self.port, timeout=30)
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            return response, response.read()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection = None


def call(base: str, method: str, path: str, body: object = None, headers: dict | None = None):
    """One request on a new connection, closed after its answer: (status, headers, body, seconds)."""
    return Link(base, keep_alive=False).call(method, path, body, headers)


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

    def __init__(self, base: str, game: str, players: list[str], options: dict | None = None,
                 keep_alive: bool = False):
        self.base, self.link = base, Link(base, keep_alive)
        status, _, body, _ = self.link.call("POST", "/api/matches", {"game": game, "players": players,
                                                                     "options": options or {}, "stake": "1"})
        if status != 201:
            raise RuntimeError(f"creating a match: {status} {body[:300]!r}")
        created = json.loads(body)
        self.id, self.key, self.state = created["id"], created["key"], created
        self.posted: list[tuple[int, float]] = []

    def play(self, command: dict, lot=None) -> tuple[dict, list[dict], list[dict]]:
        status, _, body, seconds = self.link.call("POST", f"/api/matches/{self.id}/events", command,
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
    simulator; a new match starts when one is over. The `SCORED` game is played with `SCORED_OPTIONS`. With
    `keep_alive`, each match's requests go on one connection held open."""

    def __init__(self, base: str, game: str, rng: random.Random, keep_alive: bool = False):
        self.base, self.game, self.rng, self.keep_alive = base, game, rng, keep_alive
        self.new_match()

    def new_match(self) -> None:
        options = SCORED_OPTIONS if self.game == SCORED else {}
        self.match = HttpMatch(self.base, self.game, players(self.game), options, self.keep_alive)
        self.table = SIMULATORS[self.game](self.match, self.rng)

    def step(self) -> None:
        if self.table.step() is None:
            self.new_match()
            self.table.step()
