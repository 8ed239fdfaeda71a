"""`python tests/support/record_logs.py [--again]`: writes the recorded logs of tests/support/logs/<game>/ that
test_recorded_logs replays: those missing, or with `--again` every one.

Each log is a match's header, its whole log (undo events included) and the state it ended in. Ogórek's first
log is the seed's worked deal (seeds/000); each game then has matches its table simulator played with fixed
seeds. Run it only when a change of the rules is meant to change a stored final state, and say so. The logs
it wrote before events named their format (001, 002) are format 1, and so are the `format-1-forced` logs,
recorded by the engine of that time: tests/engine/test_event_formats.py replays them as they are and read in the
current format. The logs written since (003) are in the current format.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from game_tables import SIMULATORS  # noqa: E402
from ogorek_helpers import SEED_HANDS, SEED_PLAYERS, SEED_TRICKS  # noqa: E402

from referee import GAMES, Match  # noqa: E402

LOGS = Path(__file__).resolve().parent / "logs"
FORMAT = 1  # the layout of a log file (header, events, final); each event names its own format (referee/formats.py)
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve"]
SEEDS = (1, 2, 3)


def final_read(log: dict) -> dict:
    """The stored final state as the engine shows it now: the same, but for the options the game gained since
    the log was recorded, each at the value a match created without it keeps (`Option.before`: its default, or
    the earlier rule, as Ogurets' `joker_overtakes_king` for a match created before RULES.md §2 was revised)."""
    game = GAMES[log["header"]["game"]]
    gained = {option.name: option.before for option in game.options if option.name not in log["header"]["options"]}
    final = log["final"]
    return {**final, "options": {**final["options"], **gained}} if gained else final


def without_gained(view: dict, log: dict) -> dict:
    """`view`, a replayed state, without what the history gained since the log was recorded: the penalties each
    entry counts (listed since issue 30; every figure of the entry stays as it was), and how the settlement settles
    (`by`, said since issue 30; every sum as it was)."""
    final = log["final"]
    if not any("penalties" in entry for entry in final["history"]):
        view = {**view, "history": [{key: value for key, value in entry.items() if key != "penalties"}
                                    for entry in view["history"]]}
    if isinstance(view.get("settlement"), dict) and "by" not in (final.get("settlement") or {}):
        view = {**view, "settlement": {key: value for key, value in view["settlement"].items() if key != "by"}}
    return view


def record(match: Match, about: str) -> dict:
    return {"format": FORMAT, "about": about, "header": match.header(), "events": match.log, "final": match.view()}


def seed_deal() -> dict:
    match = Match.create("ogorek", SEED_PLAYERS, stake="0.50", currency="PLN")
    match.play({"type": "deal", "dealer": 0,
                "hands": {str(SEED_PLAYERS.index(name)): cards for name, cards in SEED_HANDS.items()}})
    for trick in SEED_TRICKS:
        for name, card in trick:
            match.play({"type": "play", "seat": SEED_PLAYERS.index(name), "card": card})
    return record(match, "The seed's worked deal (seeds/000): S deals, the four hands known, six tricks.")


def simulated(game: str, seed: int) -> dict:
    rng = random.Random(seed)
    spec = GAMES[game]
    players = rng.randint(spec.min_players, min(spec.max_players, len(NAMES)))
    match = Match.create(game, NAMES[:players], stake="1")
    simulator = SIMULATORS[game](match, rng, known=0.5)
    while (command := simulator.step()) is not None:
        if rng.random() < 0.02:  # now and then the table undoes an entry and enters it again
            match.play({"type": "undo"})
            match.play(command)
    return record(match, f"A match the table simulator played with seed {seed}, half the hands known, some "
                         "entries undone and entered again.")


def main(argv: list[str]) -> None:
    logs = {("ogorek", "000-seed-deal"): seed_deal()}
    for game in GAMES:
        for seed in SEEDS:
            logs[(game, f"{seed:03d}-table")] = simulated(game, seed)
    for (game, name), log in logs.items():
        path = LOGS / game / f"{name}.json"
        if path.exists() and "--again" not in argv:
            continue  # a stored log stays as it was recorded, in the format of its time
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(log, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
