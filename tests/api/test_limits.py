"""New matches and evenings are counted per client address (`api.limits`): past the limit `429
too_many_creations` with `Retry-After`, in the one error shape, and nothing created; the address comes from a
proxy's header only when that proxy is trusted."""

from __future__ import annotations

import pytest
from conftest import ContractClient, stored

from api import create_app
from api.limits import counted_as, read_limit


@pytest.fixture
def limited(tmp_path):
    def make(limit="3 per minute", proxies=()):
        app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db"), "CREATION_LIMIT": limit,
                          "TRUSTED_PROXIES": list(proxies)})
        app.test_client_class = ContractClient
        return app
    return make


def create(client, what="matches", address="192.0.2.1", headers=None):
    body = {"game": "ogorek", "players": ["Ann", "Bob"]} if what == "matches" else {"name": "Fri", "currency": "PLN"}
    return client.post(f"/api/{what}", json=body, headers=headers or {}, environ_base={"REMOTE_ADDR": address})


def test_creations_past_the_limit_are_refused_and_create_nothing(limited):
    app = limited("3 per minute")
    client = app.test_client()
    answers = [create(client, what) for what in ("matches", "evenings", "matches", "matches", "evenings")]
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    refused = answers[3]
    assert refused.get_json()["error"]["code"] == "too_many_creations"
    assert "at most 3 per minute" in refused.get_json()["error"]["message"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert stored(app, "SELECT count(*) FROM matches") == [(2,)]
    assert stored(app, "SELECT count(*) FROM evenings") == [(1,)]
    assert create(client, address="192.0.2.2").status_code == 201  # another phone is not held back


def test_a_new_club_is_counted_as_an_evening_is(limited):
    app = limited("2 per minute")
    client = app.test_client()
    answers = [create(client, what) for what in ("clubs", "evenings", "clubs")]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert answers[2].get_json()["error"]["code"] == "too_many_creations"
    assert stored(app, "SELECT count(*) FROM clubs") == [(1,)]


def test_an_ipv6_client_is_counted_by_its_64(limited):
    client = limited("2 per minute").test_client()
    assert create(client, address="2001:db8:1:2::1").status_code == 201
    assert create(client, address="2001:db8:1:2:ffff::9").status_code == 201
    assert create(client, address="2001:db8:1:2::abcd").status_code == 429
    assert create(client, address="2001:db8:1:3::1").status_code == 201


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(limited):
    client = limited("1 per minute", proxies=["10.0.0.5"]).test_client()
    forged = {"X-Forwarded-For": "198.51.100.7"}
    assert create(client, address="192.0.2.9", headers=forged).status_code == 201
    assert create(client, address="192.0.2.9", headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 429
    # through the trusted proxy: the last address it forwarded for (an earlier one is the client's own say)
    assert create(client, address="10.0.0.5", headers={"X-Forwarded-For": "203.0.113.1, 198.51.100.7"}).status_code \
        == 201
    assert create(client, address="10.0.0.5", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 429
    assert create(client, address="10.0.0.5", headers={"X-Forwarded-For": "198.51.100.7, 203.0.113.1"}).status_code \
        == 201


def test_no_limit_when_lifted(limited):
    client = limited("none").test_client()
    assert all(create(client).status_code == 201 for _ in range(30))


@pytest.mark.parametrize("text, windows", [("20 per minute; 200 per day", 2), ("none", 0), ("5/second", 1)])
def test_the_setting_reads_windows(text, windows):
    assert len(read_limit(text)) == windows


def test_a_bad_setting_names_itself():
    with pytest.raises(ValueError, match="KIBIC_CREATION_LIMIT"):
        read_limit("lots")


@pytest.mark.parametrize("address, counted", [("::ffff:192.0.2.1", "192.0.2.1"), ("2001:db8::1", "2001:db8::/64"),
                                              ("192.0.2.1", "192.0.2.1")])
def test_addresses_counted(address, counted):
    assert counted_as(address) == counted


@pytest.mark.server
def test_a_real_server_refuses_a_flood_of_creations_from_one_address(tmp_path):
    """One worker, as `make serve` runs it otherwise: the flood's creations past the limit answer 429 at once."""
    import json
    from http.client import HTTPConnection
    from urllib.parse import urlsplit

    from gunicorn_server import gunicorn

    env = {"REFEREE_DB": str(tmp_path / "referee.db"), "KIBIC_CREATION_LIMIT": "5 per minute"}
    with gunicorn(env=env, workers=1) as base:
        where = urlsplit(base)
        statuses = []
        connection = HTTPConnection(where.hostname, where.port, timeout=30)
        for _ in range(12):
            connection.request("POST", "/api/matches", json.dumps({"game": "ogorek", "players": ["Ann", "Bob"]}),
                               {"Content-Type": "application/json"})
            answer = connection.getresponse()
            body = json.loads(answer.read())
            statuses.append(answer.status)
            if answer.status == 429:
                assert body["error"]["code"] == "too_many_creations" and answer.getheader("Retry-After")
        connection.close()
    assert statuses == [201] * 5 + [429] * 7
