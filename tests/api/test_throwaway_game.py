"""A game registered for a test only (Sprint, tests/support/throwaway_game.py) is taken up by everything that learns
the games from the registry: the catalogue (`GET /api/games`), the contract written from the engine (its schemas,
its event, its examples), the request bodies of its own event (read from its description), the page's keypad
(tests/page/test_page_throwaway_game.py) and the tests that loop over the games, called here with Sprint. The
steps of docs/adding-a-game.md that Sprint skips (its words, its recorded logs, its session, the contract written
into openapi.yaml, its oracle and its walks through the page) fail the tests that hold every game to them, naming
Sprint and what to add. Once the test is over, Sprint is in the registry no more.
"""

from __future__ import annotations

import pytest
from conftest import Table
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, ValidationError
from per_game import MissingEntry
from throwaway_game import NAME, registered

from api import contract, schemas
from referee import GAMES, catalogue


@pytest.fixture
def sprint():
    with registered() as game:
        yield game


@pytest.fixture
def served(app, sprint) -> Table:
    """The API over a fresh database, its answers not held to openapi.yaml (which knows no Sprint): the tests that
    need it hold them to the contract derived with Sprint registered."""
    app.test_client_class = FlaskClient
    return Table(app.test_client())


@pytest.fixture(scope="module")
def derived() -> dict:
    """openapi.yaml as `python -m api.contract --write` would write it with Sprint registered."""
    with registered():
        return contract.load(contract.derived(contract.SPEC.read_text(encoding="utf-8")))


