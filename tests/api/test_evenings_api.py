"""Evenings over the API: a key of their own that starts and writes their matches, one currency, one
settlement for the whole evening, and figures as JSON and CSV."""

from __future__ import annotations

import csv
import io
import secrets
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from conftest import dump, stored

from api import keys, store

pytestmark = pytest.mark.both_stores


def new_evening(client, name="Friday", currency="PLN") -> dict:
    response = client.post("/api/evenings", json={"name": name, "currency": currency})
    assert response.status_code == 201, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


def new_match(client, evening: dict | None, players, expect=201, key=None, **fields) -> dict:
    body = {"game": "ogorek", "players": players, **fields}
    headers = {}
    if evening is not None:
        body["evening"] = evening["id"]
        headers["Authorization"] = f"Bearer {key or evening['key']}"
    response = client.post("/api/matches", json=body, headers=headers)
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def penalty(client, match_id: str, seat: int, key: str, points=22, expect=201) -> dict:
    response = client.post(f"/api/matches/{match_id}/events", json={"type": "penalty", "seat": seat, "points": points},
                           headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def read(client, evening: dict) -> dict:
    response = client.get(f"/api/evenings/{evening['id']}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_new_evening_has_an_id_a_key_and_nothing_to_settle(client):
    evening = new_evening(client, "  Piątek u Ewy ", "pln")
    assert evening["name"] == "Piątek u Ewy" and evening["currency"] == "PLN"
    assert len(evening["key"]) >= 43 and evening["key"] != evening["id"]
    shown = read(client, evening)
    assert "key" not in shown
    assert (shown["matches"], shown["people"], shown["transfers"], shown["final"]) == ([], [], [], False)


def test_the_key_is_stored_only_as_its_hash(app, client):
    evening = new_evening(client)
    from api import keys

    [row] = stored(app, "SELECT key_hash FROM evenings WHERE id = ?", [evening["id"]])
    assert row[0] == keys.hash_key(evening["key"]) and evening["key"] not in row[0]


def test_people_nets_and_fewest_transfers_over_the_whole_evening(client):
    evening = new_evening(client)
    first = new_match(client, evening, ["Ann", "Bob", "Cid"], stake="1")
    penalty(client, first["id"], 2, first["key"])  # Cid out first
    penalty(client, first["id"], 1, first["key"])  # then Bob: Ann wins
    second = new_match(client, evening, ["cid", "BOB", "ann"], stake="1")  # new seats, names written otherwise
    penalty(client, second["id"], 2, evening["key"])  # ann out first: written with the evening's key
    penalty(client, second["id"], 1, second["key"])  # then BOB: cid wins
    shown = read(client, evening)
    assert [m["id"] for m in shown["matches"]] == [first["id"], second["id"]]
    assert [p["name"] for p in shown["people"]] == ["Ann", "Bob", "Cid"]
    assert {p["name"]: p["net"] for p in shown["people"]} == {"Ann": "2.00", "Bob": "-4.00", "Cid": "2.00"}
    assert sum(Decimal(p["net"]) for p in shown["people"]) == 0
    assert shown["transfers"] == [{"from": "Bob", "to": "Ann", "amount": "2.00"},
                                  {"from": "Bob", "to": "Cid", "amount": "2.00"}]
    assert shown["final"] is True


def test_a_match_being_played_counts_as_if_stopped_now_and_says_so(client):
    evening = new_evening(client)
    match = new_match(client, evening, ["Ann", "Bob", "Cid"], stake="0.50")
    penalty(client, match["id"], 0, match["key"])
    shown = read(client, evening)
    assert shown["final"] is False
    assert (shown["matches"][0]["final"], shown["matches"][0]["status"]) == (False, "playing")
    assert [p["net"] for p in shown["people"]] == ["-2.00", "1.00", "1.00"]


def test_a_match_of_an_evening_takes_its_currency_and_refuses_another(client):
    evening = new_evening(client, currency="EUR")
    assert new_match(client, evening, ["Ann", "Bob"])["currency"] == "EUR"
    assert new_match(client, evening, ["Ann", "Bob"], currency="eur")["currency"] == "EUR"
    refused = new_match(client, evening, ["Ann", "Bob"], expect=422, currency="PLN")
    assert refused["error"]["code"] == "evening_currency" and refused["error"]["details"] == {"currency": "EUR"}
    assert len(read(client, evening)["matches"]) == 2


@pytest.mark.parametrize(("key", "status", "code"), [("", 401, "key_required"), ("not-the-key", 403, "wrong_key")])
def test_joining_an_evening_needs_its_key(client, key, status, code):
    evening = new_evening(client)
    other = new_evening(client)
    body = {"game": "ogorek", "players": ["Ann", "Bob"], "evening": evening["id"]}
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = client.post("/api/matches", json=body, headers=headers)
    assert (response.status_code, response.get_json()["error"]["code"]) == (status, code)
    refused = new_match(client, evening, ["Ann", "Bob"], expect=403, key=other["key"])
    assert refused["error"]["code"] == "wrong_key"
    assert read(client, evening)["matches"] == []


def test_an_unknown_evening_is_404_and_creates_no_match(client, app):
    response = client.post("/api/matches", json={"game": "ogorek", "players": ["A", "B"], "evening": "nope"},
                           headers={"Authorization": "Bearer whatever"})
    assert (response.status_code, response.get_json()["error"]["code"]) == (404, "evening_not_found")
    assert client.get("/api/evenings/nope").get_json()["error"]["code"] == "evening_not_found"
    assert stored(app, "SELECT count(*) FROM matches")[0][0] == 0


def test_the_evening_key_writes_and_reads_its_matches_only(client):
    evening, other = new_evening(client), new_evening(client)
    match = new_match(client, evening, ["Ann", "Bob"])
    alone = client.post("/api/matches", json={"game": "ogorek", "players": ["Ann", "Bob"]}).get_json()
    penalty(client, match["id"], 0, evening["key"], points=3)
    penalty(client, match["id"], 1, match["key"], points=4)  # the match's own key still works
    assert penalty(client, match["id"], 0, other["key"], expect=403)["error"]["code"] == "wrong_key"
    assert penalty(client, alone["id"], 0, evening["key"], expect=403)["error"]["code"] == "wrong_key"
    keyed = client.get(f"/api/matches/{match['id']}", headers={"Authorization": f"Bearer {evening['key']}"})
    assert keyed.status_code == 200 and keyed.headers["ETag"].endswith('-key"')
    undo = client.post(f"/api/matches/{match['id']}/undo", headers={"Authorization": f"Bearer {evening['key']}"})
    assert undo.status_code == 201
    assert [p["score"] for p in undo.get_json()["state"]["players"]] == [3, 0]


def test_an_evening_is_settled_among_at_most_twelve_people(client):
    evening = new_evening(client)
    for first in range(0, 12, 4):
        new_match(client, evening, [f"P{n}" for n in range(first, first + 4)])
    refused = new_match(client, evening, ["P0", "P13"], expect=422)
    assert refused["error"]["code"] == "evening_full"
    new_match(client, evening, ["P0", "p11"])  # the same people again: fine


def test_an_evening_shows_no_hidden_card(client):
    evening = new_evening(client)
    match = new_match(client, evening, ["S", "W", "N", "E"])
    hands = {"0": ["A", "9", "9", "7", "6", "2"], "1": ["K", "K", "7", "6", "4", "3"],
             "2": ["Q", "Q", "10", "5", "5", "2"], "3": ["Q", "9", "9", "8", "7", "3"]}
    response = client.post(f"/api/matches/{match['id']}/events", json={"type": "deal", "dealer": 0, "hands": hands},
                           headers={"Authorization": f"Bearer {evening['key']}"})
    assert response.status_code == 201
    text = client.get(f"/api/evenings/{evening['id']}").get_data(as_text=True)
    assert '"hands"' not in text and '"K"' not in text and '"Q"' not in text


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"name": "Friday"}, 422, "invalid_input"),
    ({"currency": "PLN"}, 422, "invalid_input"),
    ({"name": "Friday", "currency": "zloty"}, 422, "bad_currency"),
    ({"name": "Friday", "currency": ""}, 422, "bad_currency"),
    ({"name": "\n", "currency": "PLN"}, 422, "bad_evening_name"),
    ({"name": "Friday", "currency": "PLN", "key": "mine"}, 422, "invalid_input"),
    ([], 422, "invalid_input"),
    ({"name": 5, "currency": "PLN"}, 422, "invalid_input"),
])
def test_a_bad_new_evening_is_refused(client, body, status, code):
    response = client.post("/api/evenings", json=body)
    assert (response.status_code, response.get_json()["error"]["code"]) == (status, code)


