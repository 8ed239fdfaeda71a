"""Corrections: an earlier entry of the log fixed in place, without undoing what came after it.

A correction is an event of every game, handled by the match (like `undo`), not by the game:

- `{"type": "correct", "seq": 5, "with": {...}}`: event 5 should have been this event (another card, seat, bid,
  dealer, trump, penalty...);
- `{"type": "correct", "seq": 5, "remove": true}`: event 5 never happened (a stray entry);
- `{"type": "correct", "before": 5, "insert": {...}}`: this event happened just before event 5 but was never
  logged (a forgotten card).

The match is the fold of its **entries**: the live events of the log, other than undos and corrections, in log
order, with the live corrections applied in place. An entry is named by the seq of the event that logged it; an
inserted entry by the seq of the correction that inserted it. Nothing is deleted: a correction is recorded as
`{"type": "correct", "corrects": 5, "with": {the entry as it now is}, "was": {the entry as it was}, "changed":
[...]}` (`"remove": true` instead of `with`; `{"before": 5, "insert": {...}}` for an insertion), so the log
keeps every entry as it was logged and every correction, and replaying the log gives the same match.

The referee decides the corrected entry where it stands, then decides again every entry after it, in order, on
the corrected match: an entry that no longer fits (a card then played twice, a turn broken, a deal that now
ends sooner, a player out who then plays) refuses the whole correction, naming the first entry that breaks and
why (`correction_breaks_rule` when `force` may let it stand, `correction_breaks_log` when it cannot have
happened at all). With `force`, the entries that break a forceable rule are let stand, each flagged (`illegal`
and a warning) in `changed`. `changed` holds every later entry whose recorded form the correction changes: a
verdict it now carries, or no longer does. So findings, warnings, scores, lives, places and money are what the
corrected log gives, and replaying needs no refereeing again.

A correction may name a correction: `seq` of a correction that inserted an entry names that entry; `seq` of a
correction that changed or removed entry 5 names entry 5 again (`with`: another correction of it; `remove`: back
to what the correction found, `was`). The correction records the one it amends (`amends`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .formats import upgrade, written
from .games.base import Decision, Lot
from .verdicts import InvalidInput, Rejected

DECIDED = frozenset({"seq", "format", "warnings", "illegal", "public"})
"""What the referee adds to an event when it decides it: what the table said is the rest."""

NESTED = ("with", "was", "insert")
"""The fields of a correction that hold an entry."""


@dataclass
class Entries:
    """The entries of a match: their order (an entry removed by a correction keeps its place, as None in
    `current`), what each now is, and the correction that last changed each logged event."""

    order: list[int] = field(default_factory=list)
    current: dict[int, dict | None] = field(default_factory=dict)
    corrected: dict[int, int] = field(default_factory=dict)

    def add(self, event: dict) -> None:
        self.order.append(event["seq"])
        self.current[event["seq"]] = event

    def apply(self, correction: dict) -> None:
        """Applies a recorded correction; a correction that names no entry raises ValueError (a log out of step)."""
        seq = correction["seq"]
        if "insert" in correction:
            before = correction["before"]
            if self.current.get(before) is None:
                raise ValueError(f"correction {seq} inserts before {before}, which is no entry of the match")
            self.order.insert(self.order.index(before), seq)
            self.current[seq] = correction["insert"]
        else:
            target = correction["corrects"]
            if target not in self.current:
                raise ValueError(f"correction {seq} corrects {target}, which is no entry of the match")
            self.current[target] = correction.get("with")
            self.corrected[target] = seq
        if "amends" in correction:
            self.corrected[correction["amends"]] = seq
        for entry in correction.get("changed", ()):
            if entry["seq"] not in self.current:
                raise ValueError(f"correction {seq} changes {entry['seq']}, which is no entry of the match")
            self.current[entry["seq"]] = entry
            self.corrected[entry["seq"]] = seq

    def values(self, start: int = 0, end: int | None = None):
        """The entries standing (not removed), in order, from position `start` to `end`."""
        current = self.current
        for seq in self.order[start:end]:
            entry = current[seq]
            if entry is not None:
                yield entry

    def copy(self) -> Entries:
        return Entries(list(self.order), dict(self.current), dict(self.corrected))


def entries_of(log: list[dict], live: list[int]) -> Entries:
    """The entries the live events of `log` make, the corrections applied in log order."""
    entries = Entries()
    for seq in live:
        event = log[seq - 1]
        kind = event["type"]
        if kind == "correct":
            entries.apply(event)
        elif kind != "undo":
            entries.add(event)
    return entries


def upgraded(event: dict) -> dict:
    """A correction with the entries it holds read in the current format too (any other event as it is)."""
    if event.get("type") != "correct":
        return event
    event = dict(event)
    for key in NESTED:
        if isinstance(event.get(key), dict):
            event[key] = upgrade(event[key])
    if "changed" in event:
        event["changed"] = [upgrade(entry) for entry in event["changed"]]
    return event


def command_of(entry: dict) -> dict:
    """What the table said to log `entry`: the entry without what the referee decided of it (`force` kept: the
    table let it stand)."""
    return {key: value for key, value in entry.items() if key not in DECIDED}


def entry_of(decision: Decision, seq: int) -> dict:
    """A decided event as the entry number `seq`, with its warnings, in the current format."""
    warnings = [w.as_dict() for w in decision.warnings]
    event = written(decision.event)
    return {**event, **({"warnings": warnings} if warnings else {}), "seq": seq}


def same(entry: dict, old: dict) -> bool:
    """Whether a decided entry is the entry as it was recorded (what it keeps for readers without the key aside)."""
    if "public" in old:
        old = {key: value for key, value in old.items() if key != "public"}
    return entry == old


# --- reading the command ---------------------------------------------------------------------------

@dataclass
class Target:
    """What a correction does: `kind` ("with", "remove", "insert"), the entry it changes or inserts before, the
    command of the entry it puts there (None for a removal), and the correction it amends."""

    kind: str
    entry: int
    command: dict | None
    amends: int | None = None


CORRECTION_FIELDS = frozenset({"type", "seq", "with", "remove", "before", "insert", "force", "expect_seq"})


def read(match, command: dict) -> Target:
    """The correction `command` asks for; InvalidInput when it is malformed, Rejected when what it names cannot be
    corrected."""
    unknown = sorted(key for key in command if key not in CORRECTION_FIELDS)
    if unknown:
        raise InvalidInput("bad_correction", f"A correction takes seq with `with` or `remove`, or before with insert; "
                           f"not {', '.join(unknown)}.", {"fields": unknown})
    given = [key for key in ("with", "remove", "insert") if key in command]
    if len(given) != 1:
        raise InvalidInput("bad_correction", 'A correction is one of {"seq": n, "with": {event}}, {"seq": n, '
                           '"remove": true} or {"before": n, "insert": {event}}.', {"fields": given})
    kind = given[0]
    where = "before" if kind == "insert" else "seq"
    other = "seq" if kind == "insert" else "before"
    if other in command:
        raise InvalidInput("bad_correction", f"A correction with {kind} names the event by {where}, not {other}.",
                           {"field": other})
    named = command.get(where)
    if isinstance(named, bool) or not isinstance(named, int):
        raise InvalidInput("bad_correction", f"{where} is the number of an event of the log.", {where: named})
    if kind == "remove" and command["remove"] is not True:
        raise InvalidInput("bad_correction", "remove is true: the event never happened.", {"remove": command["remove"]})
    if kind in ("with", "insert"):
        check_entry_command(match, command[kind], kind)
    entry, amends, found = resolve(match, named)
    if kind == "insert":
        if match.entries.current.get(entry) is None:
            raise not_correctable(named, "removed")
        return Target("insert", entry, command["insert"])
    if kind == "remove" and amends is not None and found is not None:  # a correction taken back: what it found
        restored = None if found.get("was") is None else command_of(found["was"])
        return Target("with" if restored else "remove", entry, restored, amends)
    if kind == "remove" and match.entries.current.get(entry) is None:
        raise not_correctable(named, "removed")
    return Target(kind, entry, command.get("with"), amends)


def check_entry_command(match, command: object, kind: str) -> None:
    if not isinstance(command, dict):
        raise InvalidInput("bad_correction", f"{kind} is the event as it should have been: an object with a type.",
                           {kind: command})
    event_type = command.get("type")
    if event_type not in match.game.event_types:
        kinds = ", ".join(sorted(match.game.event_types))
        raise InvalidInput("bad_event_type", f"{match.game.title} has no event {event_type!r} to put in the log; it "
                           f"has: {kinds}.", {"type": event_type})
    if "expect_seq" in command:
        raise InvalidInput("unused_field", "expect_seq goes with the correction, not with the event it puts in the "
                           "log.", {"type": event_type, "fields": ["expect_seq"]})
    match.game.check_fields(command)


def resolve(match, named: int) -> tuple[int, int | None, dict | None]:
    """The entry that seq `named` names, the correction it amends (when `named` is a correction that changed or
    removed an entry), and that correction."""
    log = match.log
    if not 1 <= named <= len(log):
        raise not_correctable(named, "unknown")
    event = log[named - 1]
    if named in match.undone:
        raise not_correctable(named, "undone")
    if event["type"] == "undo":
        raise not_correctable(named, "undo")
    if event["type"] == "correct":
        if "insert" in event:
            return named, None, None
        return event["corrects"], named, event
    return named, None, None


def not_correctable(seq: int, case: str) -> Rejected:
    messages = {
        "unknown": f"The log has no event {seq}.",
        "undone": f"Event {seq} was undone: it is not in the match to correct.",
        "undo": f"Event {seq} is an undo: undo again, or correct the event itself.",
        "removed": f"Event {seq} was removed by a correction.",
    }
    return Rejected("not_correctable", messages[case], details={"seq": seq, "case": case})


# --- deciding it -----------------------------------------------------------------------------------

@dataclass
class Prepared:
    """A decided correction: the event to record, its warnings, and the match folded with it (a scratch match
    whose state, secret and entries the match takes on when the event is recorded)."""

    event: dict
    warnings: list[dict]
    fold: object


def prepare(match, command: dict, lot: Lot | None = None) -> Prepared:
    """Decides a correction on `match`: the corrected entry where it stands, then every entry after it again."""
    target = read(match, command)
    force = command.get("force") is True
    game = match.game
    seq = match.seq + 1  # the correction's own seq, and the seq of the entry it inserts
    entries = match.entries.copy()
    position = entries.order.index(target.entry)
    fold = match.scratch()
    for entry in entries.values(0, position):
        fold.apply(entry)
    # near the start, the match as it was is folded alongside, to see where the corrected one meets it again
    old = None
    if 2 * position < len(entries.order) - position:
        old = match.scratch()
        for entry in entries.values(0, position):
            old.apply(entry)
        if target.kind != "insert" and entries.current[target.entry] is not None:
            old.apply(entries.current[target.entry])
    warnings: list[dict] = []
    changed: list[int] = []
    flagged: list[int] = []

    def decide_new(command: dict, number: int) -> dict:
        decision = game.decide(fold.state, {**command, "force": True} if force else command, lot)
        entry = entry_of(decision, number)
        warnings.extend(entry.get("warnings", ()))
        return entry

    event: dict = {"type": "correct"}
    if target.kind == "insert":
        inserted = decide_new(target.command, seq)
        entries.order.insert(position, seq)
        entries.current[seq] = inserted
        fold.apply(inserted)
        event |= {"before": target.entry, "insert": inserted}
        position += 1  # the entry it was inserted before is decided again, with the rest
    else:
        was = entries.current[target.entry]
        if target.kind == "with":
            entry = decide_new(target.command, target.entry)
            fold.apply(entry)
            event |= {"corrects": target.entry, "with": entry}
        else:
            entry = None
            event |= {"corrects": target.entry, "remove": True}
        event["was"] = was
        entries.current[target.entry] = entry
        position += 1
    if target.amends is not None:
        event["amends"] = target.amends
    looks = 0
    for number in entries.order[position:]:
        was = entries.current[number]
        if was is None:
            continue
        if old is not None and was["type"] == "deal":
            if standing(game, fold.state) == standing(game, old.state):  # met: every later entry is decided the same
                old = None
                met = entries.order.index(number)
                for entry in entries.values(met):
                    fold.apply(entry)
                break
            looks += 1
            if looks == LOOKS:
                old = None
        entry = decide_again(game, fold, was, force, flagged)
        if not same(entry, was):
            entries.current[number] = entry
            changed.append(number)
            if number in flagged:
                warnings.extend({**w, "details": {**w["details"], "seq": number}} for w in entry.get("warnings", ()))
        fold.apply(entries.current[number])
        if old is not None:
            old.apply(was)
    if fold.dealt is not None:
        seen_blind_again(match, fold.dealt, entries, changed)
    if changed:
        places = {number: place for place, number in enumerate(entries.order)}
        event["changed"] = [entries.current[number] for number in sorted(changed, key=places.__getitem__)]
    if flagged:
        event["force"] = True
        event["flagged"] = flagged
    elif force:
        event["force"] = True
    fold.entries = entries
    return Prepared(event, warnings, fold)


LOOKS = 3
"""The deals at whose start a correction near the start of the match looks whether it met the match as it was,
before it stops looking and decides every later entry again."""


def standing(game, state) -> tuple:
    """What every later decision of the referee depends on, at the start of a deal: the table's standing, and the
    last deal as it ended (the findings and the scoresheet are only ever added to)."""
    kept = tuple(getattr(state, f.name) for f in fields(state) if f.name not in ("findings", "history", "deal"))
    return kept, game.deal_view(state) if state.deal is not None else None


def decide_again(game, fold, old: dict, force: bool, flagged: list[int]) -> dict:
    """`old` decided again on the corrected match: the entry as it now is; a break refuses the correction, or with
    `force`, where the break is forceable, is let stand and flagged."""
    number = old["seq"]
    command = command_of(old)
    try:
        return entry_of(game.decide(fold.state, command, None), number)
    except Rejected as refusal:
        if not (force and refusal.forceable):
            raise breaks(number, refusal, refusal.forceable) from None
    except InvalidInput as invalid:
        raise breaks(number, invalid, False) from None
    flagged.append(number)
    return entry_of(game.decide(fold.state, {**command, "force": True}, None), number)


def breaks(number: int, verdict: Rejected | InvalidInput, forceable: bool) -> Rejected:
    """The refusal of a correction that entry `number` no longer fits: which entry, and the verdict it now gets."""
    seat = getattr(verdict, "seat", None)
    message = f"After this correction event {number} no longer fits: {verdict.message}"
    details = {"seq": number, "code": verdict.code, "details": dict(verdict.details)}
    if forceable:
        return Rejected("correction_breaks_rule", message, seat=seat, details=details)
    return Rejected("correction_breaks_log", message, seat=seat, details=details)


def seen_blind_again(match, deal: int, entries: Entries, changed: list[int]) -> None:
    """What a reader without the key may know of each play let stand in the deal whose hands are still secret
    (`Match.seen_blind`), as the corrected log gives it: the blind referee's verdict, decided again."""
    game = match.game
    blind = match.scratch()
    reached = False
    for entry in entries.values():
        if entry["seq"] == deal:
            reached = True
            blind.apply({key: value for key, value in entry.items() if key != "hands"})
            continue
        if not reached or "illegal" not in entry:
            blind.apply(entry)
            continue
        verdict = game.decide(blind.state, command_of(entry), None)
        seen: dict = {"deal": deal}
        if "illegal" in verdict.event:
            seen["illegal"] = verdict.event["illegal"]
            seen["warnings"] = [w.as_dict() for w in verdict.warnings]
        if entry.get("public") != seen:
            entry = {**entry, "public": seen}
            entries.current[entry["seq"]] = entry
            if entry["seq"] not in changed:
                changed.append(entry["seq"])
        shown = {key: value for key, value in entry.items() if key not in ("illegal", "warnings", "force", "public")}
        blind.apply({**shown, **{key: value for key, value in seen.items() if key != "deal"},
                     **({"force": True} if "illegal" in seen else {})})

