"""The matches as the API serves them: folded matches kept by each process, a creation made once per
Idempotency-Key, and an event recorded once.

Each server process keeps the matches it folded lately (`MatchCache`), each as it stood after its latest
event: a request checks the latest seq in the store (one indexed query), applies only the events other
processes stored since, and rebuilds the match from its log only when it is missing or out of step.

Recording (`record`): the referee decides the command on the match as stored, and the event is appended as
the next seq; the store's primary key `(match_id, seq)` refuses it when another writer appended first (409
`seq_conflict`, with the state as it now stands), and `expect_seq` refuses it when the client's view is
behind. A request with an `Idempotency-Key` whose event was recorded already gets the first answer again and
records nothing (422 `idempotency_key_reused` when the key came with another request); the key's record is
written in the event's own transaction. A creation with an Idempotency-Key (`create`) is made once the same
way (`api.creations`, as an evening's), and its retry gets the same match and key within 24 hours.
"""

from __future__ import annotations

import hmac
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import current_app

from referee import Match
from referee.match import recorded as as_recorded

from . import creations, encoding, keys, loop, store
from .errors import IdempotencyKeyReused, PossiblyRecorded, SeqConflict

CACHE = "kibic_matches"
STATES_KEPT = 256  # per process: the states built last, each until its match's next event (a few MiB at most)
lot = secrets.SystemRandom().randrange  # draws the first dealer when the table names none


# --- the matches this process holds --------------------------------------------------------------

class MatchCache:
    """The matches a server process folded lately, each as it stood after its latest event; the least
    recently used go first when there are more than `size`.

    A request takes its match out while it works on it, so no other request of the process sees it half
    changed, and puts it back when done; a request that finds it missing rebuilds it from the log.
    """

    def __init__(self, size: int):
        self.size = size
        self.matches: OrderedDict[str, Match] = OrderedDict()
        self.evenings: OrderedDict[str, str | None] = OrderedDict()  # match id -> its evening's id
        self.key_hashes: OrderedDict[str, str] = OrderedDict()  # match id -> the hash of its key
        self.states: OrderedDict[str, tuple[weakref.ref, tuple, dict]] = OrderedDict()  # see `built`
        # held only for a few dictionary steps, which never wait: an operating system's lock, even on gevent's
        # loop (whose cooperative locks cost more), where no greenlet can switch while holding it
        self.lock = loop.real_lock()
        self.era = 0  # one more at each restore of the data (`forget`)

    def __len__(self) -> int:
        return len(self.matches)

    def forget(self) -> None:
        """Lets go of everything held: the data was restored from a backup (`kibic restore`)."""
        with self.lock:
            self.era += 1
            for held in (self.matches, self.evenings, self.key_hashes, self.states):
                held.clear()

    def holds(self, match_id: str, seq: int) -> bool:
        """Whether the process holds the match as it stood after event `seq`."""
        with self.lock:
            held = self.matches.get(match_id)
        return held is not None and held.seq == seq

    def take(self, match_id: str) -> Match | None:
        with self.lock:
            return self.matches.pop(match_id, None)

    def put(self, match_id: str, match: Match, era: int | None = None) -> None:
        """Keeps `match`, unless the cache holds the same match further on (another request's), or the data was
        restored since it was taken (`era`)."""
        with self.lock:
            if era is not None and era != self.era:
                return
            held = self.matches.get(match_id)
            if held is None or held.seq <= match.seq:
                self.matches[match_id] = match
            self.matches.move_to_end(match_id)
            while len(self.matches) > self.size:
                self.matches.popitem(last=False)


    def built(self, match_id: str, match: Match, form: tuple) -> dict | None:
        """The state last built of `match` (this very object, as it stands) in this `form`, if still kept: the
        states of the STATES_KEPT matches played last are kept, for their followers' reads of the same event."""
        with self.lock:
            kept = self.states.get(match_id)
        if kept is not None and kept[0]() is match and kept[1] == form:
            return kept[2]
        return None

    def keep_built(self, match_id: str, match: Match, form: tuple, state: dict) -> None:
        with self.lock:
            self.states[match_id] = weakref.ref(match), form, state
            self.states.move_to_end(match_id)
            while len(self.states) > STATES_KEPT:
                self.states.popitem(last=False)

    def evening(self, match_id: str) -> str | None:
        """The id of the evening the match belongs to (None for a match of its own), asked of the store once:
        a match joins its evening in the transaction that creates it, and never leaves it."""
        return self.fixed(self.evenings, match_id, store.current().match_evening)

    def key_hash(self, match_id: str) -> str:
        """The hash of the match's key, read with the match's row once (`UnknownMatch` when there is no such
        match): a match's key never changes, so a write checks its key without reading the row again."""
        return self.fixed(self.key_hashes, match_id, lambda match_id: store.current().match_row(match_id)["key_hash"])

    def know_key_hash(self, match_id: str, key_hash: str) -> None:
        """Keeps the hash of a match's key, as stored when the match was created."""
        self.keep(self.key_hashes, match_id, key_hash)

    def fixed(self, facts: OrderedDict, match_id: str, read: Callable[[str], object]):
        """A fact of the match that never changes, from `facts`, or read from the store once and kept there."""
        with self.lock:
            if match_id in facts:
                facts.move_to_end(match_id)
                return facts[match_id]
        found = read(match_id)
        self.keep(facts, match_id, found)
        return found

    def keep(self, facts: OrderedDict, match_id: str, value: object) -> None:
        with self.lock:
            facts[match_id] = value
            facts.move_to_end(match_id)
            while len(facts) > self.size:
                facts.popitem(last=False)


