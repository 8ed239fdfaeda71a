"""`python -m bench.answers [--matches N] [--seed S] [--api N]`: a hash of every answer Kibic gives over random
matches of every game of the registry, to show that a change meant to leave behaviour alone does.

Run it before the change and after it: the hashes printed (one per game, one for the engine and one for the API,
and the total) must be equal. It is a check to run by hand, not a stored value: a change of the rules or of a
message changes them on purpose.

Each game plays `--matches` random matches on the engine (`referee.Match`) with a fixed seed: random options
(each option's default, its least or greatest value, one of its choices), 2 to 6 players, its table simulator
(tests/support/game_tables.py) playing, some hands entered, some careless plays let stand (`force`), now and then
an undo and the same entry again. Before every entry, random entries built from the catalogue (every event of
the game and some it has not, with good, bad and absurd values in the fields the game reads) and corrections are
decided (`Match.decide`, which changes nothing). Every answer goes into the hash: the event recorded, its warnings
and findings, or the refusal's class, code, message and details; and the state after each entry, as the scorer
and as a reader without the key see it. With `--api N`, N matches of each game are played the same way through
the HTTP API (Flask's test client, on a throwaway database), with request bodies of every shape besides, each
answer's status and body hashed (the match's id and key left out; the server's lot drawn with the seed).

It runs with `PYTHONHASHSEED=0` (it starts itself again so): the Dureń table simulator keeps cards in sets, whose
order follows the hash of text, salted in each process unless fixed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from game_tables import SIMULATORS  # noqa: E402

from referee import GAMES, InvalidInput, Match, Rejected  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
STEPS = 400  # entries of one match at most
ODD_VALUES = [None, -1, 0, 1, 2, 99, 1.5, True, "", "x", "10", [], {}, ["K"], {"card": "K"}]


class Hash:
    """The hash of the answers, fed as canonical JSON."""

    def __init__(self):
        self.sha = hashlib.sha256()
        self.answers = 0

    def add(self, *parts: object) -> None:
        self.sha.update(json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=False).encode("utf-8"))
        self.sha.update(b"\n")
        self.answers += 1

    def hexdigest(self) -> str:
        return self.sha.hexdigest()[:16]


def refusal(error: Exception) -> list:
    """What an exception says: its class, and a verdict's code, message, seat and details."""
    if isinstance(error, (Rejected, InvalidInput)):
        return [type(error).__name__, error.code, error.message, getattr(error, "seat", None), error.details]
    return [type(error).__name__, str(error)]


def random_options(game, rng: random.Random) -> dict:
    """Each option at its default, its least or greatest value or one of its choices (a sequence: a few hands)."""
    options = {}
    for option in game.options:
        described = option.describe()
        values = [option.default]
        if "choices" in described:
            values += list(described["choices"])
        if option.kind == "boolean":
            values += [True, False]
        if "minimum" in described:
            values.append(described["minimum"])
        if "maximum" in described and described["maximum"] <= 60:
            values.append(described["maximum"])
        if option.kind == "sequence":
            values.append([rng.randint(1, 4) for _ in range(rng.randint(1, 3))])
        options[option.name] = rng.choice(values)
    return options


def deck(rules: dict) -> list[str]:
    if rules["suited"]:
        return [rank + suit for rank in rules["ranks"] for suit in "SHDC"]
    return list(rules["ranks"])


