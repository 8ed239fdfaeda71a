"""A match survives a restart: a new app on the same database file shows the same state and log."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.both_stores


def test_a_new_app_on_the_same_file_shows_the_same_match(restart, table):
    match = table.new_match(stake="0.50", currency="PLN", options={"limit": 30})
    table.post_event(match, {"type": "deal", "dealer": 0, "hands": {"1": ["K", "K", "7", "6", "4", "3"]}})
    for seat, card in [("W", "K"), ("N", "2"), ("E", "3"), ("S", "A"), ("S", "9")]:
        table.play(match, seat, card)
    table.play(match, "W", "3", force=True)
    table.undo(match)
    before = (table.state(match), table.events(match), table.client.get(f"/api/matches/{match['id']}/settlement").json)

    after_restart = restart()

    settlement = after_restart.client.get(f"/api/matches/{match['id']}/settlement").json
    assert (after_restart.state(match), after_restart.events(match), settlement) == before
    assert before[0]["options"]["limit"] == 30


def test_play_goes_on_after_a_restart_with_the_same_key(restart, table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    table.play(match, "W", "K")

    after_restart = restart()

    answer = after_restart.play(match, "N", "2")
    assert answer["event"]["seq"] == 3
    assert answer["state"]["deal"]["table"] == [{"seat": 1, "card": "K", "seq": 2}, {"seat": 2, "card": "2", "seq": 3}]


def test_a_dealer_drawn_by_lot_is_stored_and_stays_the_same(restart, table):
    match = table.new_match()
    drawn = table.post_event(match, {"type": "deal"})["event"]["dealer"]
    assert drawn in range(4)

    assert restart().state(match)["dealer"] == drawn
    assert restart().events(match)[0] == {"seq": 1, "type": "deal", "dealer": drawn, "format": 2, "undone_by": None,
                                            "corrected_by": None}


def test_the_first_dealer_is_drawn_from_every_seat(table):
    match = table.new_match()
    drawn = set()
    for _ in range(60):
        drawn.add(table.post_event(match, {"type": "deal"})["event"]["dealer"])
        table.undo(match)
        if len(drawn) == 4:
            break
    assert drawn == {0, 1, 2, 3}
