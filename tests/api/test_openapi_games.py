"""openapi.yaml describes every game: its options with their defaults, its events, the state it shows.

The state's game-dependent fields (options, the players' own fields, the deal, what is expected) are
bound by `game` to the game's schemas, and the test client holds every answer to them. The examples of
states and refusals are what the API really answers.
"""

from __future__ import annotations

import json

import pytest
from flask import Response
from jsonschema.exceptions import ValidationError
from ogorek_helpers import SEED_HANDS, SEED_TRICKS
from openapi_core.validation.response.exceptions import ResponseValidationError

from referee import GAMES

GAME_NAMES = sorted(GAMES)
EVENT_TYPES = ["deal", "play", "bid", "exchange", "attack", "defend", "penalty", "end"]

# How the state examples of GET /api/matches/{id} come about: the new match, then its events
STATE_EXAMPLES = {name: ({"game": name, **game.example["match"]}, game.example["events"])
                  for name, game in GAMES.items()}

SEED_PLAYS = [{"type": "play", "seat": "SWNE".index(seat), "card": card}
              for trick in SEED_TRICKS for seat, card in trick]
# How the refusals of the 409 examples come about: the new match, its events, and the refused one
REFUSAL_EXAMPLES = {
    "rule": ({"game": "ogorek", "players": list("SWNE")},
             [{"type": "deal", "dealer": 0, "hands": {str("SWNE".index(s)): h for s, h in SEED_HANDS.items()}},
              *SEED_PLAYS[:19]], {"type": "play", "seat": 1, "card": "6"}),
    "turn": ({"game": "ogorek", "players": list("SWNE")}, [{"type": "deal", "dealer": 0}, SEED_PLAYS[0]],
             {"type": "play", "seat": 1, "card": "K"}),
    "hook": (*STATE_EXAMPLES["oh_hell"], {"type": "bid", "seat": 0, "bid": 0}),
    "revoke": ({"game": "oh_hell", "players": ["Ann", "Bob", "Cid"], "options": {"sequence": [3]}},
               [{"type": "deal", "dealer": 2, "hands": {"1": ["4S", "JS", "2H"]}},
                *({"type": "bid", "seat": seat, "bid": 1} for seat in (0, 1, 2)),
                {"type": "play", "seat": 0, "card": "AS"}], {"type": "play", "seat": 1, "card": "2H"}),
    "attack": (STATE_EXAMPLES["duren"][0], STATE_EXAMPLES["duren"][1][:1],
               {"type": "attack", "seat": 1, "cards": ["9S", "JD", "KC"]}),
    "faceUp": (STATE_EXAMPLES["duren"][0], STATE_EXAMPLES["duren"][1][:1],
               {"type": "attack", "seat": 1, "cards": ["10H"]}),
}


def schema_name(game: str) -> str:
    """The prefix of a game's schemas: ogorek -> Ogorek, oh_hell -> OhHell."""
    return "".join(word.title() for word in game.split("_"))


def schemas(openapi_spec: dict) -> dict:
    return openapi_spec["components"]["schemas"]


def game_state_schema(openapi_spec: dict, game: str) -> dict:
    """The schema `State` tells apart by `game` (its discriminator)."""
    return {"$ref": schemas(openapi_spec)["State"]["discriminator"]["mapping"][game]}


def own_fields(schema: dict) -> dict:
    """The fields a schema adds to the one it extends (`allOf: [base, {fields}]`)."""
    base, added = schema["allOf"]
    return added["properties"]


def play(table, new: dict, events: list[dict]) -> dict:
    match = table.new_match(**new)
    for event in events:
        table.post_event(match, event)
    return match