def junk(rng: random.Random, match, game) -> dict:
    """A random entry: an event of the game (or not), each field it reads good, bad or absurd."""
    view = match.view()
    rules, expected = view["rules"], view["expected"] or {}
    players = len(view["players"])
    cards = deck(rules)
    kinds = sorted(game.event_fields) + ["undo", "bogus"]
    kind = expected.get("type") if expected and rng.random() < 0.5 else rng.choice(kinds)
    command: dict = {"type": kind}

    def seat():
        return rng.choice([expected.get("seat"), expected.get("seat"), rng.randrange(players), players, -1, "0"])

    def card():
        return rng.choice(cards) if rng.random() < 0.85 else rng.choice(["", "1", "ZZ", "10X", "X", "k", 5])

    def some_cards(size: int):
        return [card() for _ in range(size)]

    values = {
        "seat": seat, "dealer": seat, "card": card, "trump": card,
        "cards": lambda: some_cards(rng.choice([0, 1, 2, 3, 5, 6])),
        "beats": lambda: [{"card": card(), "with": card()} for _ in range(rng.randint(0, 3))],
        "bid": lambda: rng.choice([-1, 0, 1, 2, 3, 14]),
        "points": lambda: rng.choice([0, 1, 5, 30, 1001]),
        "reason": lambda: rng.choice(["cut", "", " late ", "a\nb", "x" * 201]),
        "hands": lambda: {str(rng.randrange(players + 1)): some_cards(rng.choice(rules["hand_sizes"]))
                          for _ in range(rng.randint(1, players))},
    }
    for name in sorted(game.event_fields.get(kind, ())):
        if rng.random() < 0.8:
            command[name] = values[name]() if name in values and rng.random() < 0.9 else rng.choice(ODD_VALUES)
    if rng.random() < 0.05:
        command[rng.choice(["card", "seat", "bid", "extra"])] = rng.choice(ODD_VALUES)
    if rng.random() < 0.3:
        command["force"] = True
    return command


def correction(rng: random.Random, match, game) -> dict:
    """A random correction: an earlier entry replaced or removed, or one put in before it."""
    seq = rng.randint(1, max(1, match.seq + 1))
    how = rng.random()
    if how < 0.4:
        return {"type": "correct", "seq": seq, "with": junk(rng, match, game)}
    if how < 0.7:
        return {"type": "correct", "seq": seq, "remove": True}
    return {"type": "correct", "before": seq, "insert": junk(rng, match, game), "force": rng.random() < 0.5}


class Recorded:
    """A match with the face of `referee.Match` for a table simulator; every answer it gives goes into the hash,
    and before each entry random entries are tried on it (`decide`, which records nothing)."""

    def __init__(self, match: Match, rng: random.Random, hashed: Hash):
        self.match, self.rng, self.hashed = match, rng, hashed
        self.game = match.game

    def __getattr__(self, name):
        return getattr(self.match, name)

    def try_junk(self) -> None:
        for _ in range(self.rng.choice([0, 1, 1, 2])):
            command = correction(self.rng, self, self.game) if self.rng.random() < 0.1 else \
                junk(self.rng, self, self.game)
            try:
                decision = self.match.decide(command, lot=lambda n: n - 1)
                self.hashed.add("decide", command, decision.event, [w.as_dict() for w in decision.warnings])
            except Exception as error:  # noqa: BLE001 - whatever the engine says is the answer hashed
                self.hashed.add("decide", command, refusal(error))

    def play(self, command: dict, lot=None) -> tuple:
        self.try_junk()
        try:
            answer = self.match.play(command, lot)
        except Exception as error:
            self.hashed.add("play", command, refusal(error))
            raise
        self.hashed.add("play", command, answer[0], answer[1], [finding.as_dict() for finding in answer[2]])
        self.hashed.add("state", self.match.view(), self.match.public().view(), self.match.settlement())
        if self.rng.random() < 0.02:  # an undo, and the same entry again
            self.hashed.add("undo", self.match.play({"type": "undo"})[0])
            self.hashed.add("again", self.match.play(command, lot)[0])
        return answer


def new_match(game, rng: random.Random, hashed: Hash, create) -> object:
    players = NAMES[:rng.randint(game.min_players, min(game.max_players, len(NAMES)))]
    options = random_options(game, rng)
    stake = rng.choice(["0", "1", "0.50"])
    try:
        return create(game.name, players, options, stake)
    except InvalidInput as refused:
        hashed.add("create", players, options, refusal(refused))
        return create(game.name, players, None, stake)


def play(simulator, hashed: Hash) -> None:
    for _ in range(STEPS):
        try:
            if simulator.step() is None:
                return
        except (Rejected, InvalidInput, AssertionError) as error:  # the simulator stops: the end of this match
            hashed.add("stopped", refusal(error))
            return


