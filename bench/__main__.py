"""`python -m bench` (`make bench`): Kibic's benchmarks; prints the results and writes bench/results.md.

On loopback only, each loop bounded in count and in time; about three minutes on two cores
(`--quick`: a smoke run of a few seconds per part, for trying the benchmarks out).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from . import baseline, engine, load, profile, report, servers

RESULTS = Path(__file__).with_name("results.md")
GAMES = ("ogorek", "ogurets", "oh_hell", "duren")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, not for the record")
    parser.add_argument("--tables", type=int, default=24, help="tables played at once in the load run")
    args = parser.parse_args()
    quick = args.quick
    results: dict = {"quick": quick, "tables": args.tables, "workers": servers.WORKERS}

    print("1. engine: random full matches ...", flush=True)
    results["engine"] = engine.run(seconds=0.5 if quick else 4.0)

    with tempfile.TemporaryDirectory(prefix="kibic-bench-") as folder:
        kibic_env = {"REFEREE_DB": str(Path(folder) / "kibic" / "referee.db")}
        baseline_env = {"BASELINE_DB": str(Path(folder) / "baseline.db")}
        baseline.prepare(baseline_env["BASELINE_DB"])
        with servers.gunicorn("api:create_app()", kibic_env) as kibic, \
                servers.gunicorn("bench.baseline:create_app()", baseline_env) as floor:
            print("2. HTTP: one client, Kibic and the baseline in turn ...", flush=True)
            results["service"] = load.service_times(kibic, floor, rounds=40 if quick else 600,
                                                    seconds=10 if quick else 90)
            cycles = 3 if quick else 40
            print(f"   {args.tables} tables at once: the baseline, then Kibic ...", flush=True)
            results["baseline_load"] = load.inserts_at_once(floor, args.tables, cycles * 7, seconds=60)
            results["kibic_load"] = load.tables_at_once(kibic, args.tables, cycles, seconds=60)
            print("3. growth: one long match, logged through HTTP ...", flush=True)
            results["growth"] = load.growth(kibic, late=300 if quick else 5000, rounds=10 if quick else 200)

    print("4. memory: matches held in one process ...", flush=True)
    results["memory"] = [memory(game, 100 if quick else 1000, 150) for game in GAMES]
    print("   where the time of a request goes (pyinstrument) ...", flush=True)
    results["profile"] = profile.breakdown(50 if quick else 400)

    text = report.markdown(results)
    print()
    print(text)
    if quick:
        print("(--quick: bench/results.md is left as it was)")
    else:
        RESULTS.write_text(text, encoding="utf-8")
        print(f"written to {RESULTS}")


def memory(game: str, count: int, events: int) -> dict:
    """Part 4 in a child process of its own, so that nothing else sits in its memory."""
    done = subprocess.run([sys.executable, "-m", "bench.memory", game, str(count), str(events)],
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


if __name__ == "__main__":
    main()
