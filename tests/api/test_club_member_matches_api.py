"""A member's matches over the API (`GET /api/clubs/{id}/members/{member}/matches`), on both stores: the latest
first, each with its day, game, place among how many, points by the club's rule, money, figures and the rating it
left (openskill's own, match after match); a page at a time, every page bounded; the club's key or read key reads
them, nothing else does, and bad arguments are 4xx in the one error shape.

The club is that of test_clubs_api: Ann is 1st in A (3-2-1 points: 3, +6), 3rd in B (1, -4), both on 2025-03-07,
and 3rd in C on 2025-03-14 (1, -4).
"""

from __future__ import annotations

import pytest
import test_clubs_api
from openskill.models import PlackettLuce
from test_clubs_api import bearer, ids, read

pytestmark = pytest.mark.both_stores
clock, season = test_clubs_api.clock, test_clubs_api.season  # the club of test_clubs_api, as fixtures


def matches(client, club: dict, member: str, key: str | None = None, expect: int = 200, **query):
    response = client.get(f"/api/clubs/{club['id']}/members/{member}/matches", query_string=query,
                          headers=bearer(key or club["key"]))
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def test_a_members_matches_the_latest_first_with_place_points_money_and_rating(client, season):
    club = season["club"]
    member = ids(read(client, club))
    shown = matches(client, club, member["Ann"])
    assert (shown["member"], shown["total"], shown["next"], shown["game"]) == (member["Ann"], 3, None, None)
    a, b, c = (each["id"] for each in season["matches"])
    assert [(m["match"], m["date"], m["game"], m["place"], m["players"], m["points"], m["net"])
            for m in shown["matches"]] == [(c, "2025-03-14", "ogorek", 3, 3, 1, "-4.00"),
                                           (b, "2025-03-07", "ogorek", 3, 3, 1, "-4.00"),
                                           (a, "2025-03-07", "ogorek", 1, 3, 3, "6.00")]
    assert [m["figures"]["minus_points"] for m in shown["matches"]] == [22, 22, 0]
    assert shown["matches"][-1]["evening"] == season["evenings"][0]["id"]
    # the rating after each match, as the library gives it when the three are rated in order
    model = PlackettLuce()
    held = {name: model.rating(name=member[name]) for name in member}
    after = []
    for players, ranks in ((["Ann", "Bob", "Cid"], [1, 2, 3]), (["Bob", "Cid", "Ann"], [2, 1, 3]),
                           (["Ann", "Bob", "Dan"], [3, 1, 2])):
        rated = model.rate([[held[name]] for name in players], ranks=[float(rank) for rank in ranks])
        for name, (rating,) in zip(players, rated, strict=True):
            held[name] = rating
        after.append({"mu": held["Ann"].mu, "sigma": held["Ann"].sigma, "ordinal": held["Ann"].ordinal()})
    assert [m["rating"] for m in reversed(shown["matches"])] == after
    assert shown["matches"][0]["rating"]["mu"] == read(client, club)["ratings"][member["Ann"]]["ogorek"]["mu"]


def test_the_points_follow_the_clubs_rule_and_the_range_and_game_filter(client, season):
    club = season["club"]
    member = ids(read(client, club))
    client.put(f"/api/clubs/{club['id']}/rule", json={"by": "points", "points": [5, 1]}, headers=bearer(club["key"]))
    assert [m["points"] for m in matches(client, club, member["Ann"])["matches"]] == [0, 0, 5]
    client.put(f"/api/clubs/{club['id']}/rule", json={"by": "money"}, headers=bearer(club["key"]))
    assert [m["points"] for m in matches(client, club, member["Ann"])["matches"]] == [None, None, None]
    second = matches(client, club, member["Ann"], **{"from": "2025-03-14"})
    assert second["total"] == 1 and second["from"] == "2025-03-14"
    # a range rates afresh from its first day: Ann's one match of the range rated from a newcomer's rating
    model = PlackettLuce()
    ann, bob, dan = (model.rating(name=member[name]) for name in ("Ann", "Bob", "Dan"))
    (alone,), _, _ = model.rate([[ann], [bob], [dan]], ranks=[3.0, 1.0, 2.0])
    assert second["matches"][0]["rating"]["mu"] == alone.mu
    assert matches(client, club, member["Dan"], to="2025-03-07")["matches"] == []
    assert matches(client, club, member["Ann"], game="ogorek")["total"] == 3
    assert matches(client, club, member["Ann"], game="oh_hell")["total"] == 0


def test_a_page_at_a_time(client, season):
    club = season["club"]
    member = ids(read(client, club))
    whole = matches(client, club, member["Ann"])["matches"]
    first = matches(client, club, member["Ann"], limit="2")
    assert first["matches"] == whole[:2] and first["next"] == 2 and first["total"] == 3
    last = matches(client, club, member["Ann"], limit="2", offset=str(first["next"]))
    assert last["matches"] == whole[2:] and last["next"] is None
    beyond = matches(client, club, member["Ann"], offset="10")
    assert beyond["matches"] == [] and beyond["next"] is None and beyond["total"] == 3


@pytest.mark.parametrize(("query", "code"), [
    ({"limit": "0"}, "invalid_input"), ({"limit": "201"}, "invalid_input"), ({"limit": "ten"}, "invalid_input"),
    ({"offset": "-1"}, "invalid_input"), ({"offset": "9" * 30}, "invalid_input"), ({"from": "2025-02-30"}, "bad_date"),
    ({"from": "2025-03-14", "to": "2025-03-07"}, "bad_date"), ({"game": "poker"}, "unknown_game"),
])
def test_bad_arguments_are_422_in_the_one_error_shape(client, season, query, code):
    club = season["club"]
    member = ids(read(client, club))
    shown = matches(client, club, member["Ann"], expect=422, **query)
    assert set(shown) == {"error"} and shown["error"]["code"] == code


def test_read_with_the_clubs_keys_only(client, season):
    club, evening, match = season["club"], season["evenings"][0], season["matches"][0]
    member = ids(read(client, club))
    assert matches(client, club, member["Ann"], key=club["read_key"])["total"] == 3
    for key in (evening["key"], match["key"], "not-a-key"):
        refused = matches(client, club, member["Ann"], key=key, expect=403)
        assert set(refused) == {"error"}
    nobody = client.get(f"/api/clubs/{club['id']}/members/{member['Ann']}/matches")
    assert nobody.status_code == 401 and set(nobody.get_json()) == {"error"}
    missing = matches(client, club, "nobody", expect=404)
    assert missing["error"]["code"] == "member_not_found"
    unknown = client.get("/api/clubs/nothing/members/x/matches", headers=bearer("x"))
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "club_not_found"
    for method in ("post", "put", "delete"):
        written = getattr(client, method)(f"/api/clubs/{club['id']}/members/{member['Ann']}/matches", json={},
                                          headers=bearer(club["read_key"]))
        assert written.status_code == 405 and set(written.get_json()) == {"error"}
