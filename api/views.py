"""The routes: parse the request, ask the engine or `api.matches`, serialise the answer.

Writes need the match's key (`Authorization: Bearer <key>`). Reads do not, but a reader without the key
sees no card of a hand entered for the referee before it is played (`Match.public`); a read that sends
the key gets the hands, and a wrong key is refused (403): a cheap check of a key that records nothing.
A write may carry `expect_seq` (refused with 409 when the log has moved on) and an
`Idempotency-Key` header (a retry returns the first answer and records nothing): `api.matches` keeps that
protocol, `api.keys` the keys. The state of a match
carries the `ETag` `"<id>-<seq>"`: asked again with it in `If-None-Match` while nothing was logged, the
answer is `304` without building the state.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, make_response, request, url_for

from referee import Match, catalogue

from . import bodies, clubs, evenings, keys, limits, matches, qr, schemas, store
from .access import authorize, reader_has_key
from .bodies import whole_number_arg
from .matches import state

bp = Blueprint("api", __name__)

OPENAPI = Path(__file__).with_name("openapi.yaml")


# --- reading ------------------------------------------------------------------------------------

@bp.get("/api/games")
def games():
    return {"games": catalogue()}


@bp.get("/api/matches/<match_id>")
def get_match(match_id: str):
    keyed = reader_has_key(match_id)
    seq = store.current().latest_seq(match_id)
    if request._get_current_object().if_none_match.contains_weak(etag(match_id, seq, keyed)):
        response = Response(status=304)
    else:
        with matches.current_match(match_id, seq) as match:
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


EVENTS_PAGE = 1000  # events per answer at most: a long match's log is read a page at a time


@bp.get("/api/matches/<match_id>/events")
def get_events(match_id: str):
    """The log, `limit` events (at most EVENTS_PAGE) after event `after`; `next` is the `after` of the next page,
    null on the last one."""
    after = whole_number_arg("after", 0, 0, store.LAST_SEQ)
    limit = whole_number_arg("limit", EVENTS_PAGE, 1, EVENTS_PAGE)
    keyed = reader_has_key(match_id)
    with matches.current_match(match_id) as match:
        events = match.events_view(hidden=not keyed, after=after, limit=limit)
        more = bool(events) and events[-1]["seq"] < match.seq
        return private(make_response({"events": events, "next": events[-1]["seq"] if more else None}), keyed)


@bp.get("/api/matches/<match_id>/settlement")
def get_settlement(match_id: str):
    keyed = reader_has_key(match_id)
    with matches.current_match(match_id) as match:
        return private(make_response(match.settlement()), keyed)


@bp.get("/api/matches/<match_id>/qr.svg")
def get_follow_qr(match_id: str):
    """A QR code of the page's follow link, for the other phones at the table to scan.

    The link is built from the configured `PUBLIC_URL`; without one, from the request's host, and then no
    shared cache may keep the code (another request's Host would otherwise be served to everyone).
    """
    store.current().match_row(match_id)
    return qr.follow_qr("Follow the match", m=match_id)


@bp.get("/openapi.yaml")
def openapi():
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


# --- writing ------------------------------------------------------------------------------------

@bp.post("/api/matches")
def create_match():
    """A new match: 201 with its state, id and key. With an Idempotency-Key, a retry gets the same match."""
    idempotency_key = keys.request_idempotency_key(creation=True)
    body = bodies.json_body()
    fields = schemas.load_match(body)
    evening_id = fields.pop("evening", None)
    match = Match.create(**fields)
    evening = evenings.joining(evening_id, match)
    limits.creation()
    answer = matches.create(match, evening, idempotency_key, body, evenings.room(evening, match))
    clubs.seat(evening, match)
    return created(*answer)


def created(match_id: str, match: Match, key: str):
    """201 with the match and its key; no cache along the way may keep the key."""
    location = url_for("api.get_match", match_id=match_id)
    return {**state(match_id, match, keyed=True), "key": key}, 201, {"Location": location, "Cache-Control": "no-store"}


@bp.post("/api/matches/<match_id>/events")
def post_event(match_id: str):
    authorize(match_id)
    body = bodies.json_body()
    command = schemas.load_event(body)
    return matches.record(match_id, "event", body, command, keys.request_idempotency_key()), 201


@bp.post("/api/matches/<match_id>/undo")
def post_undo(match_id: str):
    authorize(match_id)
    body = bodies.json_body(optional=True)
    command = {"type": "undo", **schemas.load_undo(body)}
    return matches.record(match_id, "undo", body, command, keys.request_idempotency_key()), 201
