"""The derivable parts of openapi.yaml are written from the engine, and a stale file is caught."""

from __future__ import annotations

import pytest

from api import contract
from referee import GAMES
from referee.games.ogorek import Ogorek


def test_the_committed_contract_is_what_the_engine_derives():
    contract.check()


def test_a_stale_catalogue_example_is_caught_with_the_difference(tmp_path):
    text = contract.SPEC.read_text(encoding="utf-8")
    stale = tmp_path / "openapi.yaml"
    stale.write_text(text.replace("max_players: 8", "max_players: 9", 1), encoding="utf-8")
    with pytest.raises(contract.StaleContract) as caught:
        contract.check(stale)
    assert "-                  max_players: 9" in str(caught.value)
    assert "+                  max_players: 8" in str(caught.value)


def test_write_then_check_leaves_nothing_to_write(tmp_path):
    text = contract.SPEC.read_text(encoding="utf-8")
    assert contract.derived(contract.derived(text)) == contract.derived(text)


# --- the games' own schemas and events ------------------------------------------------------------------------

class Shuffling(Ogorek):
    "Ogórek with an event of its own, `shuffle`, standing in for a game that brings a new event"

    name = "ogorek_shuffling"
    event_fields = {**Ogorek.event_fields, "shuffle": frozenset({"seat", "times"})}
    event_types = frozenset(event_fields)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_event_a_game_brings_is_written_from_its_description(game):
    schemas = contract.load(contract.SPEC.read_text(encoding="utf-8"))["components"]["schemas"]
    for kind, described in GAMES[game].event_schemas.items():
        schema = schemas[f"{kind.title()}Event"]
        assert game in schema["x-games"]
        assert schema["description"] == described["description"]
        assert list(schema["allOf"][1]["properties"]) == ["type", *described["properties"]]
        assert schemas["Event"]["discriminator"]["mapping"][kind] == f"#/components/schemas/{kind.title()}Event"


def test_a_new_event_is_written_once_its_game_describes_it(monkeypatch):
    text = contract.SPEC.read_text(encoding="utf-8")
    monkeypatch.setitem(GAMES, Shuffling.name, Shuffling())
    with pytest.raises(ValueError, match="'shuffle' of ogorek_shuffling has no schema"):
        contract.all_game_schemas(text)
    monkeypatch.setattr(Shuffling, "event_schemas", {"shuffle": {
        "description": "The deck shuffled.", "required": ["seat"], "properties": {"seat": {"$ref": "Seat"}}}})
    with pytest.raises(ValueError, match="reads times in a shuffle event"):
        contract.all_game_schemas(text)
    monkeypatch.setattr(Shuffling, "event_schemas", {"shuffle": {
        "description": "The deck shuffled.", "required": ["seat"],
        "properties": {"seat": {"$ref": "Seat"}, "times": {"type": "integer", "minimum": 1}}}})
    schemas = contract.all_game_schemas(text)
    assert schemas["ShuffleEvent"]["x-games"] == ["ogorek_shuffling"]
    assert schemas["ShuffleEvent"]["allOf"][1]["properties"]["seat"] == {"$ref": "#/components/schemas/Seat"}
    assert schemas["Event"]["discriminator"]["mapping"]["shuffle"] == "#/components/schemas/ShuffleEvent"
    assert schemas["OgorekShufflingState"]["allOf"][1]["properties"]["game"] == {"const": "ogorek_shuffling"}
    assert "ogorek_shuffling" in schemas["State"]["discriminator"]["mapping"]
