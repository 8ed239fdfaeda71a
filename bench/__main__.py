"""`python -m bench` (`make bench`): Kibic's benchmarks; prints the results and writes bench/results.md.

On loopback only, each loop bounded in count and in time; about eight minutes on two cores
(`--quick`: a smoke run of a few seconds per part, for trying the benchmarks out). The history written by hand
under the results (`# History`) is kept when the file is written again.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from referee import GAMES

from . import baseline, capacity, club, corrections, engine, load, postgres, profile, report, servers

RESULTS = Path(__file__).with_name("results.md")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, not for the record")
    parser.add_argument("--clients", type=int, default=8, help="clients writing at once in the load run")
    parser.add_argument("--http", action="store_true",
                        help="part 2 alone (kept alive and a new connection per request), printed, not written")
    parser.add_argument("--capacity", type=int, nargs="*", metavar="TABLES",
                        help="part 5 alone, printed, not written: the steps given (the part's own without any), each "
                             "until one misses a goal")
    parser.add_argument("--followers", type=int, default=capacity.FOLLOWERS,
                        help="phones on each table's stream in part 5")
    parser.add_argument("--seconds", type=float, help="how long each step of part 5 taps")
    args = parser.parse_args()
    capacity.FOLLOWERS = args.followers
    quick = args.quick
    results: dict = {"quick": quick, "clients": args.clients, "workers": servers.WORKERS, "turns": load.TURNS}
    if args.http:
        over_http(results, growth=False)
        print(report.http_part(results))
        return
    if args.capacity is not None:
        results["capacity"] = tables_held(tuple(args.capacity) or capacity.STEPS, args.seconds or 20)
        print(report.capacity_part(results["capacity"]))
        return

    print("1. engine: random full matches ...", flush=True)
    results["engine"] = engine.run(seconds=0.5 if quick else 4.0)
    over_http(results)

    results["capacity"] = tables_held((50, 100) if quick else capacity.STEPS, args.seconds or (4 if quick else 20))

    print("6. PostgreSQL: writes and a follower's wait on one and two app servers, against SQLite ...", flush=True)
    results["postgresql"] = postgres.run(args.clients, seconds=3 if quick else 20, follows=10 if quick else 40)

    print("7. a correction near the start of a long match, against an undo ...", flush=True)
    results["corrections"] = corrections.run(quick)

    print("8. a club of 50 members, 200 evenings and 2,000 matches: its table, figures and ledger ...", flush=True)
    results["club"] = club.run(quick)

    print("4. memory: matches held in one process ...", flush=True)
    results["memory"] = [memory(game, 100 if quick else 1000, 150) for game in GAMES]
    print("   where the time of a request goes (pyinstrument) ...", flush=True)
    results["profile"] = profile.breakdown(50 if quick else 400)

    text = (report.markdown(results) + "\n" + postgres.markdown(results["postgresql"]) + "\n"
            + corrections.markdown(results["corrections"]) + "\n" + club.markdown(results["club"]))
    print()
    print(text)
    if quick:
        print("(--quick: bench/results.md is left as it was)")
    else:
        before = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
        RESULTS.write_text(report.written(text, before), encoding="utf-8")
        print(f"written to {RESULTS}")


def over_http(results: dict, growth: bool = True) -> None:
    """Parts 2 and 3: Kibic and the baseline, each a gunicorn of its own, both ways of connecting."""
    quick, clients = results["quick"], results["clients"]
    with tempfile.TemporaryDirectory(prefix="kibic-bench-") as folder:
        kibic_env = {"REFEREE_DB": str(Path(folder) / "kibic" / "referee.db")}
        baseline_env = {"BASELINE_DB": str(Path(folder) / "baseline.db")}
        baseline.prepare(baseline_env["BASELINE_DB"])
        kibic_server = servers.Gunicorn("api:create_app()", kibic_env, servers.WORKERS)
        floor_server = servers.Gunicorn("bench.baseline:create_app()", baseline_env, servers.WORKERS)
        try:
            kibic, floor = kibic_server.start(), floor_server.start()
            masters = kibic_server.process.pid, floor_server.process.pid
            print("2. HTTP: one client, Kibic and the baseline in turn, kept alive and not ...", flush=True)
            results["service"] = load.service_times(kibic, floor, rounds=40 if quick else 600,
                                                    seconds=10 if quick else 90)
            results["loads"] = {}
            for way, keep_alive in ((load.KEPT_ALIVE, True), (load.NEW_CONNECTIONS, False)):
                print(f"   {clients} clients writing at once, {way}: the baseline and Kibic in turn ...", flush=True)
                results["loads"][way] = load.writes_at_once(kibic, floor, clients, seconds=3 if quick else 24,
                                                            masters=masters, keep_alive=keep_alive)
            if growth:
                print("3. growth: one long match, logged through HTTP ...", flush=True)
                results["growth"] = load.growth(kibic, late=300 if quick else 5000, rounds=10 if quick else 200)
        finally:
            kibic_server.stop()
            floor_server.stop()


def tables_held(steps: tuple[int, ...], seconds: float) -> list:
    """Part 5: a gunicorn of its own, tables added in `steps` until one misses a goal."""
    with tempfile.TemporaryDirectory(prefix="kibic-bench-") as folder:
        server = servers.Gunicorn(env={"REFEREE_DB": str(Path(folder) / "referee.db")})
        try:
            base = server.start()
            print(f"5. capacity: tables tapping every {capacity.TAP_EVERY:.0f} s, {capacity.FOLLOWERS} phones on "
                  "each stream ...", flush=True)
            return capacity.run(base, server.process.pid, seconds=seconds, steps=steps)
        finally:
            server.stop()


def memory(game: str, count: int, events: int) -> dict:
    """Part 4 in a child process of its own, so that nothing else sits in its memory."""
    done = subprocess.run([sys.executable, "-m", "bench.memory", game, str(count), str(events)],
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


if __name__ == "__main__":
    main()
