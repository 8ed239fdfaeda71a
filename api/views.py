"""The routes: parse the request, ask the engine or the store, serialise the answer.

Writes need the match's key (`Authorization: Bearer <key>`). Reads do not, but a reader without the key
sees no card of a hand entered for the referee before it is played (`Match.public`); a read that sends
the key gets the hands, and a wrong key is refused (403): a cheap check of a key that records nothing.
A write may carry `expect_seq` (refused with 409 when the log has moved on) and an
`Idempotency-Key` header (a retry returns the first answer and records nothing). The state of a match
carries the `ETag` `"<id>-<seq>"`: asked again with it in `If-None-Match` while nothing was logged, the
answer is `304` without building the state.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
import secrets
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import segno
from flask import Blueprint, Response, current_app, make_response, request, url_for

from referee import Match, catalogue

from . import encoding, evenings, schemas, store
from .errors import (
    BadContentType,
    BadIdempotencyKey,
    BadJson,
    CreationRetryExpired,
    IdempotencyKeyReused,
    KeyRequired,
    SeqConflict,
    WrongKey,
)

bp = Blueprint("api", __name__)

OPENAPI = Path(__file__).with_name("openapi.yaml")
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
# A creation key is a secret, so it must look random: a UUID v4 or at least 32 hex digits (with letters,
# digits and 8 distinct characters: 32 random hex digits miss that once in 3 million), or at least 22
# base64url characters (128 bits) with both cases and 11 distinct characters (22 random ones miss that
# once in 50,000, 43 of them, 256 bits, once in 10^9). Counters, timestamps, dates, words, names and
# e-mail addresses do not pass: too few distinct characters, one case only, or punctuation.
UUID_V4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", re.IGNORECASE)
HEX_KEY = re.compile(r"^[0-9a-fA-F]{32,}$")
BASE64URL_KEY = re.compile(r"^[A-Za-z0-9_-]{22,}$")
CREATION_RETRY_WINDOW = timedelta(hours=24)  # a retry after that gets no match key
lot = secrets.SystemRandom().randrange  # draws the first dealer when the table names none


# --- reading ------------------------------------------------------------------------------------

@bp.get("/api/games")
def games():
    return {"games": catalogue()}


@bp.get("/api/matches/<match_id>")
def get_match(match_id: str):
    keyed = reader_has_key(match_id)
    db = store.get_db()
    seq = store.latest_seq(db, match_id)
    if request.if_none_match.contains_weak(etag(match_id, seq, keyed)):
        response = Response(status=304)
    else:
        with store.current_match(db, match_id, seq) as match:
            response = make_response(state(match_id, match, keyed))
        seq = match.seq
    response.set_etag(etag(match_id, seq, keyed))
    return private(response, keyed)


def etag(match_id: str, seq: int, keyed: bool = False) -> str:
    """The state's version: a match's log only grows, so its id and latest seq name one state (one for a
    reader with the key, one for a reader without)."""
    return f"{match_id}-{seq}-key" if keyed else f"{match_id}-{seq}"


def private(response: Response, keyed: bool) -> Response:
    """An answer that depends on the reader's key: always asked again (an ETag saves the body), and no shared
    cache keeps one reader's answer for another."""
    response.vary.add("Authorization")
    response.headers["Cache-Control"] = "private, no-cache" if keyed else "no-cache"
    return response


@bp.get("/api/matches/<match_id>/events")
def get_events(match_id: str):
    keyed = reader_has_key(match_id)
    with store.current_match(store.get_db(), match_id) as match:
        return private(make_response({"events": match.events_view(hidden=not keyed)}), keyed)


@bp.get("/api/matches/<match_id>/settlement")
def get_settlement(match_id: str):
    keyed = reader_has_key(match_id)
    with store.current_match(store.get_db(), match_id) as match:
        return private(make_response(match.settlement()), keyed)


@bp.get("/api/matches/<match_id>/qr.svg")
def get_follow_qr(match_id: str):
    """A QR code of the page's follow link, for the other phones at the table to scan.

    The link is built from the configured `PUBLIC_URL`; without one, from the request's host, and then no
    shared cache may keep the code (another request's Host would otherwise be served to everyone).
    """
    store.match_row(store.get_db(), match_id)
    return follow_qr("Follow the match", m=match_id)


