"""`python -m bench.against CHECKOUT [SECONDS]`: a play's p50 here against another checkout of Kibic, both served in
one run, plays posted to each in turn (in a random order each round), so that both see the same machine.

For a change that must cost a play no more than some share of what it cost before (the referee's counting of
unseen cards: within 10 %): `git worktree add --detach ../before COMMIT`, then `python -m bench.against ../before`.
The other checkout runs with this one's virtual environment (its dependencies must be installed here too); each
server is two gunicorn workers with the checkout's own settings, on a database of its own, on loopback.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from . import load, servers

HERE = Path(__file__).resolve().parents[1]
READY = {True: r"Worker ready with pid", False: r"Booting worker"}  # an older checkout says only the latter


def serve(root: Path, folder: str) -> servers.Gunicorn:
    """Kibic of the checkout `root`, started (the tests' launcher, pointed at that checkout)."""
    import gunicorn_server

    config = root / "gunicorn.conf.py"
    gunicorn_server.ROOT, gunicorn_server.CONFIG = root, config
    gunicorn_server.READY = re.compile(READY[(root / "api" / "gunicorn_conf.py").exists()])
    database = f"{folder}/referee.db"
    server = servers.Gunicorn(env={"REFEREE_DB": database, "KIBIC_DB": database, "PYTHONPATH": str(root),
                                   "KIBIC_CREATION_LIMIT": "none"}, workers=servers.WORKERS)
    server.start()
    time.sleep(3)  # an older checkout's workers say they boot before they have loaded the app
    return server


def main() -> None:
    other = Path(sys.argv[1]).resolve()
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    with tempfile.TemporaryDirectory() as here_folder, tempfile.TemporaryDirectory() as other_folder:
        started = {"here": serve(HERE, here_folder), "other": serve(other, other_folder)}
        try:
            scorers = {side: load.Scorer(server.base, load.SCORED, random.Random(1))
                       for side, server in started.items()}
            times: dict[str, list[float]] = {side: [] for side in started}
            for _ in range(30):  # warm up: imports, caches, the first deal
                for scorer in scorers.values():
                    load.post(scorer)
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                for side in random.sample(sorted(scorers), 2):
                    times[side].append(load.post(scorers[side])[1])
        finally:
            for server in started.values():
                server.stop()
    p50 = {side: statistics.median(values) * 1000 for side, values in times.items()}
    print(f"a play's p50: here {p50['here']:.3f} ms, {other} {p50['other']:.3f} ms, "
          f"{len(times['here'])} plays each; here / there {p50['here'] / p50['other']:.3f}")


if __name__ == "__main__":
    main()
