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

import io
import json
import math
import re
from pathlib import Path

import orjson
import segno
from flask import Blueprint, Response, current_app, make_response, request, url_for

from referee import InvalidInput, Match, catalogue

from . import bodies, evenings, keys, limits, matches, schemas, store
from .errors import BadContentType, BadJson
from .keys import authorize, reader_has_key
from .matches import state

bp = Blueprint("api", __name__)

OPENAPI = Path(__file__).with_name("openapi.yaml")
# In a body, what orjson would read otherwise than written: a whole number beyond 64 bits (`store.LONG_NUMBER`),
# or a number with an exponent, which may lie beyond a float's range (1e-400 read as 0, 1e400 as infinity)
LONG_NUMBER = re.compile(store.LONG_NUMBER.pattern.encode() + rb"|\d[eE]")


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


def whole_number_arg(name: str, default: int, least: int, most: int) -> int:
    """A query argument that is a whole number from `least` to `most` (`default` when not given); else 422."""
    text = request.args.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and least <= int(text) <= most):
        raise InvalidInput("invalid_input", f"{name} is a whole number from {least} to {most}.",
                           {name: text[:40]})
    return int(text)


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
    idempotency_key = keys.request_idempotency_key(creation=True)
    body = json_body()
    fields = schemas.load_match(body)
    evening_id = fields.pop("evening", None)
    match = Match.create(**fields)
    evening = evenings.joining(evening_id, match)
    limits.creation()
    return created(*matches.create(match, evening, idempotency_key, body, evenings.room(evening, match)))


def created(match_id: str, match: Match, key: str):
    """201 with the match and its key; no cache along the way may keep the key."""
    location = url_for("api.get_match", match_id=match_id)
    return {**state(match_id, match, keyed=True), "key": key}, 201, {"Location": location, "Cache-Control": "no-store"}


@bp.post("/api/matches/<match_id>/events")
def post_event(match_id: str):
    authorize(match_id)
    body = json_body()
    command = schemas.load_event(body)
    return matches.record(match_id, "event", body, command, keys.request_idempotency_key()), 201


@bp.post("/api/matches/<match_id>/undo")
def post_undo(match_id: str):
    authorize(match_id)
    body = json_body(optional=True)
    command = {"type": "undo", **schemas.load_undo(body)}
    return matches.record(match_id, "undo", body, command, keys.request_idempotency_key()), 201


# --- the request ----------------------------------------------------------------------------------

def json_body(optional: bool = False) -> object:
    """The request's JSON body (an empty object when `optional` and empty); 400 when it is not JSON."""
    asked = request._get_current_object()  # the request itself: each use of the proxy looks it up again
    data = bodies.body(asked)
    if not data.strip():
        if optional:
            return {}
        raise BadJson("The request has no body; send it as JSON.")
    # a phone sends exactly application/json; any other Content-Type is parsed to know whether it is JSON too
    if asked.environ.get("CONTENT_TYPE") != "application/json" and not asked.is_json:
        raise BadContentType("Send the body as JSON, with the header Content-Type: application/json.")
    if not LONG_NUMBER.search(data):
        try:
            return orjson.loads(data)  # strict JSON in UTF-8, without lone surrogates, NaN or Infinity
        except orjson.JSONDecodeError:
            pass  # the standard library's reading says what is wrong (or reads what orjson does not: a BOM)
    try:
        body = json.loads(data, parse_constant=reject_constant, parse_float=float_in_range)
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError) as exc:
        raise BadJson(f"The body is not valid JSON: {str(exc)[:200]}") from None
    return body


def reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def float_in_range(text: str) -> float:
    """A JSON number with a fraction or an exponent, unless it lies beyond what a float holds (read as 0 or as
    infinity, it would be taken for another number)."""
    value = float(text)
    if math.isinf(value) or (value == 0 and any(digit in "123456789" for digit in text.partition("e")[0]
                                                 .partition("E")[0])):
        raise ValueError(f"the number {text[:40]} is too {'large' if value else 'small'} to be read exactly")
    return value
