"""Random tables that make every mistake: matches of each game played with random entries (the wrong seat, a
card seen too often, a bad bid, a forced illegal play, a known hand broken, an undo...), collecting every
verdict the referee gives, with its code, seat and details, for the tests of the page's words.

The entries follow the game's catalogue (its events, whether its deal names a trump or a first attacker, its deck);
the options each game plays with are in `OPTIONS` (a low limit for a game without an entry there), and a game whose
tables follow its table simulator, mistakes in between, is in `TABLES`."""

from __future__ import annotations

import random

import durak_table
from per_game import PerGame

from referee import CardError, InvalidInput, Match, Rejected, get_game

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "SHDC"
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def deck(rules: dict) -> list[str]:
    """The match's deck, as the catalogue's rules of the match say: suited cards, or 4 of each rank (3 jokers)."""
    if rules["suited"]:
        return [rank + suit for rank in rules["ranks"] for suit in SUITS]
    return [rank for rank in rules["ranks"] for _ in range(3 if rank == "X" else 4)]


def low_limit(game: str):
    """The options of a game without its own: a low `limit` now and then (matches that end soon), where the game
    has one, else its defaults."""
    has_limit = any(option.name == "limit" for option in get_game(game).options)
    return (lambda rng: {"limit": rng.choice([5, 21])}) if has_limit else (lambda rng: {})


OPTIONS = PerGame("OPTIONS in tests/support/verdict_fuzz.py", "the random options its tables play with", {
    "oh_hell": lambda rng: {"sequence": [rng.randint(1, 3) for _ in range(rng.randint(1, 3))],
                            "hook": rng.random() < 0.5, "must_trump": rng.random() < 0.5,
                            "simultaneous_bids": rng.random() < 0.2},
    "duren": lambda rng: {"deck": rng.choice([24, 36])},
    "durak": lambda rng: {"deck": rng.choice([36, 52]), "transfer": rng.random() < 0.7,
                          "lead_same_rank": rng.random() < 0.8, "throw_in": rng.choice(["all", "neighbours"]),
                          "first_attack": rng.choice(["left_of_durak", "durak"])},
    "ogurets": lambda rng: {"jokers": rng.choice([0, 3]), "lives": 1},
}, default=low_limit)
"""The options each game's random tables play with, by game: the options that bring out its verdicts."""

TABLES = PerGame("TABLES in tests/support/verdict_fuzz.py", "the table simulator its random tables follow", {
    "durak": lambda match, rng: durak_table.Table(match, rng, known=0.5, deals=3),
}, default=lambda game: lambda match, rng: None)
"""The games whose random tables mostly take their table simulator's legal next event (so that deals get played
out), a mistake now and then (`durak_step`); the other games' tables enter random events (`command`)."""


def random_options(game: str, rng: random.Random) -> dict:
    return OPTIONS[game](rng)


