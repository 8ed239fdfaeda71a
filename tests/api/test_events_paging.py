"""The log is read a page at a time: at most 1,000 events an answer (a log of 4,000 events was 740 KB in one
read), `next` naming where the next page starts, and every event read once, in order, by following it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.both_stores


@pytest.fixture
def long_match(table):
    match = table.new_match(players=["Ala", "Ola"], options={"limit": 1000})
    table.post_event(match, {"type": "deal", "dealer": 0})
    for seq in range(2, 26):
        table.post_event(match, {"type": "penalty", "seat": seq % 2, "points": 1})
    table.undo(match)
    return match


def page(client, match, **query):
    answer = client.get(f"/api/matches/{match['id']}/events", query_string=query)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_pages_followed_by_next_give_the_whole_log_once(client, table, long_match):
    whole = page(client, long_match)
    assert whole["next"] is None and [e["seq"] for e in whole["events"]] == list(range(1, 27))
    read, after = [], 0
    while after is not None:
        shown = page(client, long_match, after=after, limit=7)
        assert len(shown["events"]) <= 7
        read += shown["events"]
        after = shown["next"]
    assert read == whole["events"]
    assert page(client, long_match, after=26) == {"events": [], "next": None}
    assert page(client, long_match, after=19, limit=7)["next"] is None  # the last page says so


@pytest.mark.parametrize("query", [{"limit": 0}, {"limit": 1001}, {"after": -1}, {"after": "x"}, {"limit": "1e3"},
                                   {"after": "9" * 30}])
def test_a_bad_page_is_refused_clearly(client, long_match, query):
    answer = client.get(f"/api/matches/{long_match['id']}/events", query_string=query)
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["code"] == "invalid_input" and next(iter(query)) in error["message"]


def test_an_answer_holds_at_most_a_page_without_limit(client, long_match, monkeypatch):
    import api.views

    monkeypatch.setattr(api.views, "EVENTS_PAGE", 10)  # 1,000 in service
    first = page(client, long_match)
    assert [e["seq"] for e in first["events"]] == list(range(1, 11)) and first["next"] == 10
    assert client.get(f"/api/matches/{long_match['id']}/events", query_string={"limit": 11}).status_code == 422
