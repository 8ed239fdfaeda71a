"""Game nights: an evening of several matches at one table, settled once (`referee.evening`).

`POST /api/evenings` answers with the evening's `id` and `key` (shown once; only its hash is stored; with an
Idempotency-Key, a retry gets the same evening and key, as for a match: `api.matches`). A
match created with `"evening": id` and that key (`Authorization: Bearer`) belongs to the evening and takes
its currency; the evening's key then writes to it as the match's own key does. `GET /api/evenings/{id}`
needs no key: it shows no card, and each match is read as a reader without the key sees it. An evening created
with `"club": id` and the club's key belongs to the club (`api.clubs`); nothing of the club shows here.
"""

from __future__ import annotations

import csv
import io
from collections import OrderedDict

from flask import Blueprint, Response, current_app, make_response, url_for
from marshmallow import Schema, fields, validate

from referee import InvalidInput, Match
from referee.evening import MAX_MATCHES, MAX_PEOPLE, check_evening_name, evening, figures_rows, people_count
from referee.match import check_currency

from . import bodies, clubs, creations, keys, limits, loop, matches, qr, store
from .encoding import inert
from .errors import ApiError, KeyRequired, WrongKey

bp = Blueprint("evenings", __name__)


class EveningNotFound(ApiError):
    "No evening has this id"

    status = 404
    code = "evening_not_found"


class EveningCurrency(ApiError):
    "A match of an evening in another currency than the evening's"

    status = 422
    code = "evening_currency"


class EveningFull(ApiError):
    "An evening with as many matches or people as it can settle"

    status = 422
    code = "evening_full"


class NewEveningSchema(Schema):
    """POST /api/evenings: the evening's name and currency."""

    error_messages = {"type": 'A new evening is a JSON object such as {"name": "Friday", "currency": "PLN"}.'}

    name = fields.String(required=True, validate=validate.Length(max=200))
    currency = fields.String(required=True, validate=validate.Length(max=200))
    club = fields.String(validate=validate.Length(max=200))


NEW_EVENING = NewEveningSchema()


# --- the routes ------------------------------------------------------------------------------------

@bp.post("/api/evenings")
def create_evening():
    """A new evening: 201 with its id, key and (empty) standing. With an Idempotency-Key, a retry gets the same
    evening and key, as a match's creation does."""
    idempotency_key = keys.request_idempotency_key(creation=True)
    body = bodies.json_body()
    fields = NEW_EVENING.load(body)
    name = check_evening_name(fields["name"])
    currency = check_currency(fields["currency"])
    if currency is None:
        raise InvalidInput("bad_currency", "An evening needs its currency, a three-letter code such as PLN.")
    club_id = clubs.evening_club(fields.get("club"), currency)
    limits.creation()
    held = store.current()

    def stores(evening_id: str, key_hash: str, idempotency_key_hash: str | None, digest: str | None) -> None:
        held.create_evening(evening_id, name, currency, key_hash, idempotency_key_hash, digest, club_id)

    evening_id, key, _ = creations.create(creations.EVENING, idempotency_key, body, stores, held.idempotent_evening)
    location = url_for("evenings.get_evening", evening_id=evening_id)
    return {**standing(evening_id), "key": key}, 201, {"Location": location, "Cache-Control": "no-store"}


@bp.get("/api/evenings/<evening_id>")
def get_evening(evening_id: str):
    response = make_response(standing(evening_id))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/evenings/<evening_id>/figures.csv")
