"""A correction near the start of a long match against an undo at the same match: p50 of each, their ratio.

`python -m bench.corrections [--quick]` runs this part alone. One match of the scored game (`tables.json`), played
by its table simulator to `events` events; then, in turn, an undo of the latest event (the match folded again
from its log, then the event logged again) and a correction of a play near the start (every later entry decided
again, then the correction undone). Both on the engine (`referee.Match.play`), and both answered by the app
itself (its test client, on a SQLite file: the request, the store, the state): the times are of the undo and
of the correction alone. Goal: the correction within 2x the undo's p50.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .tables import SCORED, SCORED_OPTIONS, SIMULATORS, players

GOAL = 2.0
CASES = {"meets": "its deal ends as it did", "changes": "changes the standing"}


@dataclass
class CorrectionResult:
    where: str  # "engine" or "app"
    case: str  # "meets" or "changes" (`early_plays`)
    events: int
    undo: list[float]
    correct: list[float]

    @property
    def ratio(self) -> float:
        return statistics.median(self.correct) / statistics.median(self.undo)


def long_match(events: int, seed: int = 3):
    from referee import Match

    match = Match.create(SCORED, players(SCORED), SCORED_OPTIONS, "1")
    simulator = SIMULATORS[SCORED](match, random.Random(seed))
    while match.seq < events:
        if simulator.step() is None:
            raise RuntimeError(f"the {SCORED} match ended at event {match.seq}: its options should never end it")
    return match


def early_plays(match) -> dict[str, dict]:
    """Two cards of the first deals typed wrong, each corrected to another card the rest of the log still fits (found
    before the clock starts): one whose deal still ends as it did (`meets`: from the next deal on, every entry is
    decided as before), and one that changes the standing (`changes`: every later entry decided again)."""
    from referee import InvalidInput, Rejected
    from referee.corrections import command_of

    plays = [value for value in match.entries.values() if value["type"] == "play"]
    ranks = match.view()["rules"]["ranks"]
    suits = "SHDC" if match.game.suited else [""]
    def figures() -> list[tuple]:
        """The scores and lives after each deal but the first."""
        return [(deal["scores"], deal["lives"]) for deal in match.view()["history"][1:]]

    standing = figures()
    found: dict[str, dict] = {}
    for entry in plays[:300]:
        for card in (rank + suit for rank in ranks for suit in suits):
            if card == entry["card"]:
                continue
            correction = {"type": "correct", "seq": entry["seq"], "with": {**command_of(entry), "card": card}}
            try:
                match.play(correction)
            except (Rejected, InvalidInput):
                continue
            found.setdefault("meets" if figures() == standing else "changes", correction)
            match.play({"type": "undo"})
            if len(found) == 2:
                return found
    raise RuntimeError(f"no card of the first deal could have been typed otherwise with both ends: {sorted(found)}")


def on_engine(events: int, rounds: int) -> CorrectionResult:
    from referee.corrections import command_of

    match = long_match(events)
    last = command_of(match.log[-1])
    corrections = early_plays(match)
    undo: list[float] = []
    correct: dict[str, list[float]] = {case: [] for case in corrections}
    for _ in range(rounds):
        start = time.perf_counter()
        match.play({"type": "undo"})
        undo.append(time.perf_counter() - start)
        match.play(last)
        for case, correction in corrections.items():
            start = time.perf_counter()
            match.play(correction)
            correct[case].append(time.perf_counter() - start)
            match.play({"type": "undo"})
    return [CorrectionResult("engine", case, events, undo, times) for case, times in correct.items()]


def on_app(events: int, rounds: int) -> CorrectionResult:
    from api import create_app, store
    from referee.corrections import command_of

    engine_match = long_match(events)
    with tempfile.TemporaryDirectory(prefix="kibic-bench-") as folder:
        app = create_app({"DATABASE": str(Path(folder) / "referee.db")})
        client = app.test_client()
        created = client.post("/api/matches", json={"game": SCORED, "players": engine_match.players,
                                                    "options": SCORED_OPTIONS, "stake": "1"}).get_json()
        match_id, scorer = created["id"], {"Authorization": f"Bearer {created['key']}"}
        with app.app_context():  # the long log stored as the table logged it, without 5,000 requests
            held = store.current()
            for event in engine_match.log:
                held.append_event(match_id, event, None, None)
        last = command_of(engine_match.log[-1])
        corrections = early_plays(engine_match)
        url = f"/api/matches/{match_id}"
        assert client.get(url).status_code == 200  # the match folded once, into the process's cache
        undo: list[float] = []
        correct: dict[str, list[float]] = {case: [] for case in corrections}

        def post(route: str, body: dict | None, times: list | None = None) -> None:
            start = time.perf_counter()
            answer = client.post(f"{url}/{route}", json=body, headers=scorer)
            if times is not None:
                times.append(time.perf_counter() - start)
            if answer.status_code != 201:
                raise RuntimeError(f"{route} {body}: {answer.status_code} {answer.get_json()}")

        for _ in range(rounds):
            post("undo", None, undo)
            post("events", last)
            for case, correction in corrections.items():
                post("events", correction, correct[case])
                post("undo", None)
    return [CorrectionResult("app", case, events, undo, times) for case, times in correct.items()]


def run(quick: bool = False) -> list[CorrectionResult]:
    events, rounds = (1000, 5) if quick else (5000, 21)
    return [*on_engine(events, rounds), *on_app(events, rounds)]


def markdown(results: list[CorrectionResult]) -> str:
    rows = [f"| {r.where} | {CASES[r.case]} | {r.events:,} | {statistics.median(r.undo) * 1000:.1f} | "
            f"{statistics.median(r.correct) * 1000:.1f} | {r.ratio:.2f} | ≤ {GOAL} | "
            f"{'met' if r.ratio <= GOAL else '**not met**'} |" for r in results]
    return "\n".join([
        "## 7. A correction near the start of a long match",
        "",
        f"One {SCORED} match of the given number of events; an undo of its latest event (the log folded again) "
        "against a correction of a card of its first deal to another card (the later events decided again, until the "
        "corrected match meets the one as it was at the start of a deal), p50 of each, on the "
        "engine and answered by the app in-process (request, SQLite store, state) (`bench/corrections.py`).",
        "",
        "| where | the card corrected | events | undo p50 ms | correction p50 ms | ratio | goal | |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.corrections", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 1,000-event match, a few rounds")
    print(markdown(run(parser.parse_args().quick)))


if __name__ == "__main__":
    main()
