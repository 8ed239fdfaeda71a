"""Clubs: people across evenings, their figures and ratings, a season's table, and debts carried until paid.

`POST /api/clubs` answers with the club's `id`, its `key` and its `read_key` (shown once; only their hashes are
stored; with an Idempotency-Key, a retry gets the same club and keys, as for an evening: `api.creations`). The read
key is derived from the club's key (`read_key`), so whoever holds the key can always give the read link again
(`GET /api/clubs/{id}` with the key shows it); the read link reads the club and changes nothing.

An evening created with `"club": id` and the club's key belongs to the club and plays in its currency. The people
seated in its matches become the club's **members** (made when first seated: `seat`), a name seating the same member
in every evening (names compared as `referee.match.same_name` compares them). The key renames a member (the new
name seats them too) and merges two members who are one person (the other's names then seat the one kept).

What the club shows is worked out from one summary per match (`referee.club.summarize`), made at the match's
latest seq and made again only when that seq moved: a write to a match costs what it cost before (nothing is done
for the club then), and a read refolds only the matches written since the club was last read, by any process. The
summaries are held at two levels (`Book.summarized`): this process's (`Summaries`), then the store's
(`match_summaries`, `Store.keep_summaries`), which a process just started, or another worker, reads instead of
folding every log; those a read makes are stored in one write. A stored summary names no one: its seats are numbers,
named from the match's players when read (`stored_summary`, `seated`), so a name erased (`kibic forget`) is in none
of them. Each is kept with the data's generation (`Store.generation`), which an operator's restore, deletion or
forget moves: a summary made before it is neither taken nor stored after it, and a deletion takes the match's
summary with it. A read maps the seats' names to members once per name, and reuses what the latest read of the
club mapped while the names that seat the members are the same (`Summaries.mapped`); each evening's money
(`evening_summary`: its nets and fewest transfers) and the ratings (`api.ratings`, per club and range) are kept and
made again only when a match of theirs or the members changed. Club data is answered only with the club's key or
its read key: never with a match's or an evening's key, never to a follow link.
"""

from __future__ import annotations

import base64
import csv
import functools
import hashlib
import hmac
import io
import json
import logging
import secrets
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable

import orjson
from flask import Blueprint, Response, current_app, make_response, request, url_for
from marshmallow import Schema, fields, validate

from referee import InvalidInput, Match
from referee.club import (
    DEFAULT_RULE,
    RATIOS,
    TALLIES,
    check_payment,
    check_range,
    check_rule,
    evening_summary,
    figures,
    finished,
    head_to_head,
    ledger,
    member_matches,
    order_key,
    season_table,
    summarize,
)
from referee.evening import check_evening_name
from referee.games import get_game
from referee.match import MAX_NAME_LENGTH, check_currency, same_name, visible

from . import bodies, creations, keys, limits, matches, store
from .bodies import whole_number_arg
from .encoding import inert
from .errors import ApiError, IdempotencyKeyReused, KeyRequired, WrongKey
from .ratings import Ratings, ordinals

log = logging.getLogger(__name__)
bp = Blueprint("clubs", __name__)

CLUB = creations.Kind("club", "a club", "the phone that started it")
SUMMARIES = "kibic_club_summaries"
SUMMARIES_KEPT = 20_000  # per process: matches' summaries, a few hundred bytes each
RATINGS_KEPT = 64  # per process: clubs' ratings, by range
CLUBS_KEPT = 64  # per process: clubs' summaries with members for seats (the matches' own are shared with them)
EVENINGS_KEPT = 5_000  # per process: evenings' money (nets and fewest transfers), a few hundred bytes each


class ClubNotFound(ApiError):
    "No club has this id"

    status = 404
    code = "club_not_found"


class MemberNotFound(ApiError):
    "The club has no member by this id"

    status = 404
    code = "member_not_found"


class ClubCurrency(ApiError):
    "An evening of a club in another currency than the club's"

    status = 422
    code = "club_currency"


class MemberNameTaken(ApiError):
    "A rename to a name that seats another member of the club"

    status = 409
    code = "member_name_taken"


class MembersPlayedTogether(ApiError):
    "A merge of two members who sat in the same match: they are two people"

    status = 409
    code = "members_played_together"


