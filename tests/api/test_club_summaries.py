"""A club's match summaries kept in the store, on both stores: a new process (a new app on the same data) reads them
and refolds no log; a match written to since (an undo, a correction) is summarized again, alone, and its new
summary stored; a stored summary names no one, so a forgotten name leaves no trace in them; a restored backup never
serves the summary of a history put aside; a summary made before an operator's change is not stored after it.

The club is `test_clubs_api`'s (three Ogórek matches over two evenings, Ann, Bob, Cid and Dan), except where a name
is to be forgotten: then a name that no random id holds by chance.
"""

from __future__ import annotations

import pytest
import test_clubs_api
from conftest import ContractClient, stored
from test_clubs_api import bearer, ids, new_club, new_evening, played, read

import api.clubs
from api import admin, create_app, store

pytestmark = pytest.mark.both_stores
clock, season = test_clubs_api.clock, test_clubs_api.season  # the fixtures of `test_clubs_api`

PERSON = "Zenobiusz"


@pytest.fixture
def summarized(monkeypatch) -> list[str]:
    """The ids of the matches summarized (their logs folded for the club) from now on, in order."""
    made: list[str] = []
    real = api.clubs.summarize

    def spied(match, *args, **kwargs):
        made.append(kwargs["match_id"])
        return real(match, *args, **kwargs)

    monkeypatch.setattr(api.clubs, "summarize", spied)
    return made


def new_process(app):
    """A new app on the same data: a server process just started, holding nothing in memory."""
    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    again.test_client_class = ContractClient
    return again.test_client()


def summaries_stored(app) -> dict[str, tuple[int, str]]:
    return {match_id: (seq, text) for match_id, seq, text in
            stored(app, "SELECT match_id, seq, summary FROM match_summaries")}


def latest(client, match: dict) -> int:
    return client.get(f"/api/matches/{match['id']}").get_json()["seq"]


def test_a_new_process_reads_the_stored_summaries_and_refolds_no_log(app, client, season, summarized):
    club, matches = season["club"], season["matches"]
    first = read(client, club)
    assert sorted(summarized) == sorted(match["id"] for match in matches)  # the first read ever makes them
    kept = summaries_stored(app)
    assert {match_id: seq for match_id, (seq, _) in kept.items()} == {match["id"]: latest(client, match)
                                                                     for match in matches}
    summarized.clear()
    again = new_process(app)
    assert read(again, club) == first
    member = ids(first)["Ann"]
    figures = again.get(f"/api/clubs/{club['id']}/members/{member}", headers=bearer(club["key"])).get_json()
    assert figures["figures"] == first["figures"][member]
    assert summarized == []  # no log refolded: every summary was the store's
    assert summaries_stored(app) == kept


def test_an_undo_or_a_correction_moves_the_seq_and_only_that_match_is_summarized_again(app, client, season,
                                                                                     summarized):
    club, (a, _, c) = season["club"], season["matches"]
    before = read(client, club)
    member = ids(before)
    assert before["figures"][member["Dan"]]["ogorek"]["wins"] == 0
    undone = client.post(f"/api/matches/{a['id']}/undo", headers=bearer(a["key"]))
    assert undone.status_code == 201, undone.get_json()
    # match C: Ann out first, then Dan (seq 2); corrected, Bob is out second and Dan wins
    corrected = client.post(f"/api/matches/{c['id']}/events", headers=bearer(c["key"]),
                            json={"type": "correct", "seq": 2, "with": {"type": "penalty", "seat": 1, "points": 22}})
    assert corrected.status_code == 201, corrected.get_json()
    summarized.clear()
    after = read(new_process(app), club)
    assert sorted(summarized) == sorted([a["id"], c["id"]])  # the two written to, and nothing else
    assert after["figures"][member["Dan"]]["ogorek"]["wins"] == 1
    assert after["figures"][member["Ann"]]["ogorek"]["matches"] == 2  # match A is no longer over
    kept = summaries_stored(app)
    assert kept[a["id"]][0] == latest(client, a) and kept[c["id"]][0] == latest(client, c)
    summarized.clear()
    assert read(new_process(app), club) == after and summarized == []  # the new summaries are the store's
    assert read(client, club) == after  # and the first process made them again too, at the new seqs


