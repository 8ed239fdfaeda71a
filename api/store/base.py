"""The store's interface (`Store`) and its errors, and what both of its databases share: the text the log keeps
of an event, the time it is logged at, the current app's store (`current`), and what a restore makes the
process forget (`on_restore`). The SQLite file is `api.store.sqlite`'s, PostgreSQL `api.store.postgres`'s.
"""

from __future__ import annotations

import json
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import orjson
from flask import Flask, current_app

STORE = "kibic.store"
RESTORED = "kibic.restored"  # what forgets what the process holds of the data before a restore (its caches)
LAST_SEQ = 2**63 - 1  # SQLite's largest integer: "up to the end of the log"
LONG_NUMBER = re.compile(r"\d{19}")  # orjson reads a whole number beyond 64 bits as a float, `json` as written
P = ParamSpec("P")
R = TypeVar("R")
Room = Callable[[list[list[str]]], None]  # an evening's room, asked with the players of each of its matches


# --- the store's errors --------------------------------------------------------------------------

class StoreError(Exception):
    "An error of the store, whichever database holds the matches"


class UnknownMatch(StoreError):
    "No match has this id"

    def __init__(self, match_id: str):
        super().__init__(match_id)
        self.match_id = match_id


class Conflict(StoreError):
    "A write refused because its key is taken: the log moved on, or the request was stored already"


class SeqTaken(Conflict):
    "Another writer appended an event with this seq first"


class Rewritten(Conflict):
    """The data was rewritten by the server's keeper since the match was read (a backup put back, a name forgotten:
    a new generation): its log no longer ends at the event before this one (both stores), or is no longer of the
    generation read (SQLite, where the new generation comes with the change in one write); nothing was stored"""


class IdempotencyKeyTaken(Conflict):
    "A match or an event was stored under this Idempotency-Key already"


class Unavailable(StoreError):
    "The database cannot be reached, opened, read or written; `cause` says what is wrong in a few plain words"

    def __init__(self, reason: str, cause: str):
        super().__init__(f"{reason}: {cause}")
        self.reason, self.cause = reason, cause


class Busy(StoreError):
    "The database stayed locked by other writers for longer than the store waits"


class OutcomeUnknown(StoreError):
    """A write whose connection was lost while it committed, and whose outcome could not be learnt since: it may
    or may not be recorded. `what` is "event", "match" or "evening"; `seq` the event's seq, for an event."""

    def __init__(self, what: str, seq: int | None = None):
        super().__init__(f"the outcome of a write of {what} {seq or ''} is unknown")
        self.what, self.seq = what, seq


def storage_unavailable(reason: str, cause: str) -> Unavailable:
    return Unavailable(reason, cause)


# --- the interface -------------------------------------------------------------------------------