def follow_qr(title: str, **query: str) -> Response:
    """An SVG QR code of the page's link with `query`, from the configured public address when there is one."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        link = f"{public.rstrip('/')}{url_for('webui.index', **query)}"
    else:
        link = url_for("webui.index", _external=True, **query)
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                     xmldecl=False, title=title)
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400" if public else "private, max-age=86400"
    return response


@bp.get("/openapi.yaml")
def openapi():
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


# --- writing ------------------------------------------------------------------------------------

@bp.post("/api/matches")
def create_match():
    """A new match: 201 with its state, id and key. With an Idempotency-Key, a retry gets the same match."""
    idempotency_key = request_idempotency_key(creation=True)
    body = json_body()
    fields = schemas.load_match(body)
    evening_id = fields.pop("evening", None)
    match = Match.create(**fields)
    evening = evenings.joining(evening_id, match)
    if idempotency_key:
        return create_once(idempotency_key, body, match, evening)
    match_id, key = store.new_match_id(), store.new_key()
    evenings.insert_match(evening, store.get_db(), match_id, match.header(), store.hash_key(key))
    return created(match_id, match, key)


def create_once(idempotency_key: str, body: object, match: Match, evening: dict | None = None):
    """Stores the match unless this Idempotency-Key already created one; then answers as the first time."""
    db, key_hash, digest = store.get_db(), store.hash_key(idempotency_key), request_hash("match", body)
    earlier = store.idempotent_match(db, key_hash)
    if earlier is None:
        match_id = store.new_match_id()
        key = store.derived_key(db, idempotency_key, match_id)
        try:
            evenings.insert_match(evening, db, match_id, match.header(), store.hash_key(key), key_hash, digest)
        except sqlite3.IntegrityError:  # the first attempt of this retry was stored just now
            earlier = store.idempotent_match(db, key_hash)
            if earlier is None:
                raise
        else:
            return created(match_id, match, key)
    if not hmac.compare_digest(earlier["request_hash"], digest):
        raise IdempotencyKeyReused("This Idempotency-Key already created a match from a different request.")
    first_id = earlier["id"]
    if datetime.now(UTC) - datetime.fromisoformat(earlier["created"]) > CREATION_RETRY_WINDOW:
        raise CreationRetryExpired("This Idempotency-Key created a match more than 24 hours ago; its key is only "
                                   "given again within 24 hours. Ask the phone that scores it for the key.",
                                   {"id": first_id})
    return created(first_id, Match.replay(store.header(earlier), []), store.derived_key(db, idempotency_key, first_id))


def created(match_id: str, match: Match, key: str):
    """201 with the match and its key; no cache along the way may keep the key."""
    location = url_for("api.get_match", match_id=match_id)
    return {**state(match_id, match, keyed=True), "key": key}, 201, {"Location": location, "Cache-Control": "no-store"}


@bp.post("/api/matches/<match_id>/events")
def post_event(match_id: str):
    authorize(match_id)
    body = json_body()
    return record(match_id, "event", body, schemas.load_event(body))


@bp.post("/api/matches/<match_id>/undo")
def post_undo(match_id: str):
    authorize(match_id)
    body = json_body(optional=True)
    return record(match_id, "undo", body, {"type": "undo", **schemas.load_undo(body)})


def record(match_id: str, route: str, body: object, command: dict):
    """Decides `command` on the match as stored and appends the event: 201 with the event's answer."""
    db = store.get_db()
    idempotency_key = request_idempotency_key()
    digest = request_hash(route, body) if idempotency_key else None
    if idempotency_key:
        earlier = store.idempotent_event(db, match_id, idempotency_key)
        if earlier:
            return first_answer(match_id, earlier, digest)
    expect_seq = command.pop("expect_seq", None)
    try:
        with store.current_match(db, match_id) as match:
            if expect_seq is not None and expect_seq != match.seq:
                raise seq_conflict(match_id, match, f"The match is at event {match.seq}, not {expect_seq}: "
                                   "something was logged in between. Look at the table again.")
            event, warnings, findings = match.play(command, lot)
            store.append_event(db, match_id, event, idempotency_key, digest)
            return answer(match_id, match, event, warnings, [f.as_dict() for f in findings]), 201
    except sqlite3.IntegrityError:  # the match in hand is dropped: it holds an event the log does not
        earlier = idempotency_key and store.idempotent_event(db, match_id, idempotency_key)
        if earlier:
            return first_answer(match_id, earlier, digest)
        message = f"Event {event['seq']} was logged by someone else just now. Look at the table again."
        with store.current_match(db, match_id) as match:
            raise seq_conflict(match_id, match, message) from None


