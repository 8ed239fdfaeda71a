"""The request body of an event a game brings is read by a schema made from the game's own description of it
(`Game.event_schemas`, which the contract is written from too): nothing in api/schemas.py repeats it."""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from api import schemas
from referee import GAMES
from referee.games.ogorek import Ogorek

BRINGS = [(name, kind) for name, game in GAMES.items() for kind in game.event_schemas]


def test_the_games_bring_events_of_their_own():
    assert len(BRINGS) >= 5


@pytest.mark.parametrize(("game", "kind"), BRINGS)
def test_the_schema_of_an_event_a_game_brings_is_its_description(game, kind):
    described = GAMES[game].event_schemas[kind]
    required = described.get("required", ())  # an event with no field of its own (Durak's done) names none
    loaded = schemas.event_schemas()[kind]
    assert list(loaded.fields) == ["type", "force", "expect_seq", *described["properties"]]
    assert {name for name, field in loaded.fields.items() if field.required} == {"type", *required}
    with pytest.raises(ValidationError) as refused:
        schemas.load_event({"type": kind, "unheard_of": 1})
    assert refused.value.messages == {"unheard_of": ["Unknown field."],
                                      **{name: ["Missing data for required field."] for name in required}}


def test_the_events_are_read_in_the_order_of_the_contracts_event():
    assert list(schemas.event_schemas())[:3] == ["deal", "play", "end"]
    with pytest.raises(ValidationError) as refused:
        schemas.load_event({"type": "shuffle"})
    assert refused.value.messages == {"type": [f"Must be one of: {', '.join([*schemas.event_schemas(), 'correct'])}."]}


def test_sizes_are_checked_and_ranges_left_to_the_engine():
    read = schemas.event_schema("tap", {"required": ["seat"], "properties": {
        "seat": {"$ref": "Seat"}, "times": {"type": "integer", "minimum": 1, "maximum": 3},
        "cards": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"$ref": "Card"}},
        "note": {"type": ["string", "null"], "maxLength": 5}, "loud": {"type": "boolean"},
        "beat": {"$ref": "Beat"}}})()
    assert read.load({"type": "tap", "seat": 0, "times": 9, "note": None}) == {"type": "tap", "seat": 0, "times": 9,
                                                                               "note": None}
    with pytest.raises(ValidationError) as refused:
        read.load({"type": "tap", "seat": 0, "cards": [], "note": "longer", "loud": 1, "beat": {"card": "9S"}})
    assert refused.value.messages == {"cards": ["Length must be between 1 and 2."],
                                      "note": ["Longer than maximum length 5."], "loud": ["Not a valid boolean."],
                                      "beat": {"with": ["Missing data for required field."]}}


@pytest.mark.parametrize(("described", "said"), [
    ({"type": "string", "pattern": "^[0-9]+$"}, "the tap event.note is described in a way requests are not read"),
    ({"$ref": "Evening"}, "the tap event.note names the shape 'Evening'"),
])
def test_a_description_the_requests_cannot_read_is_refused_naming_the_field(described, said):
    with pytest.raises(ValueError, match=said):
        schemas.event_schema("tap", {"properties": {"note": described}})


class Tapping(Ogorek):
    name = "ogorek_tapping"


def test_an_event_described_twice_and_differently_or_a_shared_one_is_refused(monkeypatch):
    monkeypatch.setitem(GAMES, Tapping.name, Tapping())
    monkeypatch.setattr(Tapping, "event_schemas", {"penalty": {"properties": {"seat": {"$ref": "Seat"}}}})
    with pytest.raises(ValueError, match="'penalty' is described twice, and differently"):
        schemas.event_schemas()
    monkeypatch.setattr(Tapping, "event_schemas", {"play": {"properties": {"seat": {"$ref": "Seat"}}}})
    with pytest.raises(ValueError, match="ogorek_tapping describes the play event, which is every game's"):
        schemas.event_schemas()
