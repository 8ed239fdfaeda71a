"""Where the time of a request goes: pyinstrument over plays and polls served in-process, summed by layer.

Runs in the benchmark's process on a temporary database (same storage settings as the server); the
layers are read from the file of each sampled frame. With the `bench` extra, pyinstrument's samples; without it,
cProfile's own time of each function (which adds its own cost to every call: the shares, not the milliseconds).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections import Counter
from pathlib import Path

LAYERS = [  # (layer, a piece of the file path), the first that matches names the layer
    ("SQLite (queries, commit, fsync)", "sqlite"),  # report.LAYER_SQLITE
    ("referee: the engine (decide, record, view)", "/referee/"),
    ("api: views, store, schemas", "/api/"),
    ("marshmallow (reading the request)", "marshmallow"),
    ("JSON", "/json/"),
    ("Flask and Werkzeug", "flask"),
    ("Flask and Werkzeug", "werkzeug"),
]


def layer(path: str, function: str = "") -> str:
    if function.startswith(("Connection.", "Cursor.", "'sqlite3.")):  # the sqlite3 module's own methods, in C
        return LAYERS[0][0]
    if "orjson" in function or "orjson" in path:
        return "JSON"
    return next((name for name, piece in LAYERS if piece in path), "other (Python, the test client)")


def breakdown(requests: int = 400, seed: int = 3) -> dict[str, tuple[float, dict[str, float]]] | None:
    """{kind of request: (seconds per request, {layer: share of its time})} for posting an Ogurets play and
    polling its state, in-process (no network, no gunicorn): pyinstrument's samples, or, without it, cProfile's
    own time of each function."""
    from api import create_app

    with tempfile.TemporaryDirectory(prefix="kibic-profile-") as folder:
        return profile_requests(create_app({"DATABASE": str(Path(folder) / "referee.db")}), requests, seed)


class Deterministic:
    """cProfile with pyinstrument's face, where pyinstrument is not installed: each function's own time by layer."""

    def __init__(self):
        import cProfile

        self.profile = cProfile.Profile()

    def start(self) -> None:
        self.profile.enable()

    def stop(self) -> None:
        self.profile.disable()

    def shares(self) -> dict[str, float]:
        import pstats

        totals: Counter[str] = Counter()
        for (path, _, function), (_, _, own, _, _) in pstats.Stats(self.profile).stats.items():
            totals[layer(path if path != "~" else function, function.rpartition(" of ")[2])] += own
        whole = sum(totals.values()) or 1.0
        return {name: seconds / whole for name, seconds in totals.most_common()}


def profiler():
    try:
        from pyinstrument import Profiler
    except ImportError:
        return Deterministic()
    return Profiler(interval=0.0002)


def profile_requests(app, requests: int, seed: int) -> dict[str, tuple[float, dict[str, float]]]:
    from .tables import SCORED, SCORED_OPTIONS, SIMULATORS

    client = app.test_client()
    match = InProcessMatch(client, SCORED, SCORED_OPTIONS)
    rng = random.Random(seed)
    table = SIMULATORS[SCORED](match, rng)
    shares = {}
    for kind in ("post a play", "poll, changed (200)"):
        profiling = profiler()
        done, spent = 0, 0.0
        while done < requests:
            if match.expected()["type"] != "play":  # a deal or a bid: logged, not measured
                table.step()
                continue
            if kind == "post a play":
                profiling.start()
                start = time.perf_counter()
                table.step()
            else:
                table.step()
                profiling.start()
                start = time.perf_counter()
                client.get(f"/api/matches/{match.id}")
            spent += time.perf_counter() - start
            profiling.stop()
            done += 1
        shares[kind] = (spent / requests, profiling.shares() if isinstance(profiling, Deterministic)
                        else self_time_by_layer(profiling.last_session.root_frame()))
    return shares


def self_time_by_layer(root) -> dict[str, float]:
    totals: Counter[str] = Counter()
    stack = [root]
    while stack:
        frame = stack.pop()
        if not frame.is_synthetic:  # a frame's own time is in its synthetic "[self]" children
            totals[layer(frame.file_path or "", frame.function)] += frame.total_self_time
        stack.extend(frame.children)
    whole = sum(totals.values()) or 1.0
    return {name: seconds / whole for name, seconds in totals.most_common()}


class InProcessMatch:
    """A match through the Flask test client, with the face the table simulators use."""

    def __init__(self, client, game: str, options: dict):
        from .tables import players

        created = client.post("/api/matches", json={"game": game, "players": players(game),
                                                    "options": options}).get_json()
        self.client, self.id, self.key, self.state = client, created["id"], created["key"], created

    @property
    def players(self) -> list[str]:
        return [player["name"] for player in self.state["players"]]

    @property
    def options(self) -> dict:
        return self.state["options"]

    def view(self) -> dict:
        return self.state

    def expected(self) -> dict | None:
        return self.state["expected"]

    def play(self, command: dict, lot=None):
        answer = self.client.post(f"/api/matches/{self.id}/events", json=command,
                                  headers={"Authorization": f"Bearer {self.key}"}).get_json()
        if "state" not in answer:
            raise RuntimeError(f"posting {command}: {answer}")
        self.state = answer["state"]
        return answer["event"], answer["warnings"], answer["findings"]