class NewClubSchema(Schema):
    """POST /api/clubs: the club's name and currency."""

    error_messages = {"type": 'A new club is a JSON object such as {"name": "Friday club", "currency": "PLN"}.'}

    name = fields.String(required=True, validate=validate.Length(max=200))
    currency = fields.String(required=True, validate=validate.Length(max=200))


NEW_CLUB = NewClubSchema()


# --- keys --------------------------------------------------------------------------------------------

def read_key(key: str) -> str:
    """The club's read key, derived from its key: whoever holds the key can give the read link again."""
    digest = hmac.new(key.encode("utf-8", "surrogatepass"), b"kibic club read link", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def read_link(club_id: str, key: str) -> str:
    """The page's link that reads the club: the read key after the `#`, which no browser sends to a server."""
    public = current_app.config.get("PUBLIC_URL")
    path = url_for("webui.index", club=club_id)
    return f"{(public or '').rstrip('/')}{path}#read={read_key(key)}"


def club_row(club_id: str) -> dict:
    row = store.current().club_row(club_id)
    if row is None:
        raise ClubNotFound(f"No club has the id {club_id[:100]!r}.", {"id": club_id[:100]})
    return row


def access(club_id: str, write: bool = False) -> tuple[dict, str | None]:
    """The club (404) and the request's key: its own (the key returned), or, for a read, its read key (None
    returned); 401 without a key, 403 with another (a match's or an evening's key is another)."""
    row = club_row(club_id)
    key = keys.bearer_key()
    if key is None:
        raise KeyRequired("A club is read with its key or its read key, and changed with its key: send the header "
                          "Authorization: Bearer <key>.")
    if keys.key_matches(key, row["key_hash"]):
        return row, key
    if keys.key_matches(key, row["read_key_hash"]):
        if write:
            raise WrongKey("The club's read key only reads the club; changing it needs the club's key.")
        return row, None
    raise WrongKey("That is not this club's key.")


# --- the routes: the club ----------------------------------------------------------------------------

@bp.post("/api/clubs")
def create_club():
    """A new club: 201 with its id, key and read key (shown once). With an Idempotency-Key, a retry gets the same
    club and keys."""
    idempotency_key = keys.request_idempotency_key(creation=True)
    body = bodies.json_body()
    loaded = NEW_CLUB.load(body)
    name = check_club_name(loaded["name"])
    currency = check_currency(loaded["currency"])
    if currency is None:
        raise InvalidInput("bad_currency", "A club needs its currency, a three-letter code such as PLN.")
    limits.creation()
    held = store.current()
    made: dict = {}

    def stores(club_id: str, key_hash: str, idempotency_key_hash: str | None, digest: str | None) -> None:
        held.create_club(club_id, name, currency, key_hash, made["read_key_hash"], idempotency_key_hash, digest)

    # the read key's hash needs the key, which `creations.create` makes: made here as it makes it
    club_id, key = new_club(idempotency_key, body, held, stores, made)
    row = club_row(club_id)
    shown = {**club_header(row), "key": key, "read_key": read_key(key), "read_link": read_link(club_id, key)}
    return shown, 201, {"Location": url_for("clubs.get_club", club_id=club_id), "Cache-Control": "no-store"}


def new_club(idempotency_key: str | None, body: object, held: store.Store, stores, made: dict) -> tuple[str, str]:
    """The club created once per Idempotency-Key (`api.creations`), its read key's hash worked out from its key."""
    if not idempotency_key:
        club_id, key = keys.new_match_id(), keys.new_key()
        made["read_key_hash"] = keys.hash_key(read_key(key))
        stores(club_id, keys.hash_key(key), None, None)
        return club_id, key
    key_hash, digest = keys.hash_key(idempotency_key), keys.request_hash(CLUB.name, body)
    earlier = held.idempotent_club(key_hash)
    if earlier is None:
        club_id = keys.new_match_id()
        key = keys.derived_key(idempotency_key, club_id, kind=CLUB.name)
        made["read_key_hash"] = keys.hash_key(read_key(key))
        try:
            stores(club_id, keys.hash_key(key), key_hash, digest)
            return club_id, key
        except store.IdempotencyKeyTaken:
            earlier = held.idempotent_club(key_hash)
            if earlier is None:
                raise
    first = creations.retried(earlier, digest, CLUB)
    return first, keys.derived_key(idempotency_key, first, kind=CLUB.name, key_hash=earlier["key_hash"])


def check_club_name(name: object) -> str:
    """A club's name, as an evening's (1 to 80 characters, visible, on one line)."""
    try:
        return check_evening_name(name)
    except InvalidInput as exc:
        raise InvalidInput("bad_club_name", exc.message.replace("evening", "club")) from None


@bp.get("/api/clubs/<club_id>")
def get_club(club_id: str):
    """The club with its key or read key: its members, figures, ratings, tables and ledger over `?from=&to=`."""
    row, key = access(club_id)
    start, end = check_range(request.args.get("from"), request.args.get("to"))
    book = Book(row)
    shown = {**club_header(row), "from": start, "to": end, **book.everything(start, end)}
    if key is not None:
        shown["read_link"] = read_link(club_id, key)
    return private(shown)


@bp.put("/api/clubs/<club_id>/rule")
def put_rule(club_id: str):
    """The club's rule for its table (`referee.club.check_rule`), with the club's key; setting it twice is setting
    it once."""
    access(club_id, write=True)
    rule = check_rule(bodies.json_body())
    store.current().set_club_rule(club_id, json.dumps(rule, separators=(",", ":")))
    return private({"rule": rule})


@bp.get("/api/clubs/<club_id>/members/<member_id>")
def get_member(club_id: str, member_id: str):
    """One member: their figures and ratings per game over `?from=&to=`, and the head to head `?with=` another."""
    row, _ = access(club_id)
    start, end = check_range(request.args.get("from"), request.args.get("to"))
    book = Book(row)
    member = book.member(member_id)
    shown = {"member": member, "from": start, "to": end,
             "figures": figures(book.summaries, start, end, [member_id]).get(member_id, {}),
             "ratings": book.ratings(start, end).get(member_id, {})}
    other = request.args.get("with")
    if other is not None:
        book.member(other)
        if other == member_id:
            raise InvalidInput("bad_member", "Head to head is between two members: ?with= names another one.",
                               {"with": other})
        shown["head_to_head"] = head_to_head(book.summaries, member_id, other, start, end)
    return private(shown)


MATCHES_PAGE = 200  # a member's matches per answer at most: a long history is read a page at a time


@bp.get("/api/clubs/<club_id>/members/<member_id>/matches")
def get_member_matches(club_id: str, member_id: str):
    """One member's finished matches over `?from=&to=` (of `?game=` only), the latest first, `limit` of them after
    the first `offset`: each with its day, game, place among how many, points by the club's rule, net money,
    figures and the rating it left (rated over the same range); `next` is the `offset` of the next page, or null."""
    row, _ = access(club_id)
    start, end = check_range(request.args.get("from"), request.args.get("to"))
    game = request.args.get("game")
    if game is not None:
        get_game(game)
    limit = whole_number_arg("limit", 100, 1, MATCHES_PAGE)
    offset = whole_number_arg("offset", 0, 0, store.LAST_SEQ)
    book = Book(row)
    book.member(member_id)
    played = member_matches(book.summaries, member_id, start, end, game, club_header(row)["rule"])
    rated = book.rated(start, end)
    page = [{**each, "rating": rated.rating_after(each["match"], member_id)}
            for each in played[offset:offset + limit]]
    more = offset + limit < len(played)
    return private({"member": member_id, "from": start, "to": end, "game": game, "total": len(played),
                    "matches": page, "next": offset + limit if more else None})


class RenameSchema(Schema):
    error_messages = {"type": 'A rename is a JSON object such as {"name": "Ania"}.'}

    name = fields.String(required=True, validate=validate.Length(max=200))


class MergeSchema(Schema):
    error_messages = {"type": 'A merge is a JSON object such as {"other": "<member id>"}: the other member\'s names '
                              'then seat this one.'}

    other = fields.String(required=True, validate=validate.Length(max=200))


RENAME, MERGE = RenameSchema(), MergeSchema()


@bp.post("/api/clubs/<club_id>/members/<member_id>/rename")
def rename_member(club_id: str, member_id: str):
    """A member's new display name, with the club's key; it seats them from now on, their old names too."""
    row, _ = access(club_id, write=True)
    name = check_member_name(RENAME.load(bodies.json_body())["name"])
    book = Book(row)
    book.member(member_id)
    try:
        store.current().rename_member(club_id, member_id, same_name(name), name)
    except store.Conflict:
        raise MemberNameTaken(f"{name!r} already seats another member of the club; merge the two if they are one "
                              "person.", {"name": name}) from None
    return private(Book(row).member(member_id))


@bp.post("/api/clubs/<club_id>/members/<member_id>/merge")
def merge_members(club_id: str, member_id: str):
    """Two members who are one person, with the club's key: the `other`'s names seat this member from now on, and
    every match and payment of the other is this member's. Merging again is merging once."""
    row, _ = access(club_id, write=True)
    other = MERGE.load(bodies.json_body())["other"]
    book = Book(row)
    kept = book.member(member_id)
    if other == member_id:
        raise InvalidInput("bad_member", "A member is merged with another member, not with themselves.",
                           {"other": other})
    merged = book.merged.get(other)
    if merged == member_id:
        return private(kept)  # merged already: a retry
    book.member(other)
    for summary in book.summaries:
        seated = {player["member"] for player in summary["players"]}
        if member_id in seated and other in seated:
            raise MembersPlayedTogether("The two members sat at the same table in one match: they are two people.",
                                        {"match": summary["match"]})
    store.current().merge_members(club_id, member_id, other)
    return private(Book(row).member(member_id))


class PaymentSchema(Schema):
    error_messages = {"type": 'A payment is a JSON object such as {"from": "<member id>", "to": "<member id>", '
                              '"by": "<member id>", "amount": "2.50"}.'}

    payer = fields.String(required=True, data_key="from", validate=validate.Length(max=200))
    payee = fields.String(required=True, data_key="to", validate=validate.Length(max=200))
    by = fields.String(required=True, validate=validate.Length(max=200))
    amount = fields.String(validate=validate.Length(max=200))


PAYMENT = PaymentSchema()


@bp.post("/api/clubs/<club_id>/payments")
def post_payment(club_id: str):
    """A transfer of the club's ledger marked paid (all of it, or `amount` of it) by the payer or the payee (`by`),
    with the club's key, or with the key of an evening of the club both of them played in. With an
    Idempotency-Key a retry gets the payment it marked, marked once; 201 with the payment (never the ledger: an
    evening's key reads no club data)."""
    row = club_row(club_id)
    body = bodies.json_body()
    loaded = PAYMENT.load(body)
    idempotency_key = keys.request_idempotency_key()
    held = store.current()
    evening_id = payment_key(row)
    digest = keys.request_hash("club payment", body)
    if idempotency_key is not None:
        earlier = idempotent_payment(held, club_id, idempotency_key, digest)
        if earlier is not None:
            return private(earlier, 201)
    book = Book(row)
    wanted = {"from": loaded["payer"], "to": loaded["payee"], "by": loaded["by"]}
    if "amount" in loaded:
        wanted["amount"] = loaded["amount"]
    for member in (wanted["from"], wanted["to"], wanted["by"]):
        book.member(member)
    if evening_id is not None:
        people = {player["member"] for summary in book.summaries if summary["evening"] == evening_id
                  for player in summary["players"]}
        if not {wanted["from"], wanted["to"]} <= people:
            raise WrongKey("An evening's key marks paid only what its own people owe each other; use the club's key.")
    payment = {"id": secrets.token_urlsafe(9), "at": store.now(), **check_payment(book.ledger(), wanted)}

    def owed(rows: list[dict]) -> None:
        """Checked again in the writing transaction, with the payments marked meanwhile: still owed."""
        book.payments = book.shown_payments(rows)
        check_payment(book.ledger(), {**wanted, "amount": payment["amount"]})

    try:
        held.add_payment(club_id, payment, idempotency_key, digest, owed=owed)
    except store.IdempotencyKeyTaken:
        earlier = idempotent_payment(held, club_id, idempotency_key, digest)
        if earlier is None:
            raise
        return private(earlier, 201)
    return private(payment, 201)


def payment_key(row: dict) -> str | None:
    """Whose key marks a payment: the club's (None), or an evening's of the club (its id); 401 and 403 else."""
    key = keys.bearer_key()
    if key is None:
        raise KeyRequired("A payment is marked with the club's key or an evening's key: send the header "
                          "Authorization: Bearer <key>.")
    if keys.key_matches(key, row["key_hash"]):
        return None
    hashed = keys.hash_key(key)
    for evening in store.current().club_evenings(row["id"]):  # one look at the hashes, each compared alike
        if hmac.compare_digest(hashed, evening["key_hash"]):
            return evening["id"]
    raise WrongKey("That is neither this club's key nor the key of one of its evenings.")


def idempotent_payment(held: store.Store, club_id: str, idempotency_key: str, digest: str) -> dict | None:
    for payment in held.club_payments(club_id):
        if payment["idempotency_key"] == idempotency_key:
            if not hmac.compare_digest(payment["request_hash"] or "", digest):
                raise IdempotencyKeyReused("This Idempotency-Key already marked a different payment.")
            return shown_payment(payment)
    return None


def shown_payment(payment: dict) -> dict:
    return {key: payment[key] for key in ("id", "at", "from", "to", "amount", "by")}


@bp.get("/api/clubs/<club_id>/export.json")
def export_json(club_id: str):
    """Everything the club holds, with the club's key: as `GET /api/clubs/{id}` shows it over all days, with every
    match's summary and every payment."""
    row, _ = access(club_id, write=True)
    book = Book(row)
    shown = {**club_header(row), "from": None, "to": None, **book.everything(None, None), "matches": book.summaries,
             "payments": book.payments}
    response = private(shown)
    response.headers["Content-Disposition"] = f'attachment; filename="kibic-club-{club_id[:40]}.json"'
    return response


EXPORT_COLUMNS = ("member", "name", "game", "matches", "wins", "average_place", *TALLIES, "illegal_found",
                  "illegal_let_stand", *RATIOS, "mu", "sigma", "ordinal", "balance")


@bp.get("/api/clubs/<club_id>/export.csv")
def export_csv(club_id: str):
    """The club's figures as a spreadsheet, with the club's key: a row per member and game (their rating in it),
    and the member's balance in the ledger; a name is made inert (`api.encoding.inert`)."""
    row, _ = access(club_id, write=True)
    book = Book(row)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(EXPORT_COLUMNS)
    rated, balances = book.ratings(None, None), book.ledger()["balances"]
    for member_id, games in figures(book.summaries).items():
        name = book.names_shown.get(member_id, "")
        for game, figure in games.items():
            rating = rated.get(member_id, {}).get(game, {})
            cells = {"member": member_id, "name": inert(name), "game": game, **figure, **rating,
                     "balance": balances.get(member_id, "0.00")}
            writer.writerow(["" if cells.get(column) is None else cells[column] for column in EXPORT_COLUMNS])
    response = Response(text.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="kibic-club-{club_id[:40]}.csv"'
    response.headers["Cache-Control"] = "no-store"
    return response


def private(shown: dict, status: int = 200) -> Response:
    """A club's answer: no cache along the way keeps it."""
    response = make_response(shown, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def club_header(row: dict) -> dict:
    return {"id": row["id"], "name": row["name"], "currency": row["currency"], "created": row["created"],
            "rule": json.loads(row["rule"]) if row.get("rule") else dict(DEFAULT_RULE)}


def check_member_name(name: object) -> str:
    """A member's display name, as a player's (1 to 40 characters, visible, on one line)."""
    if isinstance(name, str):
        name = unicodedata.normalize("NFC", name).strip()
        if 1 <= len(name) <= MAX_NAME_LENGTH and any(visible(char) for char in name) \
                and not any(unicodedata.category(char) == "Cc" for char in name):
            return name
    raise InvalidInput("bad_member_name", f"A member's name has 1 to {MAX_NAME_LENGTH} characters on one line, at "
                       "least one of them a letter, a digit or a sign that can be seen.")


# --- what the club holds -----------------------------------------------------------------------------

class Summaries:
    """The matches' summaries this process holds, each with the seq of the match and the data's generation it was
    made at (`Store.generation`: a summary made before an operator's change is never taken after it); their players
    are the seats' names (mapped to members by each read: a rename or a merge changes no summary). The first level
    before the store's (`Book`)."""

    def __init__(self, size: int = SUMMARIES_KEPT):
        self.size = size
        self.kept: OrderedDict[str, tuple[int, str, dict]] = OrderedDict()
        self.ratings: OrderedDict[tuple, tuple[tuple, Ratings, list]] = OrderedDict()
        self.evenings: OrderedDict[tuple, tuple[tuple, dict]] = OrderedDict()
        self.clubs: OrderedDict[str, tuple[dict, dict]] = OrderedDict()
        self.lock = threading.Lock()  # held for a few dictionary steps, which never wait

    def get(self, match_id: str, seq: int, generation: str) -> dict | None:
        with self.lock:
            kept = self.kept.get(match_id)
            if kept is None or kept[0] != seq or kept[1] != generation:
                return None
            self.kept.move_to_end(match_id)
            return kept[2]

    def keep(self, match_id: str, seq: int, generation: str, summary: dict) -> None:
        with self.lock:
            self.kept[match_id] = seq, generation, summary
            self.kept.move_to_end(match_id)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def mapped(self, club_id: str, names: dict[str, str]) -> dict[str, tuple[tuple[int, str], dict]]:
        """The club's summaries as the latest read mapped them to members (match -> ((seq, generation), summary)),
        if the names that seat the members are still `names`; else none."""
        with self.lock:
            held = self.clubs.get(club_id)
            if held is None or held[0] != names:
                return {}
            self.clubs.move_to_end(club_id)
            return held[1]

    def keep_mapped(self, club_id: str, names: dict[str, str], entries: dict[str, tuple[tuple, dict]]) -> None:
        with self.lock:
            self.clubs[club_id] = names, entries
            self.clubs.move_to_end(club_id)
            while len(self.clubs) > CLUBS_KEPT:
                self.clubs.popitem(last=False)

    def evening(self, slot: tuple, mark: tuple, make: Callable[[], dict]) -> dict:
        """An evening's money (`make`), kept under `slot` and made again only when `mark`, what it is made of (its
        matches at their seqs, with their members), changed."""
        with self.lock:
            held = self.evenings.get(slot)
            if held is not None and held[0] == mark:
                self.evenings.move_to_end(slot)
                return held[1]
        made = make()
        with self.lock:
            self.evenings[slot] = mark, made
            self.evenings.move_to_end(slot)
            while len(self.evenings) > EVENINGS_KEPT:
                self.evenings.popitem(last=False)
        return made

    def forget(self) -> None:
        with self.lock:
            self.kept.clear()
            self.ratings.clear()
            self.evenings.clear()
            self.clubs.clear()


def summaries() -> Summaries:
    return current_app.extensions[SUMMARIES]


def stored_summary(summary: dict, players: list[str]) -> str:
    """A summary as the store keeps it: its seats by number, not by name (`seated`), so that it names no one."""
    seats = {name: seat for seat, name in enumerate(players)}
    return orjson.dumps({**summary, "players": [{**{key: value for key, value in player.items() if key != "member"},
                                                 "seat": seats[player["member"]]}
                                                for player in summary["players"]]}).decode()


def seated(text: str, players: str) -> dict:
    """A summary the store kept (`stored_summary`), its seats named by the match's players as they are now."""
    names, summary = orjson.loads(players), orjson.loads(text)
    for player in summary["players"]:
        player["member"] = names[player.pop("seat")]
    return summary


class Book:
    """A club as it stands: its members, and its matches' summaries with members for seats (made members when a
    seat's name is new to the club: `seat`)."""

    def __init__(self, row: dict):
        self.row = row
        held = store.current()
        self.kept = summaries()  # this process's, held: `ledger` is asked again in the store's writing thread
        self.club_id = row["id"]
        self.generation = generation = held.generation()  # before anything is read: what is made of it is kept
        self.evenings = held.club_evenings(self.club_id)
        found = held.club_matches(self.club_id)
        seqs = held.latest_seqs([each["match_id"] for each in found])
        made = self.summarized(held, found, seqs, generation)
        self.marks = tuple((summary["match"], seq) for seq, summary in made)
        self.summaries = self.mapped(held, made)
        self.payments = self.shown_payments(held.club_payments(self.club_id))

    def mapped(self, held: store.Store, made: list[tuple[int, dict]]) -> list[dict]:
        """The summaries with members for seats: as an earlier read mapped them when the names that seat the members
        are the same (`Summaries.mapped`), else mapped now, each seat's name compared once (a name new to the club
        makes a member: seated before this process seated them, `seat` at the match's creation did not finish)."""
        kept = self.kept
        for _ in range(2):  # once more after seating the names new to the club
            names = self.names(held)
            earlier = kept.mapped(self.club_id, names)
            fresh = [summary for seq, summary in made
                     if earlier.get(summary["match"], (None,))[0] != (seq, self.generation)]
            compared: dict[str, str] = {}
            for summary in fresh:
                for player in summary["players"]:
                    if player["member"] not in compared:
                        compared[player["member"]] = same_name(player["member"])
            new = {}
            for name, key in compared.items():
                if key not in names and key not in new:
                    new[key] = (name, new_member_id())
            if not new:
                break
            held.seat_members(self.club_id, new)
        member = {name: names[key] for name, key in compared.items()}
        shown, entries = [], {}
        for seq, summary in made:
            entry = earlier.get(summary["match"])
            if entry is None or entry[0] != (seq, self.generation):
                entry = (seq, self.generation), {**summary, "players": [{**player, "member": member[player["member"]]}
                                                                        for player in summary["players"]]}
            entries[summary["match"]] = entry
            shown.append(entry[1])
        kept.keep_mapped(self.club_id, names, entries)
        return shown

    def summarized(self, held: store.Store, found: list[dict], seqs: dict[str, int],
                   generation: str) -> list[tuple[int, dict]]:
        """(seq, summary) of each match of the club: this process's (`Summaries`), else the store's made at the
        match's latest seq, else made now from the match (and stored, in one write): a read refolds only the matches
        written since the club was last read, by any process."""
        kept = self.kept
        made: dict[str, tuple[int, dict]] = {}
        for each in found:
            match_id = each["match_id"]
            summary = kept.get(match_id, seqs.get(match_id, 0), generation)
            if summary is not None:
                made[match_id] = seqs.get(match_id, 0), summary
        missing = [each for each in found if each["match_id"] not in made]
        if missing:
            stored = held.match_summaries([each["match_id"] for each in missing])
            new = []
            for each in missing:
                match_id, seq = each["match_id"], seqs.get(each["match_id"], 0)
                if match_id in stored and stored[match_id][0] == seq:
                    summary = seated(*stored[match_id][1:])
                else:
                    with matches.current_match(match_id, latest=seq) as match:
                        seq = match.seq
                        summary = summarize(match, match.players, match_id=match_id,
                                            date=each["evening_created"][:10], at=each["joined"],
                                            evening=each["evening_id"])
                        new.append((match_id, seq, stored_summary(summary, match.players)))
                kept.keep(match_id, seq, generation, summary)
                made[match_id] = seq, summary
            if new:
                keep_summaries(held, new, generation)
        return [made[each["match_id"]] for each in found]

    def shown_payments(self, rows: list[dict]) -> list[dict]:
        """The payments as stored, each member as the one they are now (after merges)."""
        return [{**shown_payment(payment), "from": self.live(payment["from"]), "to": self.live(payment["to"]),
                 "by": self.live(payment["by"])} for payment in rows]

    def names(self, held: store.Store) -> dict[str, str]:
        """Compared name -> member; the members, their names shown and aliases, and who was merged into whom."""
        rows = held.club_names(self.club_id)
        members = held.club_members(self.club_id)
        self.merged = {member["id"]: member["merged_into"] for member in members if member["merged_into"]}
        self.names_shown = {member["id"]: member["name"] for member in members if not member["merged_into"]}
        aliases: dict[str, list[str]] = {member: [] for member in self.names_shown}
        for each in rows:
            owner = each["member_id"]
            if owner in aliases and each["shown"] != self.names_shown[owner] and each["shown"] not in aliases[owner]:
                aliases[owner].append(each["shown"])
        order = list(dict.fromkeys(each["member_id"] for each in rows if each["member_id"] in aliases))
        self.members = [{"id": member, "name": self.names_shown[member], "aliases": aliases[member]}
                        for member in order + [member for member in aliases if member not in order]]
        self.mapping = {each["name"]: each["member_id"] for each in rows}
        return self.mapping

    def live(self, member_id: str) -> str:
        return self.merged.get(member_id, member_id)

    def member(self, member_id: str) -> dict:
        found = next((member for member in self.members if member["id"] == member_id), None)
        if found is None:
            raise MemberNotFound(f"The club has no member {member_id[:100]!r}.", {"member": member_id[:100]})
        return found

    def ratings(self, start: str | None, end: str | None) -> dict:
        """Member -> game -> rating over the range (`rated`)."""
        return self.rated(start, end).shown()

    def rated(self, start: str | None, end: str | None) -> Ratings:
        """The ratings over the range, rated again only when a finished match in it or the members changed (and by
        the new matches alone when they come after every match rated: `Ratings.add`)."""
        rated = sorted(finished(self.summaries, start, end), key=order_key)
        seqs = dict(self.marks)
        mark = tuple((summary["match"], seqs[summary["match"]]) for summary in rated)
        mapping = tuple(sorted(self.mapping.items()))
        kept = self.kept
        slot = (self.club_id, start, end)
        with kept.lock:
            held = kept.ratings.get(slot)
        if held is not None and held[0] == mark and held[2] == mapping:
            return held[1]
        if held is not None and held[2] == mapping and mark[:len(held[0])] == held[0]:
            book = held[1]  # the matches rated before, then the new ones after them
            for summary in rated[len(held[0]):]:
                book.add(summary)
        else:
            book = Ratings()
            for summary in rated:
                book.add(summary)
        with kept.lock:
            kept.ratings[slot] = (mark, book, mapping)
            kept.ratings.move_to_end(slot)
            while len(kept.ratings) > RATINGS_KEPT:
                kept.ratings.popitem(last=False)
        return book

    def ledger(self) -> dict:
        by_evening: dict[str, list] = {}
        for summary, (_, seq) in zip(self.summaries, self.marks, strict=True):
            by_evening.setdefault(summary["evening"], []).append((seq, summary))
        kept = self.kept
        nights = []
        for evening in self.evenings:
            played = by_evening.get(evening["id"], [])
            mark = (self.generation, *((summary["match"], seq, *(player["member"] for player in summary["players"]))
                                      for seq, summary in played))
            nights.append(kept.evening((self.club_id, evening["id"]), mark, functools.partial(
                evening_summary, evening["id"], evening["created"][:10], evening["created"],
                [summary for _, summary in played])))
        return ledger(nights, self.payments)

    def everything(self, start: str | None, end: str | None) -> dict:
        rule = json.loads(self.row["rule"]) if self.row.get("rule") else DEFAULT_RULE
        rated = self.ratings(start, end)
        by_game: dict[str, list] = {}
        for summary in self.summaries:
            by_game.setdefault(summary["game"], []).append(summary)
        tables = {game: season_table(by_game[game], rule, start, end, game, ratings=ordinals(rated, game))
                  for game in sorted(by_game)}
        overall = None if rule["by"] == "rating" else season_table(self.summaries, rule, start, end)
        return {"members": self.members, "evenings": [evening["id"] for evening in self.evenings],
                "figures": figures(self.summaries, start, end), "ratings": rated, "table": overall,
                "tables": {game: table for game, table in tables.items() if table}, "ledger": self.ledger()}


def new_member_id() -> str:
    return secrets.token_urlsafe(6)


def keep_summaries(held: store.Store, rows: list[tuple[str, int, str]], generation: str) -> None:
    """The summaries made by a read, stored for the next ones; a store out of order or busy costs them (made again
    by the next read), not this read."""
    try:
        held.keep_summaries(rows, generation)
    except (store.Busy, store.Unavailable, store.OutcomeUnknown) as exc:
        log.warning("%d match summaries not stored (made again at the next read): %s", len(rows), exc)


# --- hooks for the evenings and the matches ----------------------------------------------------------

def evening_club(club_id: str | None, currency: str) -> str | None:
    """The club a new evening joins (None for an evening of its own), checked: the club exists (404), the request
    carries its key (401, 403) and the evening plays in its currency (422 `club_currency`)."""
    if club_id is None:
        return None
    row, _ = access(club_id, write=True)
    if currency != row["currency"]:
        raise ClubCurrency(f"The club plays in {row['currency']}; its evenings cannot be in {currency}.",
                           {"currency": row["currency"]})
    return club_id


def seat(evening: dict | None, match: Match) -> None:
    """Makes members of the people of a new match of a club's evening whose names are new to the club."""
    if evening is None or not evening.get("club_id"):
        return
    held = store.current()
    known = {each["name"] for each in held.club_names(evening["club_id"])}
    new = {same_name(name): (name, new_member_id()) for name in match.players if same_name(name) not in known}
    if new:
        held.seat_members(evening["club_id"], new)


def install(app) -> None:
    app.extensions[SUMMARIES] = kept = Summaries()
    store.on_restore(app, kept.forget)