def engine_matches(game, matches: int, seed: int) -> Hash:
    hashed = Hash()
    for number in range(matches):
        rng = random.Random(f"{seed}:{game.name}:{number}")
        match = new_match(game, rng, hashed, Match.create)
        hashed.add("created", match.view())
        simulator = SIMULATORS[game.name](Recorded(match, rng, hashed), rng, known=rng.choice([0.0, 0.5, 1.0]))
        simulator.careless = rng.choice([0.0, 0.05])
        play(simulator, hashed)
        hashed.add("end", match.view(), match.events_view(), match.events_view(hidden=True))
    return hashed


# --- the same over HTTP ----------------------------------------------------------------------------------------

BAD_BODIES = [
    [], "play", None, 7, {}, {"type": 5}, {"type": "undo"}, {"type": "bogus"}, {"type": "play"},
    {"type": "play", "seat": "1", "card": "K"}, {"type": "play", "seat": 1.5, "card": "K"},
    {"type": "play", "seat": True, "card": "K"}, {"type": "play", "seat": 1, "card": 5},
    {"type": "play", "seat": 1, "card": "K" * 11}, {"type": "play", "seat": 1, "card": "K", "extra": 1},
    {"type": "play", "seat": 1, "card": "K", "force": "yes"}, {"type": "play", "seat": 1, "card": "K", "force": 1},
    {"type": "play", "seat": 1, "card": "K", "expect_seq": -1}, {"type": "play", "seat": 1, "card": "K",
                                                                "expect_seq": 2.5},
    {"type": "deal", "dealer": "0"}, {"type": "deal", "hands": []}, {"type": "deal", "hands": {"x": ["K"]}},
    {"type": "deal", "hands": {"1": "K"}}, {"type": "deal", "hands": {"1": ["K"] * 56}},
    {"type": "deal", "hands": {str(n): ["K"] for n in range(9)}}, {"type": "deal", "trump": 9},
    {"type": "bid"}, {"type": "bid", "seat": 0, "bid": "1"}, {"type": "bid", "seat": 0, "bid": 1.0},
    {"type": "bid", "seat": 0, "bid": -1}, {"type": "exchange"}, {"type": "exchange", "seat": [0]},
    {"type": "attack", "seat": 0}, {"type": "attack", "seat": 0, "cards": []}, {"type": "attack", "seat": 0,
                                                                              "cards": "9S"},
    {"type": "attack", "seat": 0, "cards": ["9S"] * 56}, {"type": "defend", "seat": 1},
    {"type": "defend", "seat": 1, "beats": [{"card": "9S"}]}, {"type": "defend", "seat": 1, "beats": ["9S"]},
    {"type": "defend", "seat": 1, "beats": [{"card": "9S", "with": "10S", "by": 1}]},
    {"type": "defend", "seat": 1, "beats": [{"card": "9S", "with": "10S"}] * 56}, {"type": "penalty"},
    {"type": "penalty", "seat": 0, "points": "5"}, {"type": "penalty", "seat": 0, "points": 0},
    {"type": "penalty", "seat": 0, "reason": 5}, {"type": "penalty", "seat": 0, "reason": "x" * 201},
    {"type": "penalty", "seat": 0, "reason": None}, {"type": "end", "seat": 0}, {"type": "end", "force": True},
    {"type": "correct"}, {"type": "correct", "seq": "1", "remove": True}, {"type": "correct", "seq": 1, "with": 5},
    {"type": "correct", "seq": 1, "with": {"type": "bogus"}}, {"type": "correct", "seq": 1, "with": {"type": "play"}},
    {"type": "correct", "seq": 1, "with": {"type": "play", "seat": 0, "card": "K", "expect_seq": 1}},
    {"type": "correct", "before": 1, "insert": {"type": "correct", "seq": 1, "remove": True}},
    {"type": "correct", "seq": 1, "remove": "yes"}, {"type": "correct", "seq": 0, "remove": True},
]