# --- the spec, against the referee --------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_state_binds_every_game_to_its_own_schemas(openapi_spec, game):
    name = schema_name(game)
    assert game_state_schema(openapi_spec, game) == {"$ref": f"#/components/schemas/{name}State"}
    assert {"$ref": f"#/components/schemas/{name}State"} in schemas(openapi_spec)["State"]["oneOf"]
    fields = own_fields(schemas(openapi_spec)[f"{name}State"])
    assert fields["game"] == {"const": game}
    assert fields["options"]["$ref"] == f"#/components/schemas/{name}Options"
    assert fields["players"]["items"] == {"$ref": f"#/components/schemas/{name}Player"}
    assert fields["deal"]["oneOf"] == [{"$ref": f"#/components/schemas/{name}Deal"}, {"type": "null"}]
    assert fields["expected"]["oneOf"] == [{"$ref": f"#/components/schemas/{name}Expected"}, {"type": "null"}]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_option_of_every_game_is_in_the_spec_with_its_default(openapi_spec, game):
    name = schema_name(game)
    documented = schemas(openapi_spec)[f"{name}Options"]["properties"]
    options = GAMES[game].options
    assert list(documented) == [option.name for option in options]
    assert schemas(openapi_spec)[f"{name}Options"]["required"] == list(documented)
    for option in options:
        spec = documented[option.name]
        assert spec["default"] == option.default, option.name
        assert len(spec["description"]) >= 20, option.name
        choices = next((branch for branch in spec.get("oneOf", [spec]) if "enum" in branch), {}).get("enum")
        assert choices == (list(option.choices) or None), option.name
        assert (spec.get("minimum"), spec.get("maximum")) == (option.minimum, option.maximum), option.name


def test_the_catalogue_example_lists_every_game_with_its_events_and_option_defaults(openapi_spec, client):
    operation = openapi_spec["paths"]["/api/games"]["get"]
    example = operation["responses"]["200"]["content"]["application/json"]["example"]
    real = client.get("/api/games").get_json()

    def gist(catalogue: dict) -> list:
        return [(g["game"], g["min_players"], g["max_players"], g["suited"], g["events"],
                 [(o["name"], o["type"], o["default"], o.get("choices")) for o in g["options"]])
                for g in catalogue["games"]]

    assert gist(example) == gist(real)


@pytest.mark.parametrize("kind", EVENT_TYPES)
def test_each_event_schema_names_the_games_that_have_it(openapi_spec, kind):
    mapping = schemas(openapi_spec)["Event"]["discriminator"]["mapping"]
    schema = schemas(openapi_spec)[mapping[kind].rsplit("/", 1)[1]]
    assert sorted(schema["x-games"]) == sorted(game.name for game in GAMES.values() if kind in game.event_types)


# --- the examples are real ------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_state_examples_are_what_the_api_answers(openapi_spec, table, game):
    examples = openapi_spec["paths"]["/api/matches/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
    example = examples["examples"][game]["value"]
    match = play(table, *STATE_EXAMPLES[game])
    assert {**table.state(match, keyed=True), "id": example["id"]} == example  # the scorer's view


@pytest.mark.parametrize("name", sorted(REFUSAL_EXAMPLES))
def test_the_refusal_examples_are_what_the_api_answers(openapi_spec, table, name):
    examples = openapi_spec["components"]["responses"]["Conflict"]["content"]["application/json"]["examples"]
    new, events, refused = REFUSAL_EXAMPLES[name]
    match = play(table, new, events)
    assert table.post_event(match, refused, expect=409) == examples[name]["value"]


# --- the contract holds a game's state to the game's schemas ---------------------------------------------------

def breakages(state: dict, other_deal: dict) -> dict[str, dict]:
    """The state broken in ways only the game's own schemas can see."""
    return {
        "an unknown field in the deal": {**state, "deal": {**state["deal"], "surprise": 1}},
        "an unknown field in a player": {**state, "players": [{**state["players"][0], "surprise": 1},
                                                              *state["players"][1:]]},
        "a player without the game's own field": {**state, "players": [
            dict(list(state["players"][0].items())[:-1]), *state["players"][1:]]},
        "another game's deal": {**state, "deal": other_deal},
        "an option the game does not have": {**state, "options": {**state["options"], "surprise": 1}},
        "an option missing": {**state, "options": dict(list(state["options"].items())[1:])},
        "an expected event the game does not have": {**state, "expected": {**state["expected"], "type": "bid"}
                                                     if state["game"] != "oh_hell" else {"type": "attack", "seat": 0}},
    }


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_contract_refuses_a_state_that_breaks_its_games_schemas(app, table, contract_check, game):
    states = {name: table.state(play(table, *STATE_EXAMPLES[name])) for name in {game, "duren", "ogorek"}}
    state = states[game]
    other_deal = states["duren" if game != "duren" else "ogorek"]["deal"]
    with app.test_request_context(f"/api/matches/{state['id']}"):
        from flask import request

        def answer(body: dict) -> Response:
            response = Response(json.dumps(body), status=200, mimetype="application/json")
            response.request = request
            return response

        contract_check(answer(state))
        for why, broken in breakages(state, other_deal).items():
            with pytest.raises((ResponseValidationError, ValidationError)):
                contract_check(answer(broken))
                pytest.fail(f"the contract let {why} through")
