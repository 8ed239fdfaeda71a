"""Events name their format, and the engine reads every older one (referee/formats.py): old logs keep replaying.

An event without a `format` is format 1; the engine reads it in the current format, in one place, on every read
(a replay, the store's log, an event stored by another process), and writes every new event in the current
format. The recorded logs of format 1 (tests/support/logs/<game>/format-1-forced.json, recorded by the engine as it was
before events named their format) replay to their stored final state, exactly as the same logs read in the
current format do, and an old match in the database is served in the current format, as the contract says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from record_logs import LOGS, final_read, without_gained

from api import store
from referee import GAMES, Match
from referee.formats import CURRENT, HAND_RULES, STEPS, upgrade, written
from referee.verdicts import CODES

FORMAT_1_LOGS = sorted(path for path in LOGS.glob("*/*.json")
                       if not any("format" in event for event in json.loads(path.read_text("utf-8"))["events"]))
MESSAGE = "W must play 7 or higher (7 K), not 6."  # as format 1 recorded it
SENTENCE = "The player holds a card that reaches the top of the trick and must play it."
FORMAT_1_PLAY = {"type": "play", "seat": 1, "card": "6", "force": True,
                 "illegal": {"code": "must_play_higher", "message": MESSAGE},
                 "warnings": [{"code": "must_play_higher", "message": f"Let stand: {MESSAGE}", "seat": 1}], "seq": 4}


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_each_format_after_the_first_is_reached_by_one_step():
    assert CURRENT == 2 and len(STEPS) == CURRENT - 1


def test_an_event_without_a_format_is_format_1_and_is_read_in_the_current_format():
    assert upgrade(FORMAT_1_PLAY) == {
        **FORMAT_1_PLAY, "format": CURRENT,
        "illegal": {**FORMAT_1_PLAY["illegal"], "details": {}, "message": SENTENCE},
        "warnings": [{**FORMAT_1_PLAY["warnings"][0], "details": {}, "message": f"Let stand: {SENTENCE}"}],
    }  # "(7 K)" were cards of W's entered hand: format 2 says the rule instead
    assert "format" not in FORMAT_1_PLAY and "details" not in FORMAT_1_PLAY["illegal"]  # the stored event is kept


def test_an_event_of_the_current_format_is_read_as_it_is():
    event = written({"type": "play", "seat": 1, "card": "6", "force": True,
                     "illegal": {"code": "must_play_higher", "message": "…", "details": {"card": "6", "top": "7"}}})
    assert event["format"] == CURRENT
    assert upgrade(event) == event


@pytest.mark.parametrize("version", [0, CURRENT + 1, "2", True, None, 1.5])
def test_an_event_of_a_format_the_engine_does_not_know_is_refused_by_name(version):
    with pytest.raises(ValueError, match=f"event 5 is written in format {version!r}; this referee reads formats 1"):
        upgrade({"type": "end", "format": version, "seq": 5})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_new_events_are_written_in_the_current_format(game):
    spec = GAMES[game]
    match = Match.create(game, ["Ann", "Bob", "Cid"][:max(spec.min_players, 2)])
    command = {"type": "deal", "dealer": 0, **({"trump": "9S"} if "trump" in spec.event_fields["deal"] else {}),
               **({"attacker": 1} if "attacker" in spec.event_fields["deal"] else {})}
    deal, _, _ = match.play(command)
    undo, _, _ = match.play({"type": "undo"})
    assert (deal["format"], undo["format"]) == (CURRENT, CURRENT)
    assert all(event["format"] == CURRENT for event in match.events_view())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_recorded_log_in_the_current_format_too(game):
    current = [path for path in LOGS.glob(f"{game}/*.json") if path not in FORMAT_1_LOGS]
    assert current, f"no recorded log of {game} in the current format: run `python tests/support/record_logs.py`"
    for path in current:
        assert all(event["format"] == CURRENT for event in read(path)["events"]), path


def test_the_recorded_logs_of_format_1_hold_forced_plays_and_warnings_without_details():
    # the logs the simulators recorded before events named their format: of every game of that time
    assert {path.parent.name for path in FORMAT_1_LOGS} == {"ogorek", "ogurets", "oh_hell", "duren", "agurk"}
    old = [path for path in FORMAT_1_LOGS if path.stem == "format-1-forced"]
    assert {path.parent.name for path in old} == {"ogorek", "oh_hell"}
    for path in old:
        events = read(path)["events"]
        forced = [event for event in events if "illegal" in event]
        assert forced and not any("details" in event["illegal"] for event in forced)
        assert not any("details" in warning for event in events for warning in event.get("warnings", []))


@pytest.mark.parametrize("path", FORMAT_1_LOGS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_log_of_format_1_replays_as_the_same_log_read_in_the_current_format(path: Path):
    log = read(path)
    replayed = Match.replay(log["header"], log["events"])
    upgraded = [upgrade(event) for event in log["events"]]
    assert replayed.log == upgraded and all(event["format"] == CURRENT for event in replayed.log)
    again = Match.replay(log["header"], upgraded)
    assert json.loads(json.dumps(again.view())) == json.loads(json.dumps(replayed.view()))
    assert without_gained(json.loads(json.dumps(replayed.view())), log) == final_read(log)
    for event, old in zip(upgraded, log["events"], strict=True):
        # only the format and empty details are added, and a hand rule's message is its sentence
        bare = {key: value for key, value in event.items() if key != "format"}
        if "illegal" in old:
            bare["illegal"] = as_recorded(bare["illegal"], old["illegal"])
        if "warnings" in old:
            bare["warnings"] = [as_recorded(warning, recorded)
                                for warning, recorded in zip(bare["warnings"], old["warnings"], strict=True)]
        assert bare == old


def as_recorded(verdict: dict, recorded: dict) -> dict:
    """An upgraded verdict without what format 2 changed, to compare with the format-1 one it was read from."""
    assert verdict["details"] == {}
    if verdict["code"] in HAND_RULES:
        assert verdict["message"] in (CODES[verdict["code"]].sentence, "Let stand: " + CODES[verdict["code"]].sentence)
        assert verdict["message"].startswith("Let stand: ") == recorded["message"].startswith("Let stand: ")
        return {**{key: value for key, value in verdict.items() if key != "details"}, "message": recorded["message"]}
    return {key: value for key, value in verdict.items() if key != "details"}


@pytest.mark.parametrize("game", sorted(path.parent.name for path in LOGS.glob("*/format-1-forced.json")))
def test_an_old_match_names_no_other_card_of_a_known_hand_to_a_reader_without_the_key(app, client, game):
    """Format 1 said "Ann must play 8 or higher (8 Q), not 7": the (8 Q) were cards of Ann's entered hand."""
    log = read(LOGS / game / "format-1-forced.json")
    verdicts = [verdict for event in log["events"] for verdict in [event.get("illegal", {}), *event.get("warnings", [])]
                if verdict.get("code") in HAND_RULES]
    recorded = [verdict["message"] for verdict in verdicts]
    assert any("(" in message for message in recorded)  # the old log does name them
    created = client.post("/api/matches", json=log["header"]).get_json()
    with app.app_context():
        held = store.current()
        for event in log["events"]:
            held.append_event(created["id"], event)
    served = client.get(f"/api/matches/{created['id']}").get_data(as_text=True)
    served += client.get(f"/api/matches/{created['id']}/events").get_data(as_text=True)
    for message in recorded:
        assert message.removeprefix("Let stand: ") not in served
    for code in {verdict["code"] for verdict in verdicts}:
        assert CODES[code].sentence in served