def cache() -> MatchCache:
    return current_app._get_current_object().extensions[CACHE]  # the app itself: a proxy's lookup costs more


def load_match(match_id: str, upto: int | None = None) -> Match:
    """The match as its header and its log rebuild it (as it stood after event `upto`, when given)."""
    held = store.current()
    return Match.replay(store.header(held.match_row(match_id)), held.events(match_id, upto))


@contextmanager
def current_match(match_id: str, latest: int | None = None) -> Iterator[Match]:
    """The match after its latest stored event (`latest`, when the caller just read it), for this request alone.

    It goes back to the process's cache when the block ends, unless the block raised after changing it:
    a block that records an event must store it before it ends, or raise.
    """
    held = cache()
    era = held.era
    match = up_to_date(match_id, held.take(match_id), latest)
    if held.era != era:  # a restore, noticed at this request's first look at the store (after the cache gave the
        era = held.era  # match): what it gave is of the data before, whatever its seq
        match = load_match(match_id)
    seq = match.seq
    try:
        yield match
    except BaseException:
        if match.seq == seq:
            held.put(match_id, match, era)
        raise
    held.put(match_id, match, era)


def up_to_date(match_id: str, match: Match | None, latest: int | None) -> Match:
    """`match` (from the cache) with the events stored since applied; rebuilt when missing or out of step. Without
    `latest` (the seq of the latest event, when the caller read it), the log is read once for both."""
    if latest is None and match is not None:
        return caught_up(match_id, match, *store.current().news(match_id, match.seq))
    if latest is None:
        latest = store.current().latest_seq(match_id)
    if match is not None and match.seq > latest:
        latest = store.current().latest_seq(match_id)  # stored by this process after `latest` was read, or out of step
    if match is not None and match.seq == latest:
        return match
    if match is not None and match.seq < latest:
        try:
            for event in store.current().events(match_id, upto=latest, after=match.seq):
                match.record(event, event["seq"])
        except ValueError:
            match = None
        if match is not None and match.seq == latest:
            return match
    return load_match(match_id, upto=latest)


def caught_up(match_id: str, match: Match, latest: int, news: list[dict]) -> Match:
    """`match` (from the cache) with `news`, the events stored since it up to `latest`, applied; rebuilt when out
    of step (the log behind the match, or an event it refuses)."""
    if match.seq < latest and [event["seq"] for event in news] == list(range(match.seq + 1, latest + 1)):
        try:
            for event in news:
                match.record(event, event["seq"])
        except ValueError:
            return load_match(match_id, upto=latest)
    if match.seq == latest:
        return match
    return load_match(match_id, upto=latest)


# --- creating a match ------------------------------------------------------------------------------

def create(match: Match, evening: dict | None, idempotency_key: str | None, body: object,
           room: store.Room | None = None) -> tuple[str, Match, str]:
    """Stores a new match (made once per Idempotency-Key: `api.creations`): its id, the match and its key. A retry
    gets the same match, even when `room` (the evening's, asked in the transaction that stores a new match) would
    now refuse it."""
    held = store.current()

    def stores(match_id: str, key_hash: str, idempotency_key_hash: str | None, digest: str | None) -> None:
        held.create_match(match_id, match.header(), key_hash, idempotency_key_hash, digest,
                          evening_id=evening and evening["id"], room=room)
        cache().know_key_hash(match_id, key_hash)

    match_id, key, earlier = creations.create(creations.MATCH, idempotency_key, body, stores, held.idempotent_match)
    return match_id, match if earlier is None else Match.replay(store.header(earlier), []), key


