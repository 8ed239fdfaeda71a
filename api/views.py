"""The routes: parse the request, ask the engine or the store, serialise the answer.

Writes need the match's key (`Authorization: Bearer <key>`). A write may carry `expect_seq` (refused
with 409 when the log has moved on) and an `Idempotency-Key` header (a retry returns the first answer
and records nothing).
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
import secrets
import sqlite3
from pathlib import Path

import segno
from flask import Blueprint, Response, request, url_for

from referee import Match, catalogue

from . import schemas, store
from .errors import BadContentType, BadIdempotencyKey, BadJson, IdempotencyKeyReused, KeyRequired, SeqConflict, WrongKey

bp = Blueprint("api", __name__)

OPENAPI = Path(__file__).with_name("openapi.yaml")
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
lot = secrets.SystemRandom().randrange  # draws the first dealer when the table names none


# --- reading ------------------------------------------------------------------------------------

@bp.get("/api/games")
def games():
    return {"games": catalogue()}


@bp.get("/api/matches/<match_id>")
def get_match(match_id: str):
    return state(match_id, store.load_match(store.get_db(), match_id))


@bp.get("/api/matches/<match_id>/events")
def get_events(match_id: str):
    return {"events": store.load_match(store.get_db(), match_id).events_view()}


@bp.get("/api/matches/<match_id>/settlement")
def get_settlement(match_id: str):
    return store.load_match(store.get_db(), match_id).settlement()


@bp.get("/api/matches/<match_id>/qr.svg")
def get_follow_qr(match_id: str):
    """A QR code of the page's follow link, for the other phones at the table to scan."""
    store.match_row(store.get_db(), match_id)
    link = url_for("webui.index", m=match_id, _external=True)
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                     xmldecl=False, title="Follow the match")
    return Response(svg.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


@bp.get("/openapi.yaml")
def openapi():
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


# --- writing ------------------------------------------------------------------------------------

@bp.post("/api/matches")
def create_match():
    match = Match.create(**schemas.load_match(json_body()))
    match_id, key = store.new_match_id(), store.new_key()
    store.insert_match(store.get_db(), match_id, match.header(), store.hash_key(key))
    location = url_for("api.get_match", match_id=match_id)
    return {**state(match_id, match), "key": key}, 201, {"Location": location}


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
    match = store.load_match(db, match_id)
    if expect_seq is not None and expect_seq != match.seq:
        raise seq_conflict(match_id, match, f"The match is at event {match.seq}, not {expect_seq}: "
                           "something was logged in between. Look at the table again.")
    event, warnings, findings = match.play(command, lot)
    try:
        store.append_event(db, match_id, event, idempotency_key, digest)
    except sqlite3.IntegrityError:
        earlier = idempotency_key and store.idempotent_event(db, match_id, idempotency_key)
        if earlier:
            return first_answer(match_id, earlier, digest)
        message = f"Event {event['seq']} was logged by someone else just now. Look at the table again."
        raise seq_conflict(match_id, store.load_match(db, match_id), message) from None
    return answer(match_id, match, event, warnings, [f.as_dict() for f in findings]), 201


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
    return {"event": event, "warnings": warnings, "findings": findings, "state": state(match_id, match)}


def seq_conflict(match_id: str, match: Match, message: str) -> SeqConflict:
    return SeqConflict(message, {"seq": match.seq, "state": state(match_id, match)})


def state(match_id: str, match: Match) -> dict:
    return {"id": match_id, **match.view()}


# --- the request ----------------------------------------------------------------------------------

def authorize(match_id: str) -> None:
    """The match exists (404) and the request carries its key (401 without one, 403 with another)."""
    row = store.match_row(store.get_db(), match_id)
    scheme, _, key = request.headers.get("Authorization", "").strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise KeyRequired("Changing a match needs its key: send the header Authorization: Bearer <key>.")
    if not store.key_matches(key, row["key_hash"]):
        raise WrongKey("That is not this match's key.")


def json_body(optional: bool = False) -> object:
    """The request's JSON body (None when `optional` and empty); 400 when it is not JSON."""
    data = request.get_data(cache=True)
    if not data.strip():
        if optional:
            return None
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


def request_idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.match(key):
        raise BadIdempotencyKey("An Idempotency-Key is 1 to 200 visible ASCII characters, without spaces.")
    return key


def request_hash(route: str, body: object) -> str:
    canonical = json.dumps({"route": route, "body": body}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()
