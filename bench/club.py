"""A club's reads over its match summaries (`referee.club`): the season's table, a member's figures, the ledger.

`python -m bench.club [--quick]` runs this part alone. A synthetic club of 50 members, 200 evenings and 2,000
finished matches (10 an evening, each game of the catalogue in turn, 2 to 6 of the evening's 8 members at a
table, some places shared), built as the summaries the store would keep. Then, each timed `rounds` times: the
season's table by each rule over the whole season and over one month, one member's figures, every member's figures,
a head to head, the ledger over the 200 evenings and 100 payments, and the ratings recomputed from scratch; and,
for the write side, one evening's summary and one match's summary (`summarize`, made whenever a match changes)
against the match's own view on the same match (what every write already answers with). Goal: the table and a
member's figures within 100 ms at p95.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal

from referee import GAMES
from referee.club import evening_summary, figures, head_to_head, ledger, season_table, summarize

from .tables import whole_match

GOAL_MS = 100.0
MEMBERS, EVENINGS, PER_EVENING, AT_AN_EVENING = 50, 200, 10, 8
FIRST_DAY = date(2024, 9, 6)


def synthetic_club(seed: int = 7) -> tuple[list[dict], list[dict], list[dict]]:
    """(match summaries, evening summaries, payments) of a club that met every other day, 200 times."""
    rng = random.Random(seed)
    members = [f"member{i:02}" for i in range(MEMBERS)]
    games = list(GAMES.values())
    summaries, evenings, payments = [], [], []
    for night in range(EVENINGS):
        day = (FIRST_DAY + timedelta(days=2 * night)).isoformat()
        present = rng.sample(members, AT_AN_EVENING)
        tonight = []
        for number in range(PER_EVENING):
            game = games[(night * PER_EVENING + number) % len(games)]
            seated = rng.sample(present, rng.randint(game.min_players, min(game.max_players, 6)))
            tonight.append(synthetic_match(rng, f"e{night}m{number}", f"e{night}", day, f"{day}T{18 + number // 4}:"
                                           f"{number % 4 * 15:02}", game, seated))
        summaries += tonight
        evenings.append(evening_summary(f"e{night}", day, f"{day}T23:00", tonight))
        if night % 2:  # someone pays something they owe every other evening
            owed = evenings[-1]["transfers"]
            if owed:
                paid = owed[0]
                payments.append({"id": f"p{night}", "at": f"{day}T23:30", "from": paid["from"], "to": paid["to"],
                                 "amount": paid["amount"], "by": paid["from"]})
    return summaries, evenings, payments


def synthetic_match(rng: random.Random, match_id: str, evening: str, day: str, at: str, game,
                    seated: list[str]) -> dict:
    """A finished match's summary: places with the odd tie, nets that sum to zero, the game's own tallies."""
    order = sorted(range(len(seated)), key=lambda _: rng.random())
    places, place = [0] * len(seated), 1
    for rank, seat in enumerate(order):
        tied = rank and rng.random() < 0.15
        place = place if tied else rank + 1
        places[seat] = place
    nets = [Decimal(rng.randint(-300, 300)) / 100 for _ in seated[1:]]
    nets.insert(0, -sum(nets, Decimal(0)))
    players = [{"member": member, "place": places[seat], "net": str(nets[seat]),
                "figures": {**{name: rng.randint(0, 12) for name in game.tallies},
                            "illegal_found": int(rng.random() < 0.05), "illegal_let_stand": int(rng.random() < 0.05)}}
               for seat, member in enumerate(seated)]
    return {"match": match_id, "evening": evening, "game": game.name, "date": day, "at": at, "final": True,
            "players": players}


def timed(work: Callable[[], object], rounds: int) -> list[float]:
    """Milliseconds of each of `rounds` calls."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return times


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]


def run(quick: bool = False) -> dict:
    from api.ratings import ordinals, ratings

    summaries, evenings, payments = synthetic_club()
    member, other = summaries[0]["players"][0]["member"], summaries[0]["players"][1]["member"]
    middle = date.fromisoformat(summaries[len(summaries) // 2]["date"])
    month = (middle.isoformat(), (middle + timedelta(days=30)).isoformat())
    game = summaries[0]["game"]
    rated = ratings(summaries)
    by_rating = ordinals(rated, game)
    rounds = 5 if quick else 60
    reads = {
        "table by points, the season": lambda: season_table(summaries),
        "table by points, one month": lambda: season_table(summaries, None, *month),
        "table by money, the season": lambda: season_table(summaries, {"by": "money"}),
        "table by rating, one game": lambda: season_table(summaries, {"by": "rating"}, game=game, ratings=by_rating),
        "one member's figures": lambda: figures(summaries, members=[member]),
        "every member's figures": lambda: figures(summaries),
        "head to head": lambda: head_to_head(summaries, member, other),
        "the ledger (200 evenings, payments)": lambda: ledger(evenings, payments),
    }
    results = {"matches": len(summaries), "evenings": len(evenings), "payments": len(payments),
               "reads": {name: timed(work, rounds) for name, work in reads.items()},
               "ratings": timed(lambda: ratings(summaries), 2 if quick else 5)}
    tonight = summaries[:PER_EVENING]
    results["evening summary"] = timed(lambda: evening_summary("e0", tonight[0]["date"], "", tonight), rounds)
    rng = random.Random(3)
    results["summaries"] = {}
    for name in GAMES:
        match = whole_match(name, rng)
        members = [f"member{i}" for i in range(len(match.players))]
        made = timed(lambda m=match, ids=members: summarize(m, ids, match_id="m", date="2025-03-07"), rounds)
        view = timed(match.view, rounds)
        results["summaries"][name] = (statistics.median(made), statistics.median(view))
    return results


def markdown(results: dict) -> str:
    lines = [f"### A club: {results['matches']} matches, {results['evenings']} evenings, {MEMBERS} members, "
             f"{results['payments']} payments", "",
             f"Goal: the season's table and a member's figures within {GOAL_MS:.0f} ms at p95.", "",
             "| read | p50 ms | p95 ms |", "|---|---:|---:|"]
    for name, times in {**results["reads"], "ratings from scratch": results["ratings"],
                        "one evening's summary (at a write)": results["evening summary"]}.items():
        lines.append(f"| {name} | {statistics.median(times):.2f} | {p95(times):.2f} |")
    lines += ["", "| game | a match's summary, p50 ms | its view, p50 ms | summary / view |", "|---|---:|---:|---:|"]
    for name, (made, view) in results["summaries"].items():
        lines.append(f"| {name} | {made:.3f} | {view:.3f} | {made / view:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.club", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few rounds: a smoke run, not for the record")
    print(markdown(run(parser.parse_args().quick)))


if __name__ == "__main__":
    main()
