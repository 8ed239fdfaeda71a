"""A club's reads over its match summaries (`referee.club`): the season's table, a member's figures, the ledger.

`python -m bench.club [--quick]` runs this part alone. A synthetic club of 50 members, 200 evenings and 2,000
finished matches (10 an evening, each game of the catalogue in turn, 2 to 6 of the evening's 8 members at a
table, some places shared), built as the summaries the store would keep. Then, each timed `rounds` times: the
season's table by each rule over the whole season and over one month, one member's figures, every member's figures,
a head to head, the ledger over the 200 evenings and 100 payments, and the ratings recomputed from scratch; and,
for the write side, one evening's summary and one match's summary (`summarize`, made whenever a match changes)
against the match's own view on the same match (what every write already answers with). Goal: the table and a
member's figures within 100 ms at p95.

Then the same over the real read path (`served`): a club of the same size in a SQLite file (the matches' logs
played by the tests' table simulators, a few per game, each seated by other members; the clubs, evenings and
matches made through the API, the logs written into the file at once), read through the Flask test client:
`GET /api/clubs/{id}` (the season's table and everything else) and `GET /api/clubs/{id}/members/{member}` (a member's
figures) in a new app on the file, whose first read takes the summaries the store keeps (cold), then again and again
(warm), and once with the stored summaries deleted (every log refolded: what a new process did before the store
kept them). And a write's cost: plays posted in turn to a match of the club and to a match of no club.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from referee import GAMES
from referee.club import evening_summary, figures, head_to_head, ledger, season_table, summarize

from .tables import SCORED, SCORED_OPTIONS, SIMULATORS, StateFace, players, whole_match

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
    results["served"] = served(quick)
    return results


# --- over the real read path --------------------------------------------------------------------------------------
LOGS_PER_GAME = 4  # whole matches played per game; each is the log of many of the club's matches, seated apart


def new_app(database: str):
    from api import create_app

    return create_app({"DATABASE": database, "CREATION_LIMIT": "none"})


def posted(client, path: str, body: dict, key: str | None = None) -> dict:
    answer = client.post(path, json=body, headers={"Authorization": f"Bearer {key}"} if key else {})
    if answer.status_code != 201:
        raise RuntimeError(f"POST {path}: {answer.status_code} {answer.get_json()}")
    return answer.get_json()


def stored_club(database: str, evenings: int, seed: int = 11) -> dict:
    """A club of `MEMBERS` members and `evenings` evenings of `PER_EVENING` matches, each a whole match's log, in the
    SQLite file `database`: the club, its evenings and matches made through the API, the logs written at once."""
    from api.store import now, payload_text

    rng = random.Random(seed)
    logs = {name: [whole_match(name, rng).log for _ in range(LOGS_PER_GAME)] for name in GAMES}
    seats = {name: len(players(name)) for name in GAMES}
    members = [f"Member {i:02}" for i in range(MEMBERS)]
    client = new_app(database).test_client()
    club = posted(client, "/api/clubs", {"name": "Bench club", "currency": "PLN"})
    games, rows, made = list(GAMES), [], 0
    for night in range(evenings):
        evening = posted(client, "/api/evenings", {"name": f"Evening {night}", "currency": "PLN",
                                                   "club": club["id"]}, club["key"])
        present = rng.sample(members, AT_AN_EVENING)
        for _ in range(PER_EVENING):
            game = games[made % len(games)]
            log = logs[game][made // len(games) % LOGS_PER_GAME]
            match = posted(client, "/api/matches", {"game": game, "players": rng.sample(present, seats[game]),
                                                    "stake": "1", "evening": evening["id"]}, evening["key"])
            rows += [(match["id"], event["seq"], event["type"], payload_text(event), now()) for event in log]
            made += 1
    with sqlite3.connect(database) as db:
        db.executemany("INSERT INTO events (match_id, seq, type, payload, created) VALUES (?, ?, ?, ?, ?)", rows)
    return {"club": club, "matches": made, "events": len(rows)}


def first_read(database: str, path: str, key: str) -> float:
    """Milliseconds of the first read of `path` in a new app on the file (a process just started)."""
    client = new_app(database).test_client()
    client.get("/api/games")  # the app's own first request (its connection opened), apart from the club's
    start = time.perf_counter()
    answer = client.get(path, headers={"Authorization": f"Bearer {key}"})
    took = (time.perf_counter() - start) * 1000
    if answer.status_code != 200:
        raise RuntimeError(f"GET {path}: {answer.status_code} {answer.get_json()}")
    return took


class ClientMatch(StateFace):
    """A match over the Flask test client with the face of `referee.Match` the table simulators use; each post's
    milliseconds kept in `posted`."""

    def __init__(self, client, game: str, players: list[str], evening: dict | None = None):
        body = {"game": game, "players": players, "options": SCORED_OPTIONS if game == SCORED else {}, "stake": "1"}
        if evening:
            body["evening"] = evening["id"]
        self.client = client
        self.state = posted(client, "/api/matches", body, evening["key"] if evening else None)
        self.id, self.key = self.state["id"], self.state["key"]
        self.posted: list[float] = []

    def play(self, command: dict, lot=None) -> tuple[dict, list[dict], list[dict]]:
        start = time.perf_counter()
        answer = posted(self.client, f"/api/matches/{self.id}/events", command, self.key)
        self.posted.append((time.perf_counter() - start) * 1000)
        self.state = answer["state"]
        return answer["event"], answer["warnings"], answer["findings"]


def writes(database: str, club: dict, plays: int) -> tuple[float, float]:
    """p50 ms of a play posted to a match of the club and to a match of no club, the same plays in turn."""
    client = new_app(database).test_client()
    evening = posted(client, "/api/evenings", {"name": "Writes", "currency": "PLN", "club": club["id"]}, club["key"])
    ours = ClientMatch(client, SCORED, players(SCORED), evening)
    alone = ClientMatch(client, SCORED, players(SCORED))
    tables = [SIMULATORS[SCORED](match, random.Random(5)) for match in (ours, alone)]
    for _ in range(plays):
        for table in tables:
            table.step()
    return statistics.median(ours.posted), statistics.median(alone.posted)


def served(quick: bool = False) -> dict:
    """The club's reads over the real read path, and a write's cost, in a SQLite file of its own."""
    evenings, rounds = (20, 10) if quick else (EVENINGS, 60)
    with tempfile.TemporaryDirectory(prefix="kibic-bench-club-") as folder:
        database = str(Path(folder) / "referee.db")
        made = stored_club(database, evenings)
        club, key = made["club"]["id"], made["club"]["key"]
        table_path = f"/api/clubs/{club}"
        refolded = first_read(database, table_path, key)  # no summary stored yet: every log refolded, then stored
        client = new_app(database).test_client()
        member = client.get(table_path, headers={"Authorization": f"Bearer {key}"}).get_json()["members"][0]["id"]
        member_path = f"/api/clubs/{club}/members/{member}"
        cold = {"the season's table": [first_read(database, table_path, key) for _ in range(3 if quick else 8)],
                "a member's figures": [first_read(database, member_path, key) for _ in range(3 if quick else 8)]}

        def reading(path: str) -> Callable[[], object]:
            return lambda: client.get(path, headers={"Authorization": f"Bearer {key}"})

        warm = {"the season's table": timed(reading(table_path), rounds),
                "a member's figures": timed(reading(member_path), rounds)}
        club_write, lone_write = writes(database, made["club"], 30 if quick else 300)
    return {"matches": made["matches"], "events": made["events"], "refolded": refolded, "cold": cold, "warm": warm,
            "club write": club_write, "lone write": lone_write}


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
    return "\n".join(lines) + "\n\n" + served_markdown(results["served"])


def served_markdown(served: dict) -> str:
    lines = [f"Over the real read path: a SQLite file of {served['matches']} matches ({served['events']:,} events), "
             "read through the Flask test client.", "",
             "| read | p50 ms | p95 ms | goal |", "|---|---:|---:|---|"]
    for name, times in served["cold"].items():
        lines.append(f"| {name}, a new process's first read (summaries in the store) | {statistics.median(times):.1f} "
                     f"| {p95(times):.1f} | |")
    for name, times in served["warm"].items():
        met = "met" if p95(times) <= GOAL_MS else "missed"
        lines.append(f"| {name}, warm | {statistics.median(times):.1f} | {p95(times):.1f} | ≤ {GOAL_MS:.0f}: {met} |")
    lines.append(f"| the season's table, a new process's first read with no summary stored (every log refolded) "
                 f"| {served['refolded']:.0f} | | |")
    ratio = served["club write"] / served["lone write"]
    lines += ["", f"A play posted to a match of the club: {served['club write']:.2f} ms p50, against "
              f"{served['lone write']:.2f} ms to a match of no club, in turn: {ratio:.2f}."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.club", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few rounds: a smoke run, not for the record")
    print(markdown(run(parser.parse_args().quick)))


if __name__ == "__main__":
    main()