def first_answer(match_id: str, earlier: dict, digest: str):
    """The answer the request with this Idempotency-Key got when its event was recorded."""
    if not hmac.compare_digest(earlier["request_hash"] or "", digest):
        raise IdempotencyKeyReused("This Idempotency-Key was already used for a different request.",
                                   {"seq": earlier["seq"]})
    seq = earlier["seq"]
    db = store.get_db()
    match = store.load_match(db, match_id, upto=seq - 1)
    event = store.event(db, match_id, seq)
    findings = match.record(event, seq)
    return answer(match_id, match, match.log[-1], event.get("warnings", []), [f.as_dict() for f in findings]), 201


def answer(match_id: str, match: Match, event: dict, warnings: list[dict], findings: list[dict]) -> dict:
    return {"event": event, "warnings": warnings, "findings": findings, "state": state(match_id, match, keyed=True)}


def seq_conflict(match_id: str, match: Match, message: str) -> SeqConflict:
    return SeqConflict(message, {"seq": match.seq, "state": state(match_id, match, keyed=True)})


def state(match_id: str, match: Match, keyed: bool) -> dict:
    """The match's state; for a reader without the key (`keyed` false), without the hands still secret."""
    return {"id": match_id, **(match if keyed else match.public()).view(), "history": encoding.history_text(match)}


# --- the request ----------------------------------------------------------------------------------

def reader_has_key(match_id: str) -> bool:
    """Whether a read comes with the match's key: False without an Authorization header, True with the right
    key; a wrong or malformed one is refused as for a write (401, 403), so a phone can check a key with it."""
    if "Authorization" not in request.headers:
        return False
    authorize(match_id, "Send the match's key as Authorization: Bearer <key>, or no Authorization header to read "
                        "the match without its hands.")
    return True


def authorize(match_id: str, no_key: str = "Changing a match needs its key: send the header Authorization: "
                                           "Bearer <key>.") -> None:
    """The match exists (404) and the request carries its key (401 without one, 403 with another)."""
    row = store.match_row(store.get_db(), match_id)
    scheme, _, key = request.headers.get("Authorization", "").strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise KeyRequired(no_key)
    if not store.key_matches(key, row["key_hash"]) and not evenings.key_opens(store.get_db(), match_id, key):
        raise WrongKey("That is not this match's key.")


def json_body(optional: bool = False) -> object:
    """The request's JSON body (an empty object when `optional` and empty); 400 when it is not JSON."""
    data = request.get_data(cache=True)
    if not data.strip():
        if optional:
            return {}
        raise BadJson("The request has no body; send it as JSON.")
    if not request.is_json:
        raise BadContentType("Send the body as JSON, with the header Content-Type: application/json.")
    try:
        body = json.loads(data, parse_constant=reject_constant)
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError) as exc:
        raise BadJson(f"The body is not valid JSON: {str(exc)[:200]}") from None
    return body


def reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def request_idempotency_key(creation: bool = False) -> str | None:
    """The Idempotency-Key header, checked. A creation's key is a secret its match key is derived from: it
    must look random (`looks_random`)."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.match(key):
        raise BadIdempotencyKey("An Idempotency-Key is 1 to 200 visible ASCII characters, without spaces.")
    if creation and not looks_random(key):
        raise BadIdempotencyKey(
            "The Idempotency-Key that creates a match is a secret and must be random: a UUID v4, 32 random hex "
            "digits, or 256 random bits in base64url (43 characters).")
    return key


def looks_random(key: str) -> bool:
    """Whether a creation key is of a random kind (a UUID v4, hex, base64url) with the variety randomness has."""
    if UUID_V4.match(key) or HEX_KEY.match(key):
        digits = key.replace("-", "").lower()
        return len(set(digits)) >= 8 and any(c.isdigit() for c in digits) and any(c.isalpha() for c in digits)
    return bool(BASE64URL_KEY.match(key)) and len(set(key)) >= 11 and any(c.isupper() for c in key) \
        and any(c.islower() for c in key)


def request_hash(route: str, body: object) -> str:
    canonical = json.dumps({"route": route, "body": body}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()