class Served:
    """A match played through the HTTP API with the face of `referee.Match` (as tests/support/api_match.py)."""

    def __init__(self, client, rng: random.Random, hashed: Hash, game, created: dict):
        self.client, self.rng, self.hashed, self.game = client, rng, hashed, game
        self.id, self.key = created["id"], created["key"]
        self.state = created

    @property
    def options(self) -> dict:
        return self.state["options"]

    @property
    def players(self) -> list[str]:
        return [player["name"] for player in self.state["players"]]

    @property
    def seq(self) -> int:
        return self.state["seq"]

    def view(self) -> dict:
        return self.state

    def expected(self) -> dict | None:
        return self.state["expected"]

    def post(self, body: object) -> tuple[int, dict]:
        answer = self.client.post(f"/api/matches/{self.id}/events", json=body,
                                  headers={"Authorization": f"Bearer {self.key}"})
        text = answer.get_data(as_text=True).replace(self.id, "<id>").replace(self.key, "<key>")
        self.hashed.add("http", body, answer.status_code, json.loads(text))
        return answer.status_code, json.loads(text)

    def attempt(self, body: object) -> None:
        """A random entry posted, and undone when it is recorded (the simulator's table stays as it was)."""
        status, _ = self.post(body)
        if status == 201:
            answer = self.client.post(f"/api/matches/{self.id}/undo", headers={"Authorization": f"Bearer {self.key}"})
            self.hashed.add("http undo", answer.status_code, answer.get_json()["event"])

    def play(self, command: dict, lot=None) -> tuple:
        for _ in range(self.rng.choice([0, 1, 1, 2])):
            self.attempt(correction(self.rng, self, self.game) if self.rng.random() < 0.1 else
                         junk(self.rng, self, self.game))
        if self.rng.random() < 0.1:
            self.attempt(self.rng.choice(BAD_BODIES))
        status, answer = self.post(command)
        if status == 201:
            self.state = {**answer["state"], "id": self.id}
            return answer["event"], answer["warnings"], answer["findings"]
        self.state = {**self.client.get(f"/api/matches/{self.id}",
                                        headers={"Authorization": f"Bearer {self.key}"}).get_json()}
        error = answer["error"]
        details = {name: value for name, value in error.get("details", {}).items()
                   if name not in ("seat", "forceable")}
        if status == 409 and "forceable" in error.get("details", {}):
            raise Rejected(error["code"], error["message"], seat=error["details"].get("seat"), details=details,
                           forceable=error["details"]["forceable"])
        raise InvalidInput(error["code"], error["message"], details)


def api_matches(games, matches: int, seed: int) -> Hash:
    from api import create_app
    from api import matches as served_matches

    served_matches.lot = random.Random(seed).randrange  # the server's draw of a first dealer, made repeatable
    hashed = Hash()
    with tempfile.TemporaryDirectory(prefix="kibic-answers-") as folder:
        client = create_app({"TESTING": True, "DATABASE": str(Path(folder) / "referee.db")}).test_client()
        for game in games:
            for number in range(matches):
                rng = random.Random(f"{seed}:api:{game.name}:{number}")

                def create(name, players, options, stake):
                    answer = client.post("/api/matches", json={"game": name, "players": players, "options": options,
                                                               "stake": stake})
                    body = answer.get_json()
                    if answer.status_code != 201:
                        raise InvalidInput(body["error"]["code"], body["error"]["message"], body["error"]["details"])
                    return body

                created = new_match(game, rng, hashed, create)
                served = Served(client, rng, hashed, game, created)
                for body in BAD_BODIES:
                    served.attempt(body)
                simulator = SIMULATORS[game.name](served, rng, known=rng.choice([0.0, 0.5, 1.0]))
                simulator.careless = rng.choice([0.0, 0.05])
                play(simulator, hashed)
    return hashed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.answers", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="random matches of each game on the engine")
    parser.add_argument("--api", type=int, default=2, help="random matches of each game through the HTTP API")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, "-m", "bench.answers", *sys.argv[1:]],
                  {**os.environ, "PYTHONHASHSEED": "0"})
    total = hashlib.sha256()
    for game in GAMES.values():
        hashed = engine_matches(game, args.matches, args.seed)
        print(f"engine {game.name:10} {hashed.answers:7} answers  {hashed.hexdigest()}")
        total.update(hashed.hexdigest().encode())
    if args.api:
        hashed = api_matches(list(GAMES.values()), args.api, args.seed)
        print(f"api    {'(all)':10} {hashed.answers:7} answers  {hashed.hexdigest()}")
        total.update(hashed.hexdigest().encode())
    print(f"total  {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