# --- recording an event ----------------------------------------------------------------------------

def record(match_id: str, route: str, body: object, command: dict, idempotency_key: str | None) -> dict:
    """Decides `command` on the match as stored and appends the event: the event's answer."""
    held = store.current()
    digest = keys.request_hash(route, body) if idempotency_key else None
    if idempotency_key:
        earlier = held.idempotent_event(match_id, idempotency_key)
        if earlier:
            return first_answer(match_id, earlier, digest)
    expect_seq = command.pop("expect_seq", None)
    try:
        with current_match(match_id) as match:
            if expect_seq is not None and expect_seq != match.seq:
                raise seq_conflict(match_id, match, f"The match is at event {match.seq}, not {expect_seq}: "
                                   "something was logged in between. Look at the table again.")
            if not idempotency_key and expect_seq is None and (unsure := held.unconfirmed(match_id)):
                raise possibly_recorded(match_id, match, unsure)
            event, warnings, findings = match.play(command, lot)
            # stored as recorded: with what it keeps for readers without the key (`Match.seen_blind`)
            held.append_event(match_id, match.log[-1], idempotency_key, digest)
            return answer(match_id, match, event, warnings, [f.as_dict() for f in findings])
    except store.Conflict as conflict:  # the match in hand is dropped: it holds an event the log does not
        earlier = idempotency_key and held.idempotent_event(match_id, idempotency_key)
        if earlier:
            return first_answer(match_id, earlier, digest)
        message = (f"The match was changed on the server just now (a backup put back, or a name forgotten), so "
                   f"event {event['seq']} was not recorded. Look at the table again."
                   if isinstance(conflict, store.Rewritten) else
                   f"Event {event['seq']} was logged by someone else just now. Look at the table again.")
        with current_match(match_id) as match:
            raise seq_conflict(match_id, match, message) from None


def first_answer(match_id: str, earlier: dict, digest: str) -> dict:
    """The answer the request with this Idempotency-Key got when its event was recorded."""
    if not hmac.compare_digest(earlier["request_hash"] or "", digest):
        raise IdempotencyKeyReused("This Idempotency-Key was already used for a different request.",
                                   {"seq": earlier["seq"]})
    seq = earlier["seq"]
    match = load_match(match_id, upto=seq - 1)
    event = store.current().event(match_id, seq)
    findings = match.record(event, seq)
    recorded = as_recorded(match.log[-1])  # as the engine reads it: in the current format
    return answer(match_id, match, recorded, recorded.get("warnings", []), [f.as_dict() for f in findings])


def answer(match_id: str, match: Match, event: dict, warnings: list[dict], findings: list[dict]) -> dict:
    return {"event": event, "warnings": warnings, "findings": findings, "state": state(match_id, match, keyed=True)}


def possibly_recorded(match_id: str, match: Match, seq: int) -> PossiblyRecorded:
    """The refusal of a write without Idempotency-Key nor expect_seq, when a write like it may have been recorded as
    event `seq` without its answer reaching the client: this one could be it sent again."""
    return PossiblyRecorded(f"Event {seq} was recorded a moment ago by a write whose answer may have been lost (the "
                            "connection to the database broke as it was committed), and this request carries neither "
                            "an Idempotency-Key nor expect_seq: it may be that write sent again. Look at the match; "
                            "to record this anyway, send it again with expect_seq.",
                            {"seq": match.seq, "state": state(match_id, match, keyed=True)})


def seq_conflict(match_id: str, match: Match, message: str) -> SeqConflict:
    return SeqConflict(message, {"seq": match.seq, "state": state(match_id, match, keyed=True)})


def state(match_id: str, match: Match, keyed: bool) -> dict:
    """The match's state, with the id of its evening (null for a match of its own); for a reader without the
    key (`keyed` false), without the hands still secret.

    The latest state built of the matches played last is kept until their next event (`MatchCache.built`):
    the scorer's answer, the streams and the polls of the same event share it. A reader without the key gets
    the state built for the key only while no hand is secret, when the two are the same (`Match.public` is
    the match itself).
    """
    shown = match if keyed else match.public()
    form = match.seq, shown is match
    held = cache()
    built = held.built(match_id, match, form)
    if built is None:
        built = {"id": match_id, "evening": held.evening(match_id), **shown.view(encoding.history_text(match))}
        held.keep_built(match_id, match, form, built)
    return built


def install(app) -> None:
    app.extensions[CACHE] = MatchCache(app.config["MATCHES_CACHED"])
    store.on_restore(app, app.extensions[CACHE].forget)
