"""Clubs over the API, on both stores: a club's key and read key, its evenings and members, figures across evenings
over a date range, the season's table by each rule, ratings as openskill gives them, the ledger's debts carried
across evenings and paid, rename and merge, export; and nothing of a club through a match's or an evening's key.

The club of these tests (stakes of 1 PLN, Ogórek; a player reaching 22 minus points is out):

    evening 1 (2025-03-07)  A: Ann 1st +6, Bob 2nd -2, Cid 3rd -4
                            B: Cid 1st +6, Bob 2nd -2, Ann 3rd -4      nets: Ann +2, Bob -4, Cid +2
    evening 2 (2025-03-14)  C: Bob 1st +6, Dan 2nd -2, Ann 3rd -4      nets: Bob +6, Dan -2, Ann -4

so the ledger holds Ann -2, Bob +2, Cid +2, Dan -2: Bob's 4 owed after the first evening is carried into the second
and netted with what he won there.
"""

from __future__ import annotations

import csv
import io
import itertools
import secrets
from decimal import Decimal

import pytest
from conftest import stored
from openskill.models import PlackettLuce

import api.clubs
import api.store.postgres
import api.store.sqlite
from api import admin

pytestmark = pytest.mark.both_stores


def bearer(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def clock(monkeypatch):
    """The stores' clock, set to a day of the test's choosing: an evening's day is the day it was started."""
    ticks = itertools.count()
    held = {"day": "2025-03-07"}

    def now() -> str:
        second = next(ticks)
        return f"{held['day']}T19:{second // 60:02d}:{second % 60:02d}.000+00:00"

    monkeypatch.setattr(api.store.sqlite, "now", now)
    monkeypatch.setattr(api.store.postgres, "now", now)
    return held


def new_club(client, name="Friday club", currency="PLN", **headers) -> dict:
    response = client.post("/api/clubs", json={"name": name, "currency": currency}, headers=headers)
    assert response.status_code == 201, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


def new_evening(client, club: dict, name="Friday", currency="PLN", expect=201, key=None) -> dict:
    response = client.post("/api/evenings", json={"name": name, "currency": currency, "club": club["id"]},
                           headers=bearer(key or club["key"]))
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def played(client, evening: dict, players: list[str], out_first: int, out_second: int) -> dict:
    """A three-player Ogórek match of the evening at a stake of 1, two players out in this order."""
    response = client.post("/api/matches", json={"game": "ogorek", "players": players, "stake": "1",
                                                 "evening": evening["id"]}, headers=bearer(evening["key"]))
    assert response.status_code == 201, response.get_json()
    match = response.get_json()
    for seat in (out_first, out_second):
        answer = client.post(f"/api/matches/{match['id']}/events", json={"type": "penalty", "seat": seat,
                                                                          "points": 22}, headers=bearer(match["key"]))
        assert answer.status_code == 201, answer.get_json()
    return match


def read(client, club: dict, key=None, expect=200, **query) -> dict:
    response = client.get(f"/api/clubs/{club['id']}", query_string=query, headers=bearer(key or club["key"]))
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def ids(shown: dict) -> dict[str, str]:
    return {member["name"]: member["id"] for member in shown["members"]}


@pytest.fixture
def season(client, clock):
    """The club of the module's docstring, and its matches."""
    club = new_club(client)
    first = new_evening(client, club, "First Friday")
    a = played(client, first, ["Ann", "Bob", "Cid"], 2, 1)
    b = played(client, first, ["Bob", "Cid", "Ann"], 2, 0)
    clock["day"] = "2025-03-14"
    second = new_evening(client, club, "Second Friday")
    c = played(client, second, ["Ann", "Bob", "Dan"], 0, 2)
    return {"club": club, "evenings": [first, second], "matches": [a, b, c]}


def test_figures_across_evenings_and_over_a_range(client, season):
    club = season["club"]
    shown = read(client, club)
    member = ids(shown)
    assert sorted(member) == ["Ann", "Bob", "Cid", "Dan"]
    ann = shown["figures"][member["Ann"]]["ogorek"]
    assert (ann["matches"], ann["wins"], ann["places"], ann["average_place"]) == (3, 1, {"1": 1, "3": 2}, 2.33)
    assert ann["minus_points"] == 44  # out in B and in C, 22 each
    second = read(client, club, **{"from": "2025-03-14"})["figures"]
    assert second[member["Ann"]]["ogorek"]["matches"] == 1 and member["Cid"] not in second
    first = read(client, club, **{"to": "2025-03-07"})["figures"]
    assert first[member["Bob"]]["ogorek"]["places"] == {"2": 2} and member["Dan"] not in first
    bad = client.get(f"/api/clubs/{club['id']}", query_string={"from": "2025-03-14", "to": "2025-03-07"},
                     headers=bearer(club["key"]))
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "bad_date"


def test_the_season_table_by_points_by_money_and_by_rating(client, season):
    club = season["club"]
    member = ids(read(client, club))
    by_points = read(client, club)["table"]  # 3-2-1: Ann 3+1+1, Bob 2+2+3, Cid 1+3, Dan 2
    assert [(row["place"], row["member"], row["value"]) for row in by_points] == [
        (1, member["Bob"], 7), (2, member["Ann"], 5), (3, member["Cid"], 4), (4, member["Dan"], 2)]
    response = client.put(f"/api/clubs/{club['id']}/rule", json={"by": "money"}, headers=bearer(club["key"]))
    assert response.status_code == 200 and response.get_json() == {"rule": {"by": "money"}}
    by_money = read(client, club)
    assert by_money["rule"] == {"by": "money"}
    # Bob and Cid both +2.00 with a win each: Bob's average place 5/3 beats Cid's 2; Ann and Dan -2.00: Ann has a win
    assert [(row["place"], row["member"], row["value"]) for row in by_money["table"]] == [
        (1, member["Bob"], "2.00"), (2, member["Cid"], "2.00"), (3, member["Ann"], "-2.00"),
        (4, member["Dan"], "-2.00")]
    client.put(f"/api/clubs/{club['id']}/rule", json={"by": "rating"}, headers=bearer(club["key"]))
    by_rating = read(client, club)
    assert by_rating["table"] is None
    ordinal = {m: games["ogorek"]["ordinal"] for m, games in by_rating["ratings"].items()}
    assert [row["member"] for row in by_rating["tables"]["ogorek"]] == sorted(ordinal, key=lambda m: -ordinal[m])
    refused = client.put(f"/api/clubs/{club['id']}/rule", json={"by": "points", "points": [1, 2]},
                         headers=bearer(club["key"]))
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "bad_club_rule"
    assert read(client, club)["rule"] == {"by": "rating"}


def test_ratings_are_the_librarys_own_over_the_matches_in_order(client, season):
    shown = read(client, season["club"])
    member = ids(shown)
    model = PlackettLuce()
    held = {name: model.rating(name=member[name]) for name in member}
    for players, ranks in ((["Ann", "Bob", "Cid"], [1, 2, 3]), (["Bob", "Cid", "Ann"], [2, 1, 3]),
                           (["Ann", "Bob", "Dan"], [3, 1, 2])):
        rated = model.rate([[held[name]] for name in players], ranks=[float(rank) for rank in ranks])
        for name, (rating,) in zip(players, rated, strict=True):
            held[name] = rating
    for name, rating in held.items():
        got = shown["ratings"][member[name]]["ogorek"]
        assert (got["mu"], got["sigma"], got["ordinal"]) == (rating.mu, rating.sigma, rating.ordinal())
    assert shown["ratings"][member["Ann"]]["ogorek"]["matches"] == 3


def test_the_ledger_carries_debts_and_marks_payments_once(client, season):
    club = season["club"]
    member = ids(read(client, club))
    ann, bob, cid, dan = (member[name] for name in ("Ann", "Bob", "Cid", "Dan"))
    assert {bob, cid} == {t["to"] for t in read(client, club)["ledger"]["transfers"]}
    book = read(client, club)["ledger"]
    assert book["balances"] == {ann: "-2.00", bob: "2.00", cid: "2.00", dan: "-2.00"}
    assert [entry["type"] for entry in book["history"]] == ["evening", "evening"]
    assert book["history"][0]["nets"] == {ann: "2.00", bob: "-4.00", cid: "2.00"}
    assert len(book["transfers"]) == 2 and all(t["amount"] == "2.00" for t in book["transfers"])
    assert {t["from"] for t in book["transfers"]} == {ann, dan} and {t["to"] for t in book["transfers"]} == {bob, cid}
    owed = next(t for t in book["transfers"] if t["from"] == ann)
    retry = {"Idempotency-Key": secrets.token_hex(16), **bearer(club["key"])}
    body = {"from": ann, "to": owed["to"], "by": ann, "amount": "0.50"}
    paid = client.post(f"/api/clubs/{club['id']}/payments", json=body, headers=retry)
    assert paid.status_code == 201, paid.get_json()
    again = client.post(f"/api/clubs/{club['id']}/payments", json=body, headers=retry)
    assert again.status_code == 201 and again.get_json() == paid.get_json()
    reused = client.post(f"/api/clubs/{club['id']}/payments", json={**body, "amount": "0.25"}, headers=retry)
    assert reused.status_code == 422 and reused.get_json()["error"]["code"] == "idempotency_key_reused"
    book = read(client, club)["ledger"]
    assert book["balances"][ann] == "-1.50" and book["balances"][owed["to"]] == "1.50"
    assert [entry["type"] for entry in book["history"]] == ["evening", "evening", "paid"]
    too_much = client.post(f"/api/clubs/{club['id']}/payments", json={**body, "amount": "1.51"},
                           headers=bearer(club["key"]))
    assert too_much.status_code == 409 and too_much.get_json()["error"]["code"] == "not_owed"
    # the rest, marked by the payee with the key of the evening both played in
    evening_key = season["evenings"][1]["key"] if owed["to"] == bob else season["evenings"][0]["key"]
    rest = client.post(f"/api/clubs/{club['id']}/payments", json={"from": ann, "to": owed["to"], "by": owed["to"]},
                       headers=bearer(evening_key))
    assert rest.status_code == 201 and rest.get_json()["amount"] == "1.50"
    assert set(rest.get_json()) == {"id", "at", "from", "to", "amount", "by"}  # the payment alone, no ledger
    book = read(client, club)["ledger"]
    assert book["balances"][ann] == "0.00" and [t["from"] for t in book["transfers"]] == [dan]
    assert [entry["type"] for entry in book["history"]] == ["evening", "evening", "paid", "paid"]
    [left] = book["transfers"]
    not_payer = client.post(f"/api/clubs/{club['id']}/payments", json={"from": dan, "to": left["to"], "by": ann},
                            headers=bearer(club["key"]))
    assert not_payer.status_code == 409 and not_payer.get_json()["error"]["code"] == "not_payer_or_payee"


def test_two_marks_at_once_never_pay_more_than_was_owed(app, client, season, monkeypatch):
    """A mark checked against the ledger, and another one recorded before it is written (a second phone's, at
    the same moment): it is checked again where it is written, and refused, so the debt is paid once."""
    club = season["club"]
    member = ids(read(client, club))
    owed = next(t for t in read(client, club)["ledger"]["transfers"] if t["from"] == member["Ann"])
    whole = {"from": owed["from"], "to": owed["to"], "by": owed["from"]}
    route = f"/api/clubs/{club['id']}/payments"
    checked = api.clubs.check_payment
    others = []

    def meanwhile(ledger, wanted):
        answer = checked(ledger, wanted)
        if not others:  # between this mark's check and its write, another phone marks the same debt paid
            others.append(None)
            others[0] = app.test_client().post(route, json=whole, headers=bearer(club["key"]))
        return answer

    monkeypatch.setattr(api.clubs, "check_payment", meanwhile)
    late = client.post(route, json=whole, headers=bearer(club["key"]))
    assert others[0].status_code == 201, others[0].get_json()
    assert late.status_code == 409 and late.get_json()["error"]["code"] == "not_owed", late.get_json()
    book = read(client, club)["ledger"]
    assert book["balances"][member["Ann"]] == "0.00"
    assert [entry["type"] for entry in book["history"]].count("paid") == 1


def test_a_club_evening_in_another_currency_is_refused(client):
    club = new_club(client)
    refused = new_evening(client, club, currency="EUR", expect=422)
    assert refused["error"]["code"] == "club_currency"
    other = new_club(client)
    assert new_evening(client, club, key=other["key"], expect=403)["error"]["code"] == "wrong_key"
    assert new_evening(client, club, key=club["read_key"], expect=403)["error"]["code"] == "wrong_key"


def test_club_data_is_never_read_with_a_match_or_evening_key(client, season):
    club, evening, match = season["club"], season["evenings"][0], season["matches"][0]
    secret = read(client, club)
    member = ids(secret)
    for key in (evening["key"], match["key"]):
        response = client.get(f"/api/clubs/{club['id']}", headers=bearer(key))
        assert response.status_code == 403 and set(response.get_json()) == {"error"}
        assert client.get(f"/api/clubs/{club['id']}/members/{member['Ann']}", headers=bearer(key)).status_code == 403
        assert client.get(f"/api/clubs/{club['id']}/export.json", headers=bearer(key)).status_code == 403
    nobody = client.get(f"/api/clubs/{club['id']}")
    assert nobody.status_code == 401 and set(nobody.get_json()) == {"error"}
    followed = [client.get(f"/api/evenings/{evening['id']}").get_data(as_text=True),
                client.get(f"/api/matches/{match['id']}").get_data(as_text=True),
                client.get(f"/api/matches/{match['id']}", headers=bearer(match["key"])).get_data(as_text=True)]
    for text in followed:
        assert club["id"] not in text and not any(member_id in text for member_id in member.values())
    reader = read(client, club, key=club["read_key"])
    assert reader["ledger"] == secret["ledger"] and "read_link" not in reader
    assert secret["read_link"].endswith(f"#read={club['read_key']}")
    write = client.put(f"/api/clubs/{club['id']}/rule", json={"by": "money"}, headers=bearer(club["read_key"]))
    assert write.status_code == 403


def test_a_retried_creation_gets_the_same_club_and_keys(client):
    retry = {"Idempotency-Key": secrets.token_hex(16)}
    first = new_club(client, **retry)
    again = new_club(client, **retry)
    assert (again["id"], again["key"], again["read_key"]) == (first["id"], first["key"], first["read_key"])
    reused = client.post("/api/clubs", json={"name": "Other", "currency": "PLN"}, headers=retry)
    assert reused.status_code == 422 and reused.get_json()["error"]["code"] == "idempotency_key_reused"


def test_rename_and_merge_members(client, season, clock):
    club = season["club"]
    member = ids(read(client, club))
    renamed = client.post(f"/api/clubs/{club['id']}/members/{member['Dan']}/rename", json={"name": "Daniel"},
                          headers=bearer(club["key"]))
    assert renamed.status_code == 200 and renamed.get_json() == {"id": member["Dan"], "name": "Daniel",
                                                                 "aliases": ["Dan"]}
    taken = client.post(f"/api/clubs/{club['id']}/members/{member['Dan']}/rename", json={"name": "ann"},
                        headers=bearer(club["key"]))
    assert taken.status_code == 409 and taken.get_json()["error"]["code"] == "member_name_taken"
    clock["day"] = "2025-03-21"
    third = new_evening(client, club, "Third Friday")
    played(client, third, ["daniel", "Danny", "Cid"], 1, 2)  # Daniel wins; Danny is new
    shown = read(client, club)
    now = ids(shown)
    assert now["Daniel"] == member["Dan"] and shown["figures"][member["Dan"]]["ogorek"]["matches"] == 2
    together = client.post(f"/api/clubs/{club['id']}/members/{member['Dan']}/merge", json={"other": now["Danny"]},
                           headers=bearer(club["key"]))
    assert together.status_code == 409 and together.get_json()["error"]["code"] == "members_played_together"
    clock["day"] = "2025-03-28"
    fourth = new_evening(client, club, "Fourth Friday")
    played(client, fourth, ["Dani", "Ann", "Bob"], 1, 2)  # a new name: Dani wins
    dani = ids(read(client, club))["Dani"]
    for _ in range(2):  # merging again is merging once
        merged = client.post(f"/api/clubs/{club['id']}/members/{now['Danny']}/merge", json={"other": dani},
                             headers=bearer(club["key"]))
        assert merged.status_code == 200 and merged.get_json()["aliases"] == ["Dani"]
    shown = read(client, club)
    assert "Dani" not in ids(shown) and shown["figures"][now["Danny"]]["ogorek"]["wins"] == 1


def test_merging_members_joins_their_matches_and_money(client, clock):
    club = new_club(client)
    first = new_evening(client, club, "One")
    played(client, first, ["Ann", "Bob", "Cid"], 2, 1)  # Ann +6, Bob -2, Cid -4
    clock["day"] = "2025-03-14"
    second = new_evening(client, club, "Two")
    played(client, second, ["Ania", "Bob", "Cid"], 1, 2)  # Ania +6, Cid -2, Bob -4
    member = ids(read(client, club))
    for _ in range(2):
        merged = client.post(f"/api/clubs/{club['id']}/members/{member['Ann']}/merge", json={"other": member["Ania"]},
                             headers=bearer(club["key"]))
        assert merged.status_code == 200, merged.get_json()
        assert merged.get_json() == {"id": member["Ann"], "name": "Ann", "aliases": ["Ania"]}
    shown = read(client, club)
    assert [m["id"] for m in shown["members"]] == [member["Ann"], member["Bob"], member["Cid"]]
    assert shown["figures"][member["Ann"]]["ogorek"]["wins"] == 2
    assert shown["ledger"]["balances"] == {member["Ann"]: "12.00", member["Bob"]: "-6.00", member["Cid"]: "-6.00"}
    assert sum(Decimal(v) for v in shown["ledger"]["balances"].values()) == 0
    assert [row["value"] for row in shown["table"]] == [6, 3, 3]  # 3+3 for Ann; Bob 2+1, Cid 1+2


def test_member_figures_and_head_to_head(client, season):
    club = season["club"]
    member = ids(read(client, club))
    response = client.get(f"/api/clubs/{club['id']}/members/{member['Ann']}", query_string={"with": member["Bob"]},
                          headers=bearer(club["read_key"]))
    assert response.status_code == 200, response.get_json()
    shown = response.get_json()
    assert shown["member"]["name"] == "Ann" and shown["figures"]["ogorek"]["matches"] == 3
    assert shown["head_to_head"]["total"] == {"matches": 3, "ahead": {member["Ann"]: 1, member["Bob"]: 2}, "level": 0}
    missing = client.get(f"/api/clubs/{club['id']}/members/nobody", headers=bearer(club["key"]))
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "member_not_found"
    myself = client.get(f"/api/clubs/{club['id']}/members/{member['Ann']}", query_string={"with": member["Ann"]},
                        headers=bearer(club["key"]))
    assert myself.status_code == 422 and myself.get_json()["error"]["code"] == "bad_member"


def test_export_as_json_and_as_inert_csv(client, clock):
    club = new_club(client)
    evening = new_evening(client, club)
    played(client, evening, ["=cmd|x", "Bob", "-2+3"], 2, 1)
    whole = client.get(f"/api/clubs/{club['id']}/export.json", headers=bearer(club["key"]))
    assert whole.status_code == 200 and len(whole.get_json()["matches"]) == 1
    assert client.get(f"/api/clubs/{club['id']}/export.json", headers=bearer(club["read_key"])).status_code == 403
    sheet = client.get(f"/api/clubs/{club['id']}/export.csv", headers=bearer(club["key"]))
    assert sheet.status_code == 200 and sheet.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(sheet.get_data(as_text=True))))
    assert sorted(row["name"] for row in rows) == ["'-2+3", "'=cmd|x", "Bob"]
    assert {row["name"]: row["balance"] for row in rows} == {"'=cmd|x": "6.00", "Bob": "-2.00", "'-2+3": "-4.00"}


