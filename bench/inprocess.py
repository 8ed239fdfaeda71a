"""`python -m bench.inprocess [PLAYS]`: where a kept-alive tap's CPU goes, in-process, by layer (cProfile).

A play posted through the WSGI app as gunicorn calls it on a kept-alive connection (no connection set up), then the
same event's stream message built by the same app (as the worker that answered the tap builds it for its followers,
at the seq its watcher's look found) and by a second app on the same file (as the worker that did not answer the tap
builds it), then a poll that finds it. Each kind's CPU per request (all threads, from
`time.process_time`, cProfile's own cost included) and cProfile's own time of each function summed by layer
(`bench.profile.layer`). Steadier than the wall clock on a shared machine; the served figures are parts 2 and 5.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from werkzeug.test import EnvironBuilder

from .load import endless_match
from .profile import layer
from .tables import SCORED, SCORED_OPTIONS, players

KINDS = ("post a play", "stream message, the worker that answered", "stream message, the other worker",
         "poll, changed (200)")


def shares(profile: cProfile.Profile) -> Counter[str]:
    totals: Counter[str] = Counter()
    for (path, _, function), (_, _, own, _, _) in pstats.Stats(profile).stats.items():
        totals[layer(path if path != "~" else function, function.rpartition(" of ")[2])] += own
    return totals


def served(app, environ: dict) -> tuple[str, bytes]:
    said = []
    body = b"".join(app(environ, lambda status, headers, exc_info=None: said.append(status)))
    return said[0], body


def run(plays: int) -> dict[str, tuple[float, Counter[str]]]:
    """{kind: (CPU seconds per request, {layer: own seconds})}."""
    from api import create_app, stream

    with tempfile.TemporaryDirectory(prefix="kibic-inprocess-") as folder:
        database = str(Path(folder) / "referee.db")
        app, other = create_app({"DATABASE": database}), create_app({"DATABASE": database})
        made = app.test_client().post("/api/matches", json={"game": SCORED, "players": players(SCORED),
                                                            "options": SCORED_OPTIONS, "stake": "1"}).get_json()
        path, key = f"/api/matches/{made['id']}", made["key"]

        def posted(command: dict) -> dict:
            return EnvironBuilder(path=f"{path}/events", method="POST", data=json.dumps(command).encode(),
                                  headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json",
                                           "Host": "127.0.0.1"}).get_environ()

        commands = endless_match(random.Random(1), plays + 50)
        for command in commands[:50]:  # warm up: imports, caches, the first deal
            seq = json.loads(served(app, posted(command))[1])["event"]["seq"]
            stream.message(app, made["id"], seq)
            stream.message(other, made["id"], seq)
        profiles = {kind: cProfile.Profile() for kind in KINDS}
        cpu: Counter[str] = Counter()
        for command in commands[50:50 + plays]:
            environs = {KINDS[0]: posted(command),  # made before the clock starts
                        KINDS[3]: EnvironBuilder(path=path, headers={"Host": "127.0.0.1"}).get_environ()}
            seq = None
            for kind in KINDS:
                began = time.process_time()
                profiles[kind].enable()
                if kind == KINDS[0]:
                    answer = served(app, environs[kind])[1]
                elif kind in environs:
                    served(app, environs[kind])
                else:  # the seq the watcher's look found
                    stream.message(app if kind == KINDS[1] else other, made["id"], seq)
                profiles[kind].disable()
                cpu[kind] += time.process_time() - began
                if kind == KINDS[0]:
                    seq = json.loads(answer)["event"]["seq"]
        return {kind: (cpu[kind] / plays, shares(profiles[kind])) for kind in KINDS}


def main() -> None:
    plays = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    for kind, (seconds, totals) in run(plays).items():
        whole = sum(totals.values()) or 1.0
        print(f"{kind}: CPU {seconds * 1000:.3f} ms per request")
        for name, own in totals.most_common():
            print(f"   {own / whole * 100:5.1f} %  {own / plays * 1000:.3f} ms  {name}")


if __name__ == "__main__":
    main()