class Store(ABC):
    """What the API needs of a store: matches, their logs, the Idempotency-Key records and the evenings.

    Every method works on the current request's (or app context's) connection and raises `StoreError`s:
    `UnknownMatch`, `SeqTaken`, `Rewritten` and `IdempotencyKeyTaken` (the write changed nothing), `Unavailable` and
    `Busy` (storage out of order: nothing was recorded), `OutcomeUnknown` (the connection lost while
    committing: maybe recorded). Rows are dicts; a match's row has `id`, `game`,
    `players` and `options` (JSON text), `stake`, `currency`, `created` (ISO 8601), `key_hash`,
    `idempotency_key_hash` and `request_hash`.
    """

    @abstractmethod
    def migrate(self) -> None:
        """Creates the tables if missing and applies the pending migrations; safe for processes starting at once."""

    @abstractmethod
    def close(self) -> None:
        """Lets go of the connections held idle."""

    @abstractmethod
    def server_secret(self) -> bytes:
        """The server's own secret, made at the first start and kept with the data (never in the code)."""

    @abstractmethod
    def secret_rows(self) -> list[tuple[str, str]]:
        """The server's secrets as `settings` keeps them, (name, value) rows: `server_secret` and each kept one
        (`server_secret:<when>`, `api.admin`'s rotation), in no order."""

    @abstractmethod
    def create_match(self, match_id: str, header: dict, key_hash: str, idempotency_key_hash: str | None = None,
                     request_hash: str | None = None, evening_id: str | None = None, room: Room | None = None) -> None:
        """Stores a new match (and its place in the evening, in the same transaction); raises
        `IdempotencyKeyTaken` when its Idempotency-Key already made one.

        `room`, with an evening, is asked in that transaction, once no other creation can join the evening
        before it commits, with the players of each match the evening holds: what it raises refuses the match
        (nothing stored) and reaches the caller as it was raised. So an evening's limits hold however many
        creations arrive at once."""

    @abstractmethod
    def idempotent_match(self, idempotency_key_hash: str) -> dict | None:
        """The row of the match created earlier with this Idempotency-Key (by its hash)."""

    @abstractmethod
    def match_row(self, match_id: str) -> dict:
        """The match's row; raises `UnknownMatch`."""

    @abstractmethod
    def events(self, match_id: str, upto: int | None = None, after: int = 0) -> list[dict]:
        """The log of a match (after event `after`, up to event `upto` when given), oldest first, with their `seq`."""

    @abstractmethod
    def event(self, match_id: str, seq: int) -> dict:
        """One stored event, with its `seq`."""

    @abstractmethod
    def latest_seq(self, match_id: str) -> int:
        """The seq of the match's latest event (0 before the first one); raises `UnknownMatch`."""

    def news(self, match_id: str, after: int) -> tuple[int, list[dict]]:
        """The seq of the match's latest event and the events after event `after` up to it, as one look at the
        log (raises `UnknownMatch`): what a process holding the match as it stood at `after` has to catch up."""
        latest = self.latest_seq(match_id)
        return latest, self.events(match_id, upto=latest, after=after) if latest > after else []

    @abstractmethod
    def latest_seqs(self, match_ids: list[str]) -> dict[str, int]:
        """The latest seq of each of these matches, in as few queries as can be (the streams' look)."""

    @abstractmethod
    def append_event(self, match_id: str, event: dict, idempotency_key: str | None = None,
                     request_hash: str | None = None) -> None:
        """Stores `event` as its `seq`, with its Idempotency-Key record in the same transaction, right after the
        event before it (a log has no gap); raises `SeqTaken`, `Rewritten` or `IdempotencyKeyTaken` (nothing stored),
        `UnknownMatch`."""

    @abstractmethod
    def idempotent_event(self, match_id: str, idempotency_key: str) -> dict | None:
        """The event recorded earlier under this Idempotency-Key: its `seq` and its request's `request_hash`."""

    @abstractmethod
    def create_evening(self, evening_id: str, name: str, currency: str, key_hash: str,
                       idempotency_key_hash: str | None = None, request_hash: str | None = None,
                       club_id: str | None = None) -> None:
        """Stores a new evening (of the club `club_id`, when given); raises `IdempotencyKeyTaken` when its
        Idempotency-Key already made one."""

    @abstractmethod
    def idempotent_evening(self, idempotency_key_hash: str) -> dict | None:
        """The evening created earlier with this Idempotency-Key (by its hash): its `id`, `name`, `currency`,
        `created`, `key_hash` and `request_hash`."""

    @abstractmethod
    def evening_row(self, evening_id: str) -> dict | None:
        """The evening's `id`, `name`, `currency`, `created`, `key_hash` and `club_id` (None for an evening of its
        own); None when there is no such evening."""

    @abstractmethod
    def evening_match_ids(self, evening_id: str) -> list[str]:
        """The ids of the evening's matches, in the order they joined it."""

    @abstractmethod
    def match_evening(self, match_id: str) -> str | None:
        """The id of the evening the match belongs to; None for a match of its own."""

    @abstractmethod
    def evening_key_hash(self, match_id: str) -> str | None:
        """The key hash of the evening the match belongs to; None for a match of its own."""

    # --- clubs (`api.clubs`) ---

    @abstractmethod
    def create_club(self, club_id: str, name: str, currency: str, key_hash: str, read_key_hash: str,
                    idempotency_key_hash: str | None = None, request_hash: str | None = None) -> None:
        """Stores a new club (its rule the default one); raises `IdempotencyKeyTaken` when its Idempotency-Key
        already made one."""

    @abstractmethod
    def idempotent_club(self, idempotency_key_hash: str) -> dict | None:
        """The club created earlier with this Idempotency-Key (by its hash): as `club_row`, with `request_hash`."""

    @abstractmethod
    def club_row(self, club_id: str) -> dict | None:
        """The club's `id`, `name`, `currency`, `created`, `key_hash`, `read_key_hash` and `rule` (JSON text, or
        None for the default); None when there is no such club."""

    @abstractmethod
    def set_club_rule(self, club_id: str, rule: str) -> None:
        """Sets the club's rule for its table (JSON text)."""

    @abstractmethod
    def club_matches(self, club_id: str) -> list[dict]:
        """The matches of the club's evenings: `match_id`, `evening_id`, `evening_created` (the evening's day is
        its first ten characters), `joined` (when the match joined it), in the order they joined."""

    @abstractmethod
    def club_evenings(self, club_id: str) -> list[dict]:
        """The club's evenings: `id`, `name`, `created` and `key_hash`, oldest first."""

    @abstractmethod
    def club_members(self, club_id: str) -> list[dict]:
        """The club's members: `id`, `name`, `created`, `merged_into` (None unless merged into another), oldest
        first."""

    @abstractmethod
    def club_names(self, club_id: str) -> list[dict]:
        """Every name that seats a member of the club: `name` (as `referee.match.same_name` compares names),
        `shown` (as first written) and `member_id`, in the order they were first seated."""

    @abstractmethod
    def seat_members(self, club_id: str, seats: dict[str, tuple[str, str]]) -> None:
        """Makes a member of each name (compared name -> (the name as written, a new member id)) that seats no
        member of the club yet, with it as display name; a name known already is left as it is."""

    @abstractmethod
    def rename_member(self, club_id: str, member_id: str, name: str, shown: str) -> None:
        """Gives the member the display name `shown` (compared as `name`), which from now on seats them too; raises
        `Conflict` when the name seats another member of the club."""

    @abstractmethod
    def merge_members(self, club_id: str, into: str, other: str) -> None:
        """Makes `other` one with `into`: its names seat `into` from now on, `other` is `merged_into` it."""

    @abstractmethod
    def add_payment(self, club_id: str, payment: dict, idempotency_key: str | None = None,
                    request_hash: str | None = None, owed: Callable[[list[dict]], None] | None = None) -> None:
        """Stores a payment marked (`id`, `at`, `from`, `to`, `amount`, `by`); raises `IdempotencyKeyTaken` when
        the club holds a payment under this Idempotency-Key already. `owed`, called in the writing transaction
        with the club's payments as they stand then (as `club_payments` gives them), raises when the payment is
        no longer owed: two marks at once never pay more than was owed."""

    @abstractmethod
    def club_payments(self, club_id: str) -> list[dict]:
        """The club's payments, as `add_payment` stored them, with `request_hash` and `idempotency_key`, in the
        order they were marked."""

    # --- the matches' summaries (`api.clubs`) ---

    @abstractmethod
    def generation(self) -> str:
        """The data's generation as this process noticed it at the request's first look at the store ("" until an
        operator restores, deletes or forgets: `api.admin`): what the process holds in memory was read under it."""

    @abstractmethod
    def match_summaries(self, match_ids: list[str]) -> dict[str, tuple[int, str, str]]:
        """The summaries stored of these matches (`keep_summaries`): match id -> (the seq it was made at, its JSON
        text, the match's players as JSON text), for those that have one."""

    @abstractmethod
    def keep_summaries(self, rows: list[tuple[str, int, str]], generation: str) -> None:
        """Stores (match id, seq, JSON text) rows in one write, each in place of an older one of its match (never
        of a newer one); stores nothing when the data's generation is no longer `generation` (an operator changed
        the data since it was read: what was made of it may hold what they deleted or forgot)."""

    def unconfirmed(self, match_id: str) -> int | None:
        """The seq of an event of the last minutes written without an Idempotency-Key whose answer may have been
        lost (its outcome unknown to the writer: see `api.store.postgres`), if any; a store that always learns the
        outcome of its commits has none."""
        return None

    def listen(self, woken: Callable[[str, int], None]) -> bool:
        """Calls `woken(match_id, seq)` whenever any server logs an event, if the store can tell (False when
        it cannot: then the streams look for new events by themselves)."""
        return False

    def hearing(self) -> bool:
        """Whether every event logged is heard of (through `listen`) just now."""
        return False