def test_a_stored_summary_names_no_one_and_a_forgotten_name_leaves_no_trace(app, client, clock, summarized):
    club = new_club(client)
    evening = new_evening(client, club)
    first = played(client, evening, [PERSON, "Bob", "Cid"], 2, 1)
    played(client, evening, ["Bob", PERSON, "Cid"], 0, 2)
    read(client, club)
    undone = client.post(f"/api/matches/{first['id']}/undo", headers=bearer(first["key"]))
    assert undone.status_code == 201
    shown = read(client, club)  # the summary of the first match stored again, at its new seq
    person = ids(shown)[PERSON]
    assert len(summaries_stored(app)) == 2
    assert not [text for _, text in summaries_stored(app).values() if PERSON.casefold() in text.casefold()]

    admin.forget(app.config["DATABASE"], PERSON.upper())

    summarized.clear()
    for reader in (client, new_process(app)):
        after = read(reader, club)
        assert ids(after)[admin.FORGOTTEN] == person
        assert after["figures"][person] == shown["figures"][person]
        assert PERSON.casefold() not in str(after).casefold()
    assert summarized == []  # the stored summaries named no one: nothing to make again
    assert not [text for _, text in summaries_stored(app).values() if PERSON.casefold() in text.casefold()]
    database = app.config["DATABASE"]
    if not database.startswith("postgresql://"):
        for suffix in ("", "-wal"):
            with open(f"{database}{suffix}", "rb") as file:
                assert PERSON.casefold().encode() not in file.read().lower(), f"the file{suffix} holds the name"


def test_a_restored_backup_serves_its_own_history_not_a_summary_of_the_one_put_aside(app, client, season,
                                                                                   tmp_path):
    club, (a, _, _) = season["club"], season["matches"]
    backed_up = read(client, club)
    member = ids(backed_up)
    backup = tmp_path / "friday.backup"
    admin.backup(app.config["DATABASE"], backup)
    undone = client.post(f"/api/matches/{a['id']}/undo", headers=bearer(a["key"]))
    assert undone.status_code == 201
    put_aside = read(client, club)  # match A no longer over, its summary stored at the undo's seq
    assert put_aside["figures"][member["Ann"]]["ogorek"]["matches"] == 2
    seq = latest(client, a)

    admin.restore(app.config["DATABASE"], backup)

    assert read(client, club)["figures"] == backed_up["figures"]
    # the same seq again, in the restored history: match A (Cid out, then Bob) corrected so that Ann is out second
    corrected = client.post(f"/api/matches/{a['id']}/events", headers=bearer(a["key"]),
                            json={"type": "correct", "seq": 2, "with": {"type": "penalty", "seat": 0, "points": 22}})
    assert corrected.status_code == 201, corrected.get_json()
    assert latest(client, a) == seq
    for reader in (client, new_process(app)):
        figures = read(reader, club)["figures"]
        assert figures[member["Ann"]]["ogorek"]["matches"] == 3
        assert figures[member["Bob"]]["ogorek"]["wins"] == 2  # match A is Bob's now, as match C is


def test_a_summary_made_before_an_operators_change_is_not_stored_after_it(app, client, season):
    club, (a, b, c) = season["club"], season["matches"]
    read(client, club)
    with app.app_context():
        held = store.current()
        generation = held.generation()
    admin.delete_match(app.config["DATABASE"], c["id"])
    assert c["id"] not in summaries_stored(app)  # deleted with its match
    with app.app_context():
        held.keep_summaries([(c["id"], 1, "{}")], generation)  # made before the deletion: not stored
        assert c["id"] not in summaries_stored(app)
        now = held.generation()
        assert now != generation
        kept = summaries_stored(app)[a["id"]]
        held.keep_summaries([(a["id"], kept[0] - 1, "{}"), (b["id"], 99, "{}")], now)
    assert summaries_stored(app)[a["id"]] == kept  # never replaced by one of an older seq
    assert summaries_stored(app)[b["id"]] == (99, "{}")