def test_a_header_without_an_option_the_game_gained_since_reads_it_at_its_default():
    log = read(LOGS / "ogorek" / "format-1-forced.json")
    header = {**log["header"], "options": {name: value for name, value in log["header"]["options"].items()
                                           if name not in ("all_out", "cut_penalty")}}
    view = json.loads(json.dumps(Match.replay(header, log["events"]).view()))
    assert view["options"] == log["final"]["options"] and without_gained(view, log) == log["final"]


def test_an_old_match_in_the_database_is_served_in_the_current_format(app, client):
    log = read(LOGS / "ogorek" / "format-1-forced.json")
    created = client.post("/api/matches", json={**log["header"], "players": log["header"]["players"]}).get_json()
    with app.app_context():
        held = store.current()
        for event in log["events"]:  # as a server of the time stored them
            held.append_event(created["id"], event)
    events = client.get(f"/api/matches/{created['id']}/events").get_json()["events"]  # checked against the contract
    assert [event["seq"] for event in events] == [event["seq"] for event in log["events"]]
    assert all(event["format"] == CURRENT for event in events)
    assert all("details" in warning for event in events for warning in event.get("warnings", []))
    state = client.get(f"/api/matches/{created['id']}").get_json()
    assert state["findings"] == log["final"]["findings"] and state["players"] == log["final"]["players"]
    headers = {"Authorization": f"Bearer {created['key']}"}
    answer = client.post(f"/api/matches/{created['id']}/undo", headers=headers, json={})
    assert answer.status_code == 201 and answer.get_json()["event"]["format"] == CURRENT


def test_the_contract_names_the_current_format():
    from conftest import spec

    recorded = spec()["components"]["schemas"]["RecordedEvent"]
    assert "format" in recorded["required"] and recorded["properties"]["format"]["const"] == CURRENT
