"""A match is the fold of its events.

A match is created with a game, its players in clockwise order, the options and a stake. Everything
afterwards is an event in its log. `decide` turns a command into the event to record (or raises a
rejection); `record` appends it and applies it. An `undo` event retracts the latest live event and the
state is folded again from the log, so the same log always rebuilds the same state. A `correct` event fixes an
earlier entry in place (another card, removed, or one inserted before it) once the referee has decided again
every entry after it (corrections.py); the match is the fold of its entries with the corrections applied.

Recording an event costs the same at event 10 and at event 5,000: only an undo folds the log again.

Hands entered for the referee are the table's secret until their cards are played (RULES.md, "Hidden
cards stay hidden"): `public()` is the match as a reader without the key knows it, folded from the log
with those hands left out, so nothing the referee learned from them shows (`expected`'s legal cards, the
cards known to lie in a hand, who may still hold a card).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from decimal import Decimal
from sys import intern

from . import corrections
from .corrections import Entries, entries_of
from .formats import header_read, upgrade, written
from .games import get_game
from .games.base import Decision, Game, Lot
from .games.table import Table
from .settlement import places, settle, smallest_unit
from .verdicts import Finding, InvalidInput, RefereeWarning, Rejected

MAX_NAME_LENGTH = 40
MAX_STAKE = Decimal("1000000")
MAX_STAKE_DECIMALS = 4
CURRENCY = re.compile(r"^[A-Z]{3}$")
STAKE = re.compile(r"^[0-9]{1,7}(\.[0-9]{1,4})?$", re.ASCII)  # plain digits, a point, at most 4 decimals
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # fillers and blanks that count as letters or symbols
LOOKALIKE = str.maketrans(  # Cyrillic and Greek letters drawn like Latin ones, for telling names apart
    "авсеһіјкмнорѕтхуАВСЕНІЈКМОРЅТХУԁԛԝαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "abcehijkmhopstxyABCEHIJKMOPSTXYdqwaBeiKvopTuxABEZHIKMNOPTYX")


class Match:
    """A match of one game: its header (players, options, stake), its log and the state folded from it."""

    def __init__(self, game: Game, players: list[str], options: dict, stake: Decimal, currency: str | None):
        self.game = game
        self.players = players
        self.options = options
        self.stake = stake
        self.currency = currency
        self.log: list[dict] = []
        self.undone: dict[int, int] = {}  # seq of a retracted event -> seq of the undo that retracted it
        self.live: list[int] = []  # the seqs of the live events, oldest first: an undo retracts the last
        self.state: Table = game.new_state(players, options)
        self.secret: set[int] = set()  # the seqs of deal events whose hands a reader without the key may not see
        self.dealt: int | None = None  # the live deal event of the current deal, when it carries hands
        self.shadow: Match | None = None  # `public()`, kept up to date while there are secret hands
        self.entries = Entries()  # what the match is the fold of: the live events, the corrections applied

    # --- making and rebuilding -------------------------------------------------------------------
    @classmethod
    def create(cls, game: str, players: object, options: object = None, stake: object = None,
               currency: object = None) -> Match:
        """A new match, every argument checked; a bad one raises `InvalidInput` naming it."""
        the_game = get_game(game)
        names = check_players(the_game, players)
        resolved = the_game.resolve_options(options, len(names))
        return cls(the_game, names, resolved, check_stake(stake), check_currency(currency))

    def header(self) -> dict:
        """What the match was created with, as stored: enough, with the log, to rebuild it."""
        return {"game": self.game.name, "players": list(self.players), "options": dict(self.options),
                "stake": str(self.stake), "currency": self.currency}

    @classmethod
    def from_header(cls, header: dict) -> Match:
        game = get_game(header["game"])
        header = header_read(header, {option.name: option.before for option in game.options})
        return cls(game, list(header["players"]), dict(header["options"]), Decimal(header["stake"]),
                   header.get("currency"))

    @classmethod
    def replay(cls, header: dict, events: list[dict]) -> Match:
        """The match rebuilt from its header and its whole log (undo events included, each in any format the
        engine reads), folded once."""
        match = cls.from_header(header)
        for event in events:
            match.append(event, event["seq"])
        match.refold()
        return match

    # --- events ------------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return self.log[-1]["seq"] if self.log else 0

    def live_events(self) -> list[dict]:
        return [self.log[seq - 1] for seq in self.live]

    def decide(self, command: object, lot: Lot | None = None) -> Decision:
        """The event that `command` records (in the current format), with its warnings; raises `Rejected` or
        `InvalidInput`."""
        if not isinstance(command, dict):
            raise InvalidInput("bad_event", "An event is an object with a type.")
        kind = command.get("type")
        if kind == "undo":
            if not self.live:
                raise Rejected("nothing_to_undo", "There is nothing to undo.", details={})
            return Decision(written({"type": "undo", "undoes": self.live[-1]}))
        if kind == "correct":
            prepared = corrections.prepare(self, command, lot)
            return Decision(written(prepared.event), tuple(RefereeWarning(**w) for w in prepared.warnings))
        if kind not in self.game.event_types:
            kinds = ", ".join(sorted(self.game.event_types | MATCH_EVENTS))
            raise InvalidInput("bad_event_type", f"{self.game.title} has no event {kind!r}; it has: {kinds}.",
                               {"type": kind})
        self.game.check_fields(command)
        decision = self.game.decide(self.state, command, lot)
        return Decision(written(decision.event), decision.warnings)

    def record(self, event: dict, seq: int | None = None) -> list[Finding]:
        """Append a decided event (with its warnings) as number `seq`; returns the findings it raised."""
        event = self.append(event, seq)
        if event["type"] == "undo":
            self.refold()
            return []
        if event["type"] == "correct":
            before = found(self.state.findings)
            self.refold()
            return [f for f in self.state.findings if (f.seq, f.proof_seq, f.code) not in before]
        before = len(self.state.findings)
        self.game.evolve(self.state, event)
        self.note_secret(event)
        if self.shadow is not None:
            self.shadow.record(self.keyless(event), event["seq"])
        return self.state.findings[before:]

    def append(self, event: dict, seq: int | None = None) -> dict:
        """Put the event, read in the current format, in the log as number `seq` (the next one) without applying
        it to the state."""
        seq = self.seq + 1 if seq is None else seq
        if seq != self.seq + 1:
            raise ValueError(f"event {seq} does not follow event {self.seq}")
        event = {**shared(corrections.upgraded(upgrade(event))), "seq": seq}
        self.log.append(event)
        if event["type"] == "correct":
            self.live.append(seq)
        elif event["type"] != "undo":
            self.live.append(seq)
            self.entries.add(event)
        elif self.live and self.live[-1] == event["undoes"]:
            self.undone[event["undoes"]] = seq
            self.live.pop()
        else:
            raise ValueError(f"undo {seq} retracts event {event['undoes']}, which is not the latest live event")
        return event

    def play(self, command: dict, lot: Lot | None = None) -> tuple[dict, list[dict], list[Finding]]:
        """Decide and record in one step: (event, warnings, new findings)."""
        if isinstance(command, dict) and command.get("type") == "correct":
            return self.correct(command, lot)
        decision = self.decide(command, lot)
        warnings = [w.as_dict() for w in decision.warnings]
        event = {**decision.event, "warnings": warnings} if warnings else decision.event
        if "illegal" in event and self.dealt is not None:
            event = {**event, "public": self.seen_blind(command, lot)}
        findings = self.record(event)
        return recorded(self.log[-1]), warnings, findings

    def seen_blind(self, command: dict, lot: Lot | None) -> dict:
        """What a reader without the key may know of a play let stand while the deal's entered hands are secret:
        the verdict the referee gives without those hands (`public()`'s), which may be none at all. The rule a
        hand proved broken, and its words, stay with the key until the hands may show (`keyless`)."""
        blind = self.public().decide(command, lot)
        seen = {"deal": self.dealt}
        if "illegal" in blind.event:
            seen["illegal"] = blind.event["illegal"]
            seen["warnings"] = [w.as_dict() for w in blind.warnings]
        return seen

    def correct(self, command: dict, lot: Lot | None = None) -> tuple[dict, list[dict], list[Finding]]:
        """Decides and records a correction (corrections.py), taking on the match it folded while deciding it:
        (event, warnings, new findings)."""
        prepared = corrections.prepare(self, command, lot)
        before = found(self.state.findings)
        warnings = prepared.warnings
        event = self.append({**written(prepared.event), **({"warnings": warnings} if warnings else {})})
        self.entries.apply(event)
        fold = prepared.fold
        self.state, self.secret, self.dealt, self.shadow = fold.state, fold.secret, fold.dealt, None
        findings = [f for f in self.state.findings if (f.seq, f.proof_seq, f.code) not in before]
        return recorded(event), warnings, findings

    def scratch(self) -> Match:
        """A match of the same header with no event: a fold that `apply` extends entry by entry."""
        fold = Match(self.game, self.players, self.options, self.stake, self.currency)
        fold.secret = self.never_played()
        return fold

    def apply(self, entry: dict) -> None:
        """Folds one more entry into the state."""
        self.game.evolve(self.state, entry)
        self.note_secret(entry)

    def never_played(self) -> set[int]:
        """The deals of the log whose hands were never played as entered: undone."""
        return {seq for seq in self.undone if self.log[seq - 1].get("hands")}

    def refold(self) -> None:
        self.entries = entries_of(self.log, self.live)
        self.state = self.game.new_state(self.players, self.options)
        self.secret = self.never_played()
        self.dealt = None
        self.shadow = None
        for event in self.entries.values():
            self.game.evolve(self.state, event)
            self.note_secret(event)

    def note_secret(self, event: dict) -> None:
        """Keeps `secret` true after `event`: a deal's entered hands are secret until the game says otherwise."""
        if event["type"] == "deal":
            self.dealt = event["seq"] if event.get("hands") else None
        if self.dealt is None:
            return
        if self.game.hands_secret(self.state):
            self.secret.add(self.dealt)
        else:
            self.secret.discard(self.dealt)
            self.dealt = None
            self.shadow = None  # it shows the deal's plays as they were seen blind; the hands may show now

    def public(self) -> Match:
        """The match as a reader without the key knows it: folded from the log with the secret hands left out.

        Itself when no hand is secret; else a copy kept up to date event by event until an undo or the end
        of the secret.
        """
        if not self.secret:
            self.shadow = None
            return self
        if self.shadow is None or self.shadow.seq != self.seq:
            self.shadow = Match.replay(self.header(), [self.keyless(e) for e in self.log])
        return self.shadow

    def keyless(self, event: dict) -> dict:
        """The event as a reader without the key may see it now: a deal without its secret hands, a play let
        stand in such a deal with only what the referee could tell without them (`seen_blind`); a correction with
        the entries it holds shown the same way."""
        if event["type"] == "correct":
            hide = event["seq"] in self.undone
            shown = dict(event)
            for key in corrections.NESTED:
                if isinstance(event.get(key), dict):
                    shown[key] = self.shown(event[key], hide or self.superseded(event[key]))
            if "changed" in event:
                shown["changed"] = [self.shown(entry, hide or self.superseded(entry)) for entry in event["changed"]]
            return shown
        return self.shown(event, self.superseded(event))

    def superseded(self, entry: dict) -> bool:
        """Whether `entry` (a logged event, or an entry a correction holds) is no longer what its entry is: a
        correction changed it since. Its hands were never played as entered, and what they proved stays unsaid."""
        current = self.entries.current
        seq = entry["seq"]
        return seq in current and current[seq] is not entry

    def shown(self, entry: dict, superseded: bool) -> dict:
        if "hands" in entry and (superseded or entry["seq"] in self.secret):
            entry = without_hands(entry)
        seen = entry.get("public")
        if seen is None:
            return entry
        if not superseded and seen["deal"] not in self.secret:  # the hands may show now, and so may what they proved
            return without_public(entry)
        shown = {key: value for key, value in entry.items() if key not in SEEN_WITH_THE_KEY}
        return {**shown, **{key: value for key, value in seen.items() if key != "deal"},
                **({"force": True} if "illegal" in seen else {})}

    # --- what the table sees -----------------------------------------------------------------------
    def expected(self) -> dict | None:
        return self.game.expected(self.state)

    def events_view(self, hidden: bool = False, after: int = 0, limit: int | None = None) -> list[dict]:
        """The log (`limit` events after event `after`, or all), each event with the seq of the undo that retracted
        it and of the live correction that last changed it (null when none did: every event has both fields);
        `hidden`: without the hands that are still the table's secret."""
        events = self.log[after:] if limit is None else self.log[after:after + limit]
        shown = self.keyless if hidden else recorded
        undone, corrected = self.undone, self.entries.corrected
        return [{**shown(e), "undone_by": undone.get(e["seq"]), "corrected_by": corrected.get(e["seq"])}
                for e in events]

    def view(self, history: object = None) -> dict:
        """What the table sees of the match; `history` stands for the list of the deals played (a caller that keeps
        its own text of it: the list is not copied then)."""
        state = self.state
        where = {seat: first for seat, (first, _) in places(self.game.ranking(state)).items()}
        players = []
        for seat, name in enumerate(self.players):
            shown = state.finished or state.out[seat]
            players.append({
                "seat": seat,
                "name": name,
                "score": state.scores[seat],
                "lives": state.lives[seat],
                "out": state.out[seat],
                "place": where[seat] if shown else None,
                **self.game.player_view(state, seat),
            })
        return {
            "game": self.game.name,
            "options": dict(self.options),
            "rules": rules(self.game, self.options, len(self.players)),
            "stake": str(self.stake),
            "currency": self.currency,
            "status": "finished" if state.finished else "playing",
            "players": players,
            "dealer": state.last_dealer,
            "deal": self.game.deal_view(state),
            "expected": self.expected(),
            "findings": [f.as_dict() for f in sorted(state.findings, key=lambda f: (f.seq, f.proof_seq))],
            "history": list(state.history) if history is None else history,
            "settlement": self.settlement() if state.finished else None,
            "seq": self.seq,
        }

    def settlement(self) -> dict:
        """The money as it stands: final when the match is over, "if we stopped now" before."""
        unit = smallest_unit(self.stake)
        payments = self.game.payments(self.state, self.stake)
        money = settle(self.game.ranking(self.state), self.stake, payments)

        def show(amount: Decimal) -> str:
            return str(amount.quantize(unit))

        return {
            "final": self.state.finished,
            "stake": str(self.stake),
            "currency": self.currency,
            "by": "pool" if payments is None else "deals",
            "pool": show(money["pool"]),
            "players": [{**p, "name": self.players[p["seat"]], "paid": show(p["paid"]),
                         "received": show(p["received"]), "net": show(p["net"])} for p in money["players"]],
            "transfers": [{**t, "amount": show(t["amount"])} for t in money["transfers"]],
        }


def rules(game: Game, options: dict, players: int) -> dict:
    """`game.rules(options, players)`, worked out once for every match played with the same options and number
    of players (shared: it is read, never changed)."""
    try:
        return _rules(game, tuple(sorted(options.items())), players)
    except TypeError:  # an option's value that is a list or a dict: worked out each time
        return game.rules(options, players)


@functools.lru_cache(maxsize=256)
def _rules(game: Game, options: tuple, players: int) -> dict:
    return game.rules(dict(options), players)


SEEN_WITH_THE_KEY = ("illegal", "warnings", "force", "public")
"""What a play let stand carries that a reader without the key sees only once the deal's hands may show."""


MATCH_EVENTS = frozenset({"undo", "correct"})
"""The events of every game, which the match handles itself."""


def found(findings: list[Finding]) -> set[tuple]:
    """What tells the findings apart: the event found, the proof and the rule."""
    return {(f.seq, f.proof_seq, f.code) for f in findings}


def recorded(event: dict) -> dict:
    """An event as recorded, without what it keeps for readers without the key: a correction's entries too."""
    if event["type"] != "correct":
        return without_public(event)
    shown = dict(event)
    for key in corrections.NESTED:
        if isinstance(event.get(key), dict):
            shown[key] = without_public(event[key])
    if "changed" in event:
        shown["changed"] = [without_public(entry) for entry in event["changed"]]
    return shown


def without_public(event: dict) -> dict:
    """An event without what it keeps for readers without the key (`Match.seen_blind`): the event as recorded."""
    return {key: value for key, value in event.items() if key != "public"} if "public" in event else event


def without_hands(event: dict) -> dict:
    """A deal event without the hands entered with it (any other event as it is)."""
    return {key: value for key, value in event.items() if key != "hands"} if "hands" in event else event


def shared(value: object) -> object:
    """An event's data with its texts interned: the thousands of events a server holds share one copy of
    each field name, event type and card, instead of one per event read from the log or decided. (Numbers,
    true, false and null are kept as they are without a call: every event is shared as it is logged.)"""
    kind = type(value)
    if kind is dict:
        return {intern(key) if type(key) is str else key: item if type(item) in PLAIN else shared(item)
                for key, item in value.items()}
    if kind is list:
        return [item if type(item) in PLAIN else shared(item) for item in value]
    if kind is str:
        return intern(value)
    return value


PLAIN = frozenset({int, float, bool, type(None)})


def check_players(game: Game, players: object) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidInput("bad_players", "players is a list of names, in clockwise order.")
    names = [unicodedata.normalize("NFC", p).strip() for p in players]
    if not game.min_players <= len(names) <= game.max_players:
        raise InvalidInput("bad_players", f"{game.title} is for {game.min_players} to {game.max_players} players, "
                           f"not {len(names)}.", {"players": len(names), "min": game.min_players,
                                                  "max": game.max_players, "case": "count"})
    for name in names:
        if not 1 <= len(name) <= MAX_NAME_LENGTH:
            raise InvalidInput("bad_players", f"A player's name has 1 to {MAX_NAME_LENGTH} characters.",
                               {"name": name[:MAX_NAME_LENGTH + 10], "case": "length"})
        if any(unicodedata.category(char) == "Cc" for char in name):
            raise InvalidInput("bad_players", f"A player's name cannot hold control characters (a line break, a tab, "
                               f"...): {name!r}.", {"name": name, "case": "control"})
        if not any(visible(char) for char in name):
            raise InvalidInput("bad_players", "A player's name needs a letter, a digit or a sign that can be seen.",
                               {"name": name, "case": "invisible"})
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(same_name(name), name)
        if other is not name:
            raise InvalidInput("bad_players", f"Two players have the same name, or names that look the same "
                               f"({other!r} and {name!r}); give each a name of their own.",
                               {"name": name, "other": other, "case": "same"})
    return names


def visible(char: str) -> bool:
    """Whether a character shows: a letter, digit, punctuation or symbol, not a space, a control or a filler."""
    return unicodedata.category(char)[0] in "LNPS" and char not in INVISIBLE


def same_name(name: str) -> str:
    """What two names that people would take for the same compare equal by: compatibility forms (full-width
    letters), case, accents written either way, invisible characters and look-alike letters folded."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    folded = "".join(char for char in unicodedata.normalize("NFKC", folded) if visible(char) or char == " ")
    return " ".join(folded.translate(LOOKALIKE).lower().split())


def check_stake(stake: object) -> Decimal:
    """A stake is plain ASCII digits with an optional point and at most 4 decimals ("0.50"), or a JSON number
    meaning the same; no sign, exponent, digit separator or other script's digits."""
    if stake is None:
        return Decimal(0)
    if isinstance(stake, bool) or not isinstance(stake, (str, int, float)):
        raise InvalidInput("bad_stake", "stake is a decimal amount written as text, like \"0.50\".")
    text = stake.strip() if isinstance(stake, str) else repr(stake)
    if isinstance(stake, float) and stake.is_integer() and abs(stake) < 1e16:
        text = str(int(stake))
    if not STAKE.match(text):
        raise InvalidInput("bad_stake", f"stake {str(stake)[:30]!r} is not an amount: write digits with at most "
                           f"{MAX_STAKE_DECIMALS} decimals after a point, like \"0.50\".")
    amount = Decimal(text)
    if amount > MAX_STAKE:
        raise InvalidInput("bad_stake", f"stake must be from 0 to {MAX_STAKE}.")
    return amount


def check_currency(currency: object) -> str | None:
    if currency is None or currency == "":
        return None
    if not isinstance(currency, str) or not CURRENCY.match(currency.strip().upper()):
        raise InvalidInput("bad_currency", "currency is a three-letter code such as PLN, EUR or RUB.")
    return currency.strip().upper()
