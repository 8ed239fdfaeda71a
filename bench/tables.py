"""Tables that play random legal matches, for the benchmarks: the tests' own table simulators.

The simulators live in `tests/` (`ogorek_table.py`, `ogurets_table.py`, `oh_hell_table.py`,
`duren_table.py`); they deal shuffled decks and play by their own reading of the rules, through anything
with the face of `referee.Match`. `matches` plays whole matches on the engine; `HttpMatch` gives a
match served over HTTP that face, so the same simulators can be the scorer of a table on a real server.
"""

from __future__ import annotations

import json
import random
import sys
import time
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import duren_table  # noqa: E402
import ogorek_table  # noqa: E402
import ogurets_table  # noqa: E402
import oh_hell_table  # noqa: E402

from referee import Match, Rejected  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dan"]
DUREN_DEALS = 5  # a Dureń series runs until the players end it: here after five deals
ENDLESS_OGURETS = {"threshold": 1000}  # no deal can take 1000 points: nobody loses a life, the match goes on


# --- whole matches on the engine -----------------------------------------------------------------

def ogorek(rng: random.Random) -> Match:
    return ogorek_table.Table(rng, len(NAMES), {}, "1", known=False).play_match()


def ogurets(rng: random.Random) -> Match:
    match = Match.create("ogurets", NAMES, stake="1")
    while not match.state.finished:
        deal = ogurets_table.Deal(match, rng, known=set())
        for _ in range(7 * len(deal.order)):
            ogurets_table.play_legally(match, deal, rng)
    return match


def oh_hell(rng: random.Random) -> Match:
    match = Match.create("oh_hell", NAMES, stake="1")
    oh_hell_table.SimTable(match, rng, first_dealer=rng.randrange(len(NAMES))).play_out()
    return match


def duren(rng: random.Random) -> Match:
    """A series of `DUREN_DEALS` deals, ended by the players: attacks and defences of the table simulator."""
    match = Match.create("duren", NAMES[:2], stake="1")
    dealer = rng.randrange(2)
    for _ in range(DUREN_DEALS):
        table = duren_table.Table(rng, 24, dealer)
        match.play({"type": "deal", "dealer": dealer, "trump": str(table.face_up)})
        while not table.over():
            attack = table.attack()
            match.play({"type": "attack", "seat": table.attacker, "cards": [str(card) for card in attack]})
            pairs = table.defend(attack)
            match.play({"type": "defend", "seat": 1 - table.attacker,
                        "beats": [{"card": str(card), "with": str(other)} for card, other in pairs]})
            table.settle(attack, pairs)
        dealer = match.expected()["dealer"]
    match.play({"type": "end"})
    return match


MATCHES = {"ogorek": ogorek, "ogurets": ogurets, "oh_hell": oh_hell, "duren": duren}


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


class HttpMatch:
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
    """The phone that logs a table's match over HTTP, one event per `step`, its moves from a table simulator.

    Ogurets (set never to end) deals and plays; Oh Hell deals, bids and plays, and a new match starts
    when one is over.
    """

    def __init__(self, base: str, game: str, rng: random.Random):
        self.base, self.game, self.rng = base, game, rng
        self.new_match()

    def new_match(self) -> None:
        if self.game == "ogurets":
            self.match = HttpMatch(self.base, "ogurets", NAMES, ENDLESS_OGURETS)
            self.deal, self.left = None, 0
        else:
            self.match = HttpMatch(self.base, "oh_hell", NAMES)
            self.table = oh_hell_table.SimTable(self.match, self.rng, first_dealer=self.rng.randrange(len(NAMES)))

    def step(self) -> None:
        if self.game == "ogurets":
            if self.left == 0:
                self.deal = ogurets_table.Deal(self.match, self.rng, known=set())
                self.left = 7 * len(self.deal.order)
            else:
                ogurets_table.play_legally(self.match, self.deal, self.rng)
                self.left -= 1
            return
        if self.match.expected() is None:
            self.new_match()
        self.table.step()