def test_the_figures_come_as_json_per_match_and_csv_per_evening(client):
    evening = new_evening(client)
    match = new_match(client, evening, ["=SUM(A1)", "Bob"], stake="1")
    penalty(client, match["id"], 1, match["key"])
    figures = client.get(f"/api/matches/{match['id']}/figures").get_json()
    assert [p["figures"]["minus_points"] for p in figures["players"]] == [0, 22]
    assert [p["figures"]["won"] for p in figures["players"]] == [1, 0]
    response = client.get(f"/api/evenings/{evening['id']}/figures.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][:4] == ["match", "game", "name", "net"]
    assert rows[1][:4] == ["evening", "", "'=SUM(A1)", "2.00"]
    assert rows[4][:4] == [match["id"], "ogorek", "Bob", "-2.00"]
    assert client.get("/api/evenings/nope/figures.csv").status_code == 404


def test_only_names_are_made_inert_in_the_csv(client, monkeypatch):
    import api.keys
    monkeypatch.setattr(api.keys, "new_match_id", lambda: "-AbC_123")
    evening = client.post("/api/evenings", json={"name": "Friday", "currency": "PLN"}).get_json()
    assert evening["id"] == "-AbC_123"
    monkeypatch.setattr(api.keys, "new_match_id", lambda: "-xYz")
    new_match(client, evening, ["-Ann", "@Bob", "+Cid", "-1+cmd|' /C calc'!A0", "-2+3", "=1", "Ewa-"])
    rows = list(csv.reader(io.StringIO(client.get("/api/evenings/-AbC_123/figures.csv").get_data(as_text=True))))
    assert [row[2] for row in rows[1:8]] == ["'-Ann", "'@Bob", "'+Cid", "'-1+cmd|' /C calc'!A0", "'-2+3", "'=1",
                                             "Ewa-"]
    assert rows[8][0] == "-xYz"


def test_the_evening_qr_code_holds_the_evening_link_and_no_key(client, tmp_path):
    from conftest import ContractClient
    from test_follow_qr import dark_modules, symbol_of

    from api import create_app

    evening = new_evening(client)
    response = client.get(f"/api/evenings/{evening['id']}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert evening["key"].encode() not in response.data
    assert response.headers["Cache-Control"] == "private, max-age=86400"
    link = f"http://localhost/?e={evening['id']}"
    assert dark_modules(response.data) == symbol_of(link, border=2)
    assert client.get("/api/evenings/nope/qr.svg").status_code == 404
    public = create_app({"TESTING": True, "DATABASE": str(tmp_path / "public.db"),
                         "PUBLIC_URL": "https://kibic.example.org"})
    public.test_client_class = ContractClient
    other = public.test_client()
    made = new_evening(other)
    response = other.get(f"/api/evenings/{made['id']}/qr.svg", headers={"Host": "evil.example"})
    assert dark_modules(response.data) == symbol_of(f"https://kibic.example.org/?e={made['id']}", border=2)
    assert response.headers["Cache-Control"] == "public, max-age=86400"


# --- starting an evening again: the Idempotency-Key -------------------------------------------------

FRIDAY = {"name": "Friday", "currency": "PLN"}


def start(client, idempotency_key: str, body=FRIDAY):
    return client.post("/api/evenings", json=body, headers={"Idempotency-Key": idempotency_key})


def test_a_retried_evening_is_the_same_evening_with_the_same_key(app, client):
    creation = secrets.token_urlsafe(32)
    first, retry = start(client, creation), start(client, creation)
    assert first.status_code == retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert retry.headers["Location"] == first.headers["Location"]
    assert stored(app, "SELECT count(*) FROM evenings") == [(1,)]
    new_match(client, retry.get_json(), ["A", "B"])  # the key given again is the evening's key
    other = start(client, secrets.token_urlsafe(32)).get_json()
    assert other["id"] != first.get_json()["id"] and other["key"] != first.get_json()["key"]


def test_the_same_key_with_another_evening_is_refused_as_for_a_match(app, client):
    creation = secrets.token_urlsafe(32)
    start(client, creation)
    other = start(client, creation, {"name": "Saturday", "currency": "PLN"})
    assert (other.status_code, other.get_json()["error"]["code"]) == (422, "idempotency_key_reused")
    assert stored(app, "SELECT name FROM evenings") == [("Friday",)]


def test_an_evening_key_is_derived_as_a_match_key_is_and_only_hashes_are_stored(app, client):
    creation = secrets.token_urlsafe(32)
    evening = start(client, creation).get_json()
    with app.app_context():
        assert evening["key"] == keys.derived_key(creation, evening["id"], kind="evening")
        assert evening["key"] != keys.derived_key(creation, evening["id"])  # not the key of a match of that id
    text = dump(app)
    assert creation not in text and evening["key"] not in text and keys.hash_key(creation) in text


@pytest.mark.parametrize("creation", ["k1", "a" * 40, "2026-12-01T20:15:00.000Z"])
def test_a_plain_evening_creation_key_is_refused(app, client, creation):
    refused = start(client, creation)
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (422, "bad_idempotency_key")
    assert stored(app, "SELECT count(*) FROM evenings") == [(0,)]


def test_a_refused_evening_is_not_remembered_and_a_late_retry_gets_no_key(app, client):
    creation = secrets.token_urlsafe(32)
    refused = start(client, creation, {"name": "Friday", "currency": "zloty"})
    assert refused.get_json()["error"]["code"] == "bad_currency"
    first = start(client, creation).get_json()
    stored(app, "UPDATE evenings SET created = ?", [(datetime.now(UTC) - timedelta(hours=24, minutes=1)).isoformat()])
    late = start(client, creation)
    assert (late.status_code, late.get_json()["error"]["code"]) == (409, "creation_retry_expired")
    assert late.get_json()["error"]["details"] == {"id": first["id"]}
    assert first["key"] not in late.get_data(as_text=True)
    assert stored(app, "SELECT count(*) FROM evenings") == [(1,)]


def test_an_evening_retry_racing_its_first_attempt_gets_the_same_evening(app, client, monkeypatch):
    creation = secrets.token_urlsafe(32)
    first = start(client, creation).get_json()
    lookup, calls = store.current(app).idempotent_evening, []

    def not_yet_then_found(key_hash):
        calls.append(key_hash)
        return None if len(calls) == 1 else lookup(key_hash)

    monkeypatch.setattr(store.current(app), "idempotent_evening", not_yet_then_found)
    retry = start(client, creation)
    assert len(calls) == 2 and retry.status_code == 201 and retry.get_json() == first


def test_a_retried_match_creation_into_an_evening_full_since_gets_the_match_it_created(app, client):
    """The first attempt took the evening's last place (its 60th match) and its answer was lost: the retry
    gets that match, and a new match is refused."""
    from referee.evening import MAX_MATCHES

    evening = new_evening(client)
    for _ in range(MAX_MATCHES - 1):
        new_match(client, evening, ["Ann", "Bob"])
    body = {"game": "ogorek", "players": ["Ann", "Bob"], "evening": evening["id"]}
    headers = {"Authorization": f"Bearer {evening['key']}", "Idempotency-Key": secrets.token_urlsafe(32)}
    made = client.post("/api/matches", json=body, headers=headers)
    assert made.status_code == 201
    full = new_match(client, evening, ["Ann", "Bob"], expect=422)
    assert full["error"]["code"] == "evening_full"

    retry = client.post("/api/matches", json=body, headers=headers)

    assert retry.status_code == 201, retry.get_json()
    assert retry.get_json() == made.get_json()
    assert stored(app, "SELECT count(*) FROM evening_matches") == [(MAX_MATCHES,)]
    other = client.post("/api/matches", json=body, headers={**headers, "Idempotency-Key": secrets.token_urlsafe(32)})
    assert (other.status_code, other.get_json()["error"]["code"]) == (422, "evening_full")
    wrong_key = client.post("/api/matches", json=body, headers={**headers, "Authorization": "Bearer not-the-key"})
    assert (wrong_key.status_code, wrong_key.get_json()["error"]["code"]) == (403, "wrong_key")


def test_a_matchs_state_names_its_evening_and_no_key(client):
    evening = new_evening(client)
    match = new_match(client, evening, ["Ann", "Bob"])
    alone = new_match(client, None, ["Ann", "Bob"])
    assert (match["evening"], alone["evening"]) == (evening["id"], None)
    answer = penalty(client, match["id"], 0, evening["key"], points=3)
    assert answer["state"]["evening"] == evening["id"]
    keyless = client.get(f"/api/matches/{match['id']}")
    assert keyless.get_json()["evening"] == evening["id"]
    assert evening["key"] not in keyless.get_data(as_text=True)
    assert client.get(f"/api/matches/{alone['id']}").get_json()["evening"] is None
    assert read(client, evening)["matches"][0]["id"] == match["id"]