def test_an_unknown_club_is_404_in_the_one_error_shape(client):
    response = client.get("/api/clubs/nothing", headers=bearer("x"))
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "club_not_found"
    bad = client.post("/api/clubs", json={"name": "", "currency": "PLN"})
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "bad_club_name"


def test_a_forgotten_name_is_gone_from_the_club_and_the_member_keeps_their_figures(app, client, season):
    club = season["club"]
    member = ids(read(client, club))
    counts = admin.forget(app.config["DATABASE"], "ann")
    assert counts["clubs"] == 1 and counts["matches"] == 3
    shown = read(client, club)
    assert ids(shown)[admin.FORGOTTEN] == member["Ann"]
    assert shown["figures"][member["Ann"]]["ogorek"]["matches"] == 3
    exported = client.get(f"/api/clubs/{club['id']}/export.json", headers=bearer(club["key"])).get_json()
    names = [name for each in exported["members"] for name in (each["name"], *each["aliases"])]
    assert sorted(names) == sorted([admin.FORGOTTEN, "Bob", "Cid", "Dan"])
    sheet = client.get(f"/api/clubs/{club['id']}/export.csv", headers=bearer(club["key"])).get_data(as_text=True)
    assert sorted(row["name"] for row in csv.DictReader(io.StringIO(sheet))) == sorted(names)
    rows = stored(app, "SELECT name, shown FROM club_names") + stored(app, "SELECT name FROM club_members")
    assert not [row for row in rows if any("ann" in value.casefold() for value in row)]


def test_a_match_changed_is_summarized_again_and_only_it(client, season, monkeypatch):
    club, (a, _, _) = season["club"], season["matches"]
    before = read(client, club)
    member = ids(before)
    import api.clubs

    made = []
    real = api.clubs.summarize
    monkeypatch.setattr(api.clubs, "summarize", lambda match, *args, **kwargs: made.append(kwargs["match_id"])
                        or real(match, *args, **kwargs))
    assert read(client, club) == before and made == []  # nothing changed: nothing refolded, the ratings kept
    undone = client.post(f"/api/matches/{a['id']}/undo", headers=bearer(a["key"]))
    assert undone.status_code == 201, undone.get_json()
    after = read(client, club)
    assert made == [a["id"]]  # only the match written to
    # match A is no longer over: it counts nowhere, and every rating after it is rated again
    assert after["figures"][member["Ann"]]["ogorek"]["matches"] == 2
    assert after["figures"][member["Ann"]]["ogorek"]["wins"] == 0
    assert after["ratings"][member["Cid"]]["ogorek"]["mu"] != before["ratings"][member["Cid"]]["ogorek"]["mu"]
    assert [entry["evening"] for entry in after["ledger"]["open"]] == [season["evenings"][0]["id"]]