def validator(document: dict, name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": document["components"]})


def test_registered_for_the_block_only():
    assert NAME not in GAMES
    with registered() as game:
        assert GAMES[NAME] is game
    assert NAME not in GAMES and NAME not in [entry["game"] for entry in catalogue()]


# --- the catalogue, the contract, the request bodies --------------------------------------------------------------

def test_the_catalogue_lists_it_with_its_rules(served):
    listed = served.client.get("/api/games").get_json()["games"]
    [sprint] = [entry for entry in listed if entry["game"] == NAME]
    assert sprint["events"] == ["deal", "end", "knock", "play"]
    assert [option["name"] for option in sprint["options"]] == ["ace_led_lowest", "deals"]
    rules = sprint["rules"]
    assert (rules["keypad"], rules["trick"], rules["hand_sizes"]["3"]) == ("ranks", "climb", [3])
    assert rules["ranks"] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_the_contract_written_from_the_engine_describes_it(derived):
    components = derived["components"]["schemas"]
    for shape in ("Options", "Player", "Deal", "DealResult", "Expected", "State", "NewMatchState"):
        assert f"Sprint{shape}" in components, shape
    assert components["State"]["discriminator"]["mapping"][NAME] == "#/components/schemas/SprintState"
    knock = components["KnockEvent"]
    assert knock["x-games"] == [NAME]
    assert knock["allOf"][1]["required"] == ["type", "seat"]
    assert components["Event"]["discriminator"]["mapping"]["knock"] == "#/components/schemas/KnockEvent"
    games = derived["paths"]["/api/games"]["get"]["responses"]["200"]["content"]["application/json"]["example"]
    assert NAME in [entry["game"] for entry in games["games"]]
    examples = derived["paths"]["/api/matches/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
    state = examples["examples"][NAME]["value"]  # its example match, played through the API
    assert state["expected"] == {"type": "play", "seat": 2, "deal": 1, "trick": 1, "rule": "lowest", "top": "A",
                                 "exhausted": []}
    validator(derived, "State").validate(state)


def test_its_state_and_its_event_are_as_the_derived_contract_says(served, derived):
    match = served.new_match(players=["S", "W", "N"], game=NAME, options={"deals": 1})
    validator(derived, "NewMatchState").validate(match)
    answer = served.post_event(match, {"type": "knock", "seat": 1, "times": 2})
    assert answer["event"] == {"type": "knock", "seat": 1, "times": 2, "format": 2, "seq": 1}
    validator(derived, "KnockEvent").validate({"type": "knock", "seat": 1, "times": 2})
    state = served.state(match, keyed=True)
    validator(derived, "State").validate(state)
    assert [player["minus_points"] for player in state["players"]] == [0, 2, 0]
    with pytest.raises(ValidationError):
        validator(derived, "State").validate({**state, "players": [{**state["players"][0], "minus_points": -1}]})


def test_the_request_body_of_its_event_is_read_from_its_description(served, sprint):
    assert list(schemas.event_schemas())[-1] == "knock"
    assert list(schemas.event_schemas()["knock"].fields) == ["type", "force", "expect_seq", "seat", "times"]
    match = served.new_match(players=["S", "W"], game=NAME)
    for body, details in [({"type": "knock"}, {"seat": ["Missing data for required field."]}),
                          ({"type": "knock", "seat": 0, "times": "2"}, {"times": ["Not a valid integer."]}),
                          ({"type": "knock", "seat": 0, "loud": True}, {"loud": ["Unknown field."]})]:
        refused = served.post_event(match, body, expect=422)["error"]
        assert (refused["code"], refused["details"]) == ("invalid_input", details), body
    range_is_the_engines = served.post_event(match, {"type": "knock", "seat": 0, "times": 4}, expect=422)["error"]
    assert range_is_the_engines["code"] == "bad_points"
    other_game = served.new_match(players=["S", "W"], game="ogorek")
    assert served.post_event(other_game, {"type": "knock", "seat": 0}, expect=422)["error"]["code"] == \
        "bad_event_type"


def test_without_it_its_event_is_no_request_at_all(client, table):
    assert "knock" not in schemas.event_schemas()
    refused = table.post_event(table.new_match(), {"type": "knock", "seat": 0}, expect=422)["error"]
    assert refused["code"] == "invalid_input" and "knock" not in refused["message"]


# --- the tests that loop over the games, with Sprint --------------------------------------------------------------

def test_the_tests_of_every_game_play_it(served, sprint):
    import test_api_corrections
    import test_club_games
    import test_corrections
    import test_event_formats
    import test_every_game
    import test_hidden_hands
    import test_match
    import test_nothing_dropped
    import test_page_knows_every_game
    import test_shared_skeletons

    test_shared_skeletons.test_a_game_leaves_the_shared_skeleton_to_the_base(sprint)
    test_shared_skeletons.test_a_trick_game_says_only_what_is_legal_who_takes_the_trick_what_a_blind_play_claims_and_how_a_deal_scores(sprint)  # noqa: E501
    test_shared_skeletons.test_a_game_plays_tricks_through_the_trick_base_when_its_rules_say_who_takes_a_trick(sprint)
    test_shared_skeletons.test_a_climbing_game_with_the_ace_led_takes_the_familys_rule(sprint)
    test_nothing_dropped.test_every_event_of_every_game_says_which_fields_it_reads(sprint)
    test_event_formats.test_new_events_are_written_in_the_current_format(NAME)
    test_every_game.test_every_game_has_a_table_simulator(NAME)
    for seed in test_every_game.SEEDS:
        test_every_game.test_random_playouts_replay_to_the_served_view_and_the_money_sums_to_zero(served, NAME, seed)
    test_api_corrections.test_random_corrections_of_every_game_through_the_api(served, NAME)
    test_corrections.test_a_random_correction_is_the_log_rebuilt_with_it(NAME)
    test_hidden_hands.test_a_play_let_stand_tells_a_reader_without_the_key_only_what_the_blind_match_tells(NAME)
    test_match.test_a_match_let_go_is_freed_at_once_with_no_cycle_left_for_the_collector(NAME, 60)
    test_page_knows_every_game.test_the_page_draws_every_kind_the_games_rules_name(NAME)
    test_club_games.test_each_game_names_only_figures_the_club_knows(NAME)
    test_club_games.test_a_whole_match_tallies_what_its_record_says(NAME, 1)


def test_the_random_tables_meet_its_verdicts_and_the_page_says_them(sprint, monkeypatch):
    import test_verdict_words

    assert test_verdict_words.GAME_FILES[NAME] == ("climbing.py",)  # derived: the rules it takes from its family
    # three cards a hand rarely show every copy of a rank (`card_already_played`): as any game whose tables need
    # more than the default, Sprint has its entry in BUDGET
    monkeypatch.setitem(test_verdict_words.BUDGET, NAME, (300, 150))
    test_verdict_words.test_the_random_tables_meet_every_verdict_of_their_game(NAME)
    for lang in test_verdict_words.LANGUAGES:
        test_verdict_words.test_every_verdict_met_is_said_with_every_placeholder_filled(NAME, lang)


def test_its_recorded_logs_would_replay(sprint, tmp_path):
    import json

    import record_logs
    import test_recorded_logs

    path = tmp_path / NAME / "001-table.json"
    path.parent.mkdir()
    path.write_text(json.dumps(record_logs.simulated(NAME, 1)), encoding="utf-8")
    test_recorded_logs.test_a_recorded_log_replays_to_its_stored_final_state(path)
    test_recorded_logs.test_the_money_of_a_recorded_match_sums_to_zero(path)


# --- the steps it skipped fail by name ----------------------------------------------------------------------------

def test_the_steps_it_skipped_fail_the_tests_that_hold_every_game_to_them(sprint):
    import test_game_cases
    import test_page_axe
    import test_page_words
    import test_provable_plays
    import test_readme_sessions
    import test_recorded_logs

    with pytest.raises(contract.StaleContract, match="SprintState"):  # openapi.yaml not written again
        contract.check()
    with pytest.raises(AssertionError, match="write tests/engine/test_sprint.py"):
        test_game_cases.test_every_game_has_its_hand_worked_cases(NAME)
    with pytest.raises(AssertionError, match="record_logs.py"):
        test_recorded_logs.test_every_game_has_recorded_logs(NAME)
    with pytest.raises(AssertionError):
        test_page_words.test_every_game_and_option_is_translated("pl", next(
            entry for entry in catalogue() if entry["game"] == NAME))
    with pytest.raises(AssertionError, match=r"i18n/ru.json has no deal.sprint, result.sprint.other"):
        test_page_words.test_every_game_has_the_words_the_page_asks_for_it_by_name("ru", NAME)
    with pytest.raises(AssertionError):
        test_readme_sessions.test_the_api_guide_shows_a_session_of_every_game()
    with pytest.raises(MissingEntry, match="RANK_ORDERS in tests/engine/test_provable_plays.py .* 'sprint'"):
        test_provable_plays.test_the_oracle_knows_the_order_of_play_of_every_climbing_game(NAME)
    with pytest.raises(MissingEntry, match="SCREENS in tests/page/test_page_axe.py .* 'sprint'"):
        test_page_axe.SCREENS[NAME]


def test_a_game_without_a_table_simulator_fails_naming_the_table():
    from game_tables import SIMULATORS

    with pytest.raises(MissingEntry, match="SIMULATORS in tests/support/game_tables.py has no entry for the game "
                                           "'sprint': add its table simulator"):
        SIMULATORS[NAME]