class Fuzzer:
    def __init__(self, game: str, rng: random.Random):
        self.game, self.rng = game, rng
        spec = get_game(game)
        players = rng.randint(spec.min_players, min(spec.max_players, 5))
        self.match = Match.create(game, NAMES[:players], random_options(game, rng))
        self.rules = self.match.view()["rules"]
        self.events = set(self.rules["events"])
        self.trump = "trump" in spec.event_fields["deal"]  # the deal names the card turned up (when one is)
        self.attacker = "attacker" in spec.event_fields["deal"]  # and the first attacker (where the rule names none)
        self.deck = deck(self.rules)
        self.players = players
        self.verdicts: list[tuple[str, str, int | None, dict]] = []  # (kind, code, seat, details)
        self.table = TABLES[game](self.match, rng)

    def seat(self, expected: int | None) -> int:
        if expected is not None and self.rng.random() < 0.7:
            return expected
        return self.rng.randrange(self.players)

    def card(self) -> str:
        return self.rng.choice(self.deck)

    def deal(self, expected: dict) -> dict:
        rng = self.rng
        command: dict = {"type": "deal"}
        if rng.random() < 0.85:
            command["dealer"] = expected.get("dealer") if expected.get("dealer") is not None and rng.random() < 0.8 \
                else rng.randrange(self.players)
        shuffled = self.deck[:]
        rng.shuffle(shuffled)
        size = expected["cards"] if isinstance(expected.get("cards"), int) else self.rules["hand_sizes"][0]
        if self.trump and expected.get("turn_trump", True):
            command["trump"] = shuffled.pop()
        if self.attacker and rng.random() < 0.9:
            command["attacker"] = rng.randrange(self.players)
        if rng.random() < 0.6 and not all(self.match.state.out):
            seats = [s for s in range(self.players) if not self.match.state.out[s]]
            known = rng.sample(seats, k=rng.randint(1, len(seats)))
            command["hands"] = {str(s): [shuffled.pop() for _ in range(size)] for s in known}
        return command

    def command(self) -> dict:
        rng = self.rng
        expected = self.match.expected() or {}
        roll = rng.random()
        if roll < 0.03 or (self.match.seq == 0 and roll < 0.15):  # an undo, sometimes with nothing to undo
            return {"type": "undo"}
        if roll < 0.03 + (0.002 if "attack" in self.events else 0.01):  # a series of Dureń runs until it is ended
            return {"type": "end"}
        if roll < 0.08 or (expected.get("type") == "deal" and rng.random() < 0.8):
            return self.deal(expected)
        kind = expected.get("type")
        seat = self.seat(expected.get("seat"))
        if "penalty" in self.events and rng.random() < 0.03:
            return {"type": "penalty", "seat": seat, "points": rng.choice([5, 30])}
        if (kind == "bid" and rng.random() < 0.85) or ("bid" in self.events and rng.random() < 0.1):
            return {"type": "bid", "seat": seat, "bid": rng.randint(-1, 4)}
        if "attack" in self.events:
            return self.attacks(kind, seat, expected)
        return {"type": "play", "seat": seat, "card": self.card()}

    def attacks(self, kind: str | None, seat: int, expected: dict) -> dict:
        """The entries of a game of attacks and defences (Dureń's), often with cards the referee knows the seat
        holds, so that deals get played out."""
        rng = self.rng
        deal = self.match.state.deal
        held = sorted(str(card) for card in deal.known[seat]) if deal is not None else []  # (its order: the engine's)
        pick = (lambda: rng.choice(held)) if held and rng.random() < 0.7 else self.card
        if rng.random() < 0.05:
            return {"type": "exchange", "seat": seat}
        if (kind == "defend" and rng.random() < 0.8) or rng.random() < 0.05:
            attack = expected["cards"] if isinstance(expected.get("cards"), list) else [self.card()]
            if rng.random() < 0.1:
                attack = attack + [self.card()]
            return {"type": "defend", "seat": seat,
                    "beats": [{"card": card, "with": pick()} for card in attack if rng.random() < 0.4]}
        size = rng.choice([1, 1, 1, 2, 3, 3, 5])
        cards = list(dict.fromkeys(pick() for _ in range(size)))
        return {"type": "attack", "seat": seat, "cards": cards}

    def durak(self, kind: str | None, seat: int, expected: dict) -> dict:
        """Durak's mistakes, often with the cards the seat really holds (the table's), so that they are near misses."""
        rng, table = self.rng, self.table
        real = sorted(map(str, table.hands[seat])) if table.hands and not table.over else []
        pick = (lambda: rng.choice(real)) if real and rng.random() < 0.7 else self.card
        laid = expected["cards"] if isinstance(expected.get("cards"), list) else []
        roll = rng.random()
        if roll < 0.1:
            return {"type": "done"}
        if roll < 0.2:
            return {"type": "take", "seat": seat}
        if roll < 0.35:
            ranks = {card[:-1] for card in laid}
            same = [card for card in real if card[:-1] in ranks]
            return {"type": "transfer", "seat": seat, "cards": same if same and rng.random() < 0.6 else [pick()]}
        if roll < 0.4:
            return {"type": "attack", "seat": seat, "cards": list(dict.fromkeys(real + [self.card()]))}
        if roll < 0.6:
            return {"type": "defend", "seat": seat, "beats": [{"card": rng.choice(laid or [self.card()]),
                                                               "with": pick()}]}
        cards = list(dict.fromkeys(pick() for _ in range(rng.choice([1, 1, 2, 3, 7]))))
        return {"type": "attack", "seat": seat, "cards": cards}

    def durak_step(self) -> None:
        """Durak: mostly the table's legal next event (so that deals are played out), else a mistake, undone at once
        when the referee records it, so that the table and the referee stay one."""
        rng = self.rng
        if self.match.seq == 0 and rng.random() < 0.3:
            return self.judge({"type": "undo"})
        if rng.random() < 0.7 and self.match.expected() is not None:
            self.table.step()
            return
        expected = self.match.expected() or {}
        if (expected.get("type") == "deal" and rng.random() < 0.7) or rng.random() < 0.05:
            command = self.deal(expected) if self.rng.random() < 0.9 else {"type": "end"}
        else:
            command = self.durak(expected.get("type"), self.seat(expected.get("seat")), expected)
        seq = self.match.seq
        self.judge(command)
        if self.match.seq != seq:
            self.match.play({"type": "undo"})

    def step(self) -> None:
        if self.table is not None:
            return self.durak_step()
        self.judge(self.command())

    def judge(self, command: dict) -> None:
        if self.rng.random() < 0.25:
            command["force"] = True
        try:
            _, warnings, findings = self.match.play(command, lot=lambda n: self.rng.randrange(n))
        except Rejected as rejected:
            self.verdicts.append(("refusal", rejected.code, rejected.seat, rejected.details))
            return
        except (InvalidInput, CardError):
            return
        self.verdicts += [("warning", w["code"], w["seat"], w["details"]) for w in warnings]
        self.verdicts += [("finding", f.code, f.seat, f.details) for f in findings]


def verdicts(game: str, seed: int, matches: int, steps: int) -> list[tuple[str, str, int | None, dict]]:
    rng = random.Random(seed)
    found = []
    for _ in range(matches):
        fuzzer = Fuzzer(game, rng)
        after = 3  # a few entries after the match is over, too
        for _ in range(steps):
            if fuzzer.match.view()["status"] == "finished":
                after -= 1
                if not after:
                    break
            fuzzer.step()
        found += fuzzer.verdicts
    return found