def get_evening_figures(evening_id: str):
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\r\n")
    for row in figures_rows(standing(evening_id)):
        writer.writerow([*row[:2], inert(row[2]), *row[3:]])  # only a name is the players' own text
    response = Response(text.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="kibic-evening-{evening_id[:40]}.csv"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/evenings/<evening_id>/qr.svg")
def get_evening_qr(evening_id: str):
    """A QR code of the page's link to the evening (`/?e=<id>`), built as the match's follow code is."""
    evening_row(evening_id)
    return qr.follow_qr("Follow the evening", e=evening_id)


@bp.get("/api/matches/<match_id>/figures")
def get_match_figures(match_id: str):
    """One match's figures per player, as in an evening."""
    with matches.current_match(match_id) as match:
        summary = evening([(match_id, match.public())])
    response = make_response(summary["matches"][0])
    response.headers["Cache-Control"] = "no-cache"
    return response


# --- the evening as it stands ----------------------------------------------------------------------

def evening_row(evening_id: str) -> dict:
    row = store.current().evening_row(evening_id)
    if row is None:
        raise EveningNotFound(f"No evening has the id {evening_id[:100]!r}.", {"id": evening_id[:100]})
    return row


STANDINGS = "kibic_evenings"
STANDINGS_KEPT = 256  # per process: the evenings read lately, each as it stood at its matches' latest events


class Standings:
    """The evenings this process read lately, each with the seqs of its matches it was worked out at: a read
    of an evening whose matches have not moved since costs one look at their latest seqs, not a fold of each
    match and a new settlement (which, searched for the fewest transfers, is the costly part)."""

    def __init__(self, size: int = STANDINGS_KEPT):
        self.size = size
        self.kept: OrderedDict[str, tuple[tuple, dict]] = OrderedDict()
        self.lock = loop.real_lock()  # held for a few dictionary steps, which never wait

    def get(self, evening_id: str, mark: tuple) -> dict | None:
        with self.lock:
            kept = self.kept.get(evening_id)
            if kept is None or kept[0] != mark:
                return None
            self.kept.move_to_end(evening_id)
            return kept[1]

    def keep(self, evening_id: str, mark: tuple, shown: dict) -> None:
        with self.lock:
            self.kept[evening_id] = mark, shown
            self.kept.move_to_end(evening_id)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)


def standing(evening_id: str) -> dict:
    """The evening: its matches as readers without a key see them, its people, nets, figures and transfers;
    worked out once per change of any of its matches (`Standings`)."""
    row = evening_row(evening_id)
    held = store.current()
    ids = held.evening_match_ids(evening_id)
    seqs = held.latest_seqs(ids)
    mark = tuple((match_id, seqs.get(match_id, 0)) for match_id in ids)
    standings = current_app.extensions[STANDINGS]
    shown = standings.get(evening_id, mark)
    if shown is None:
        played = []
        for match_id, seq in mark:
            with matches.current_match(match_id, latest=seq) as match:
                played.append((match_id, match.public()))
        shown = {"id": row["id"], "name": row["name"], "currency": row["currency"], "created": row["created"],
                 **evening(played)}
        standings.keep(evening_id, mark, shown)
    return shown


def install(app) -> None:
    app.extensions[STANDINGS] = Standings()


# --- hooks for the match routes --------------------------------------------------------------------

def joining(evening_id: str | None, match: Match) -> dict | None:
    """The evening a new match joins (None for a match of its own), checked: the evening exists (404), the
    request carries its key (401, 403) and the match plays in its currency (taken when the match names none,
    422 when it names another). Whether it has room for the match is `room`'s, asked only when the match is
    not a retry's (a retry gets the match it created, even into an evening full since)."""
    if evening_id is None:
        return None
    row = evening_row(evening_id)
    key = keys.bearer_key()
    if key is None:
        raise KeyRequired("A match of an evening is started with the evening's key: send the header "
                          "Authorization: Bearer <key>.")
    if not keys.key_matches(key, row["key_hash"]):
        raise WrongKey("That is not this evening's key.")
    if match.currency is None:
        match.currency = row["currency"]
    elif match.currency != row["currency"]:
        raise EveningCurrency(f"The evening is played in {row['currency']}; its matches cannot be in "
                              f"{match.currency}.", {"currency": row["currency"]})
    return row


def room(evening: dict | None, match: Match) -> store.Room | None:
    """The evening's room for a new match (None for a match of its own), which the store asks in the transaction
    that adds the match, with the players of the matches the evening holds: it refuses (422 `evening_full`) one
    match too many, or its people with the evening's more than it settles among."""
    if evening is None:
        return None

    def check(tables: list[list[str]]) -> None:
        if len(tables) >= MAX_MATCHES:
            raise EveningFull(f"An evening holds at most {MAX_MATCHES} matches; start another evening.",
                              {"matches": MAX_MATCHES})
        if people_count([*tables, match.players]) > MAX_PEOPLE:
            raise EveningFull(f"An evening is settled among at most {MAX_PEOPLE} people; start another evening "
                              "for the others.", {"people": MAX_PEOPLE})

    return check
