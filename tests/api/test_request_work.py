"""What a request of the service does not redo: work whose answer never changes is done once per process."""

from __future__ import annotations

import flask.app
from conftest import Table


def test_flask_asks_whether_a_view_is_a_coroutine_once_per_view_or_hook(client, monkeypatch):
    """Flask asks `inspect` whether each view and hook is an `async def` one at every call, four times a request;
    the answer never changes, so Kibic's app keeps it."""
    asked: list[object] = []
    original = flask.app.iscoroutinefunction

    def counting(func):
        asked.append(func)
        return original(func)

    monkeypatch.setattr(flask.app, "iscoroutinefunction", counting)
    table = Table(client)
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    after_first = len(asked)
    table.post_event(match, {"type": "play", "seat": 1, "card": "2"})
    table.post_event(match, {"type": "play", "seat": 2, "card": "3"})
    client.get(f"/api/matches/{match['id']}")

    assert after_first > 0
    assert len(asked) == after_first + 1  # the read's view, asked about once
    assert len(asked) == len(set(asked))
