"""Where the time of a request goes: pyinstrument over plays and polls served in-process, summed by layer.

Runs in the benchmark's process on a temporary database (same storage settings as the server); the
layers are read from the file of each sampled frame. Needs the `bench` extra (pyinstrument); without it
the breakdown is left out.
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
    if function.startswith(("Connection.", "Cursor.")):  # the sqlite3 module's own methods, in C
        return LAYERS[0][0]
    return next((name for name, piece in LAYERS if piece in path), "other (Python, the test client)")


def breakdown(requests: int = 400, seed: int = 3) -> dict[str, tuple[float, dict[str, float]]] | None:
    """{kind of request: (seconds per request, {layer: share of its time})} for posting an Ogurets play and
    polling its state, in-process (no network, no gunicorn)."""
    try:
        import pyinstrument  # noqa: F401
    except ImportError:
        return None
    from api import create_app

    with tempfile.TemporaryDirectory(prefix="kibic-profile-") as folder:
        return profile_requests(create_app({"DATABASE": str(Path(folder) / "referee.db")}), requests, seed)


def profile_requests(app, requests: int, seed: int) -> dict[str, tuple[float, dict[str, float]]]:
    from pyinstrument import Profiler

    from .tables import ENDLESS_OGURETS, NAMES
    from .tables import ogurets_table as table

    client = app.test_client()
    match = InProcessMatch(client, ENDLESS_OGURETS)
    rng = random.Random(seed)
    shares = {}
    deal, left = None, 0
    for kind in ("post a play", "poll, changed (200)"):
        profiler = Profiler(interval=0.0002)
        done, spent = 0, 0.0
        while done < requests:
            if left == 0:
                deal, left = table.Deal(match, rng, known=set()), 7 * len(NAMES)
                continue
            if kind == "post a play":
                profiler.start()
                start = time.perf_counter()
                table.play_legally(match, deal, rng)
            else:
                table.play_legally(match, deal, rng)
                profiler.start()
                start = time.perf_counter()
                client.get(f"/api/matches/{match.id}")
            spent += time.perf_counter() - start
            profiler.stop()
            left -= 1
            done += 1
        shares[kind] = (spent / requests, self_time_by_layer(profiler.last_session.root_frame()))
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

    def __init__(self, client, options: dict):
        from .tables import NAMES

        created = client.post("/api/matches", json={"game": "ogurets", "players": NAMES, "options": options}).get_json()
        self.client, self.id, self.key, self.state = client, created["id"], created["key"], created

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
