"""Helpers for the tests of corrections: the log rebuilt from scratch with a change, random matches and changes.

A correction is right when the match it gives is the match of its entries logged again from scratch with the
change made (`rebuilt`), every later entry decided again; and refused exactly when that log is refused at some
entry. The rebuilt match numbers its events 1, 2, 3...; `renumbered` gives its view the numbers of the entries
of the corrected match, so the two views compare whole.
"""

from __future__ import annotations

import random

from game_tables import SIMULATORS

from referee import GAMES, InvalidInput, Match, Rejected
from referee.corrections import command_of

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve"]
NUMBERED = ("seq", "proof_seq")


def renumbered(view: object, numbers: list[int], top: bool = True) -> object:
    """A view of the rebuilt match with each event number n read as `numbers[n - 1]` (the match's own seq, at the
    top, left alone)."""
    if isinstance(view, dict):
        return {key: numbers[value - 1] if key in NUMBERED and not (top and key == "seq") and type(value) is int
                else renumbered(value, numbers, False) for key, value in view.items()}
    if isinstance(view, list):
        return [renumbered(item, numbers, False) for item in view]
    return view


def rebuilt(match: Match, kind: str, entry: int, command: dict | None, force: bool = False) -> tuple[Match, list[int]]:
    """The match of `match`'s entries logged from scratch with the change made, and the entry each of its events
    is. With `force`, an entry after the change that breaks a forceable rule is let stand; the change itself is
    forced. Raises the refusal of the first entry that is refused."""
    commands: list[tuple[int, dict, bool]] = []
    new = match.seq + 1
    seen = False
    for value in match.entries.values():
        later = seen
        if value["seq"] == entry:
            seen = True
            if kind == "insert":
                commands.append((new, command, True))
                commands.append((value["seq"], command_of(value), True))
            elif kind == "with":
                commands.append((value["seq"], command, True))
            continue
        commands.append((value["seq"], command_of(value), later))
    again = Match.from_header(match.header())
    numbers = []
    for number, said, after in commands:
        if force and number == new or (force and number == entry and kind == "with"):
            said = {**said, "force": True}
        try:
            again.play(said)
        except Rejected as refusal:
            if not (force and after and refusal.forceable):
                raise
            again.play({**said, "force": True})
        numbers.append(number)
    return again, numbers


def random_match(game: str, rng: random.Random, events: int) -> Match:
    """A random match of `game` about `events` long: hands entered now and then, illegal plays let stand."""
    spec = GAMES[game]
    players = rng.randint(spec.min_players, min(spec.max_players, len(NAMES)))
    match = Match.create(game, NAMES[:players], {}, "1")
    simulator = SIMULATORS[game](match, rng, known=rng.choice([0.0, 0.0, 0.5, 1.0]))
    simulator.careless = rng.choice([0.0, 0.1])
    for _ in range(events):
        if simulator.step() is None:
            break
    return match


def random_command(match: Match, rng: random.Random, like: dict) -> dict:
    """An event that might have been logged instead of `like`: another entry's, or `like` with a field changed."""
    values = list(match.entries.values())
    if rng.random() < 0.4:
        return command_of(rng.choice(values))
    command = command_of(like)
    rules = match.view()["rules"]
    ranks = rules["ranks"]

    def card() -> str:
        return rng.choice(ranks) + (rng.choice("SHDC") if rules["suited"] else "")

    players = len(match.players)
    kind = command["type"]
    if kind == "play":
        if rng.random() < 0.8:
            command["card"] = card()
        else:
            command["seat"] = rng.randrange(players)
    elif kind == "penalty":
        command["points"] = rng.randint(1, 12)
    elif kind == "bid":
        command["bid"] = rng.randint(0, 3)
    elif kind == "deal":
        command["dealer"] = rng.randrange(players)
    elif kind in ("attack", "defend", "exchange"):
        command["seat"] = rng.randrange(players)
    return command


def random_correction(match: Match, rng: random.Random) -> tuple[dict, str, int, dict | None]:
    """A random correction of a random earlier entry: (the command, its kind, the entry, the event it puts in)."""
    values = list(match.entries.values())
    target = values[rng.randrange(max(0, len(values) - 30), len(values))] if rng.random() < 0.7 else rng.choice(values)
    kind = rng.choice(["with", "with", "remove", "insert"])
    if kind == "remove":
        return {"type": "correct", "seq": target["seq"], "remove": True}, kind, target["seq"], None
    command = random_command(match, rng, target)
    if kind == "with":
        return {"type": "correct", "seq": target["seq"], "with": command}, kind, target["seq"], command
    return {"type": "correct", "before": target["seq"], "insert": command}, kind, target["seq"], command


def outcome(call):
    """What `call()` gives, or the refusal it raises (Rejected or InvalidInput)."""
    try:
        return call(), None
    except (Rejected, InvalidInput) as refusal:
        return None, refusal