# --- what both databases share ---------------------------------------------------------------------

def is_postgresql(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


def current(app: Flask | None = None) -> Store:
    """The store of the app (the current one by default)."""
    return (app or current_app._get_current_object()).extensions[STORE]  # a proxy's lookup costs more


def on_restore(app: Flask, forget: Callable[[], None]) -> None:
    """Calls `forget` in each process whose data was restored (`kibic restore`), before its next request's reads."""
    app.extensions.setdefault(RESTORED, []).append(forget)


def described(database: str) -> str:
    """The database for a log line: a SQLite path, or a PostgreSQL address without its password."""
    if not is_postgresql(database):
        return str(Path(database).absolute())
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(database)
    host = parts.hostname or ""
    netloc = (f"{parts.username}@" if parts.username else "") + host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


_second: tuple[int, str] = (-1, "")  # the latest second `now` wrote, and its text


def now() -> str:
    """The time in UTC to the millisecond, in ISO 8601 (2026-12-01T18:30:22.541+00:00); the text of the second
    is worked out once per second."""
    global _second
    second, millisecond = divmod(time.time_ns() // 1_000_000, 1000)
    known, text = _second
    if second != known:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _second = (second, text)
    return f"{text}.{millisecond:03d}+00:00"


def payload_text(event: dict) -> str:
    """The JSON text the log keeps of an event: all but its seq. Written by orjson (a play is logged at every
    tap), or by the standard library where orjson cannot (a whole number beyond 64 bits)."""
    payload = {key: value for key, value in event.items() if key != "seq"}
    try:
        return orjson.dumps(payload).decode()
    except orjson.JSONEncodeError:
        return json.dumps(payload)


def logged_event(payload: str, seq: int) -> dict:
    """An event as the log keeps it (`payload_text`) read back, with its seq: by orjson, or by the standard library
    where orjson would read otherwise (a whole number beyond 64 bits, which it makes a float) or not at all (a
    lone surrogate, which the standard library wrote escaped)."""
    if not LONG_NUMBER.search(payload):
        try:
            return {**orjson.loads(payload), "seq": seq}
        except orjson.JSONDecodeError:
            pass
    return {**json.loads(payload), "seq": seq}


def header(row: dict) -> dict:
    """A match's header (what `Match.replay` starts from) out of its row."""
    return {"game": row["game"], "players": json.loads(row["players"]), "options": json.loads(row["options"]),
            "stake": row["stake"], "currency": row["currency"]}
