"""openapi.yaml: a valid OpenAPI 3.1 document that matches the app's routes and documents every option."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from flask import Response
from jsonschema.exceptions import ValidationError as SchemaError
from openapi_core.templating.responses.exceptions import ResponseNotFound
from openapi_core.validation.response.exceptions import ResponseValidationError
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate as validate_spec

from api import contract
from referee import catalogue

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = {"get", "post", "put", "patch", "delete"}


@functools.cache
def spec() -> dict:
    return contract.load(SPEC_PATH.read_text(encoding="utf-8"))


def test_the_spec_is_valid_openapi_3_1():
    validate_spec(spec())
    assert spec()["openapi"].startswith("3.1")


def test_the_spec_has_exactly_the_apps_routes(app):
    in_app = {
        (rule.rule.replace("<", "{").replace(">", "}").replace("{match_id}", "{id}"), method.lower())
        for rule in app.url_map.iter_rules() if rule.endpoint != "static" and not rule.endpoint.startswith("webui.")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    in_spec = {(path, method) for path, item in spec()["paths"].items() for method in item if method in METHODS}
    assert in_spec == in_app


def test_every_operation_documents_its_errors_with_the_error_shape():
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            statuses = set(operation["responses"])
            assert "500" in statuses, (method, path)
            if method == "post":
                assert {"400", "413", "422"} <= statuses, (method, path)
            if "{id}" in path:
                assert "404" in statuses, (method, path)
            if path.startswith("/api/matches"):
                assert "503" in statuses, (method, path)
            if method == "post" and "{id}" in path:
                assert {"401", "403", "409"} <= statuses, (method, path)
                assert operation["security"] == [{"matchKey": []}]


@pytest.mark.parametrize("game", catalogue(), ids=lambda game: game["game"])
def test_every_game_option_is_documented(game):
    text = SPEC_PATH.read_text(encoding="utf-8")
    for option in game["options"]:
        assert f"`{option['name']}`" in text or len(option["description"]) >= 20, option


@pytest.mark.parametrize("kind", ["deal", "play", "bid", "exchange", "attack", "defend", "penalty", "end"])
def test_every_event_type_has_its_own_schema(kind):
    mapping = spec()["components"]["schemas"]["Event"]["discriminator"]["mapping"]
    schema = spec()["components"]["schemas"][mapping[kind].rsplit("/", 1)[1]]
    common, own = schema["allOf"]
    assert common == {"$ref": "#/components/schemas/EventFields"}
    assert own["properties"]["type"] == {"const": kind}
    assert schema["unevaluatedProperties"] is False


def examples():
    """(where, schema, example) for every example in the spec that sits next to a schema."""
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            if "schema" in node and ("example" in node or "examples" in node):
                values = [node["example"]] if "example" in node else [e["value"] for e in node["examples"].values()]
                found.extend((where, node["schema"], value) for value in values)
            for key, value in node.items():
                walk(value, f"{where}/{key}")

    walk(spec()["paths"], "paths")
    walk(spec()["components"]["responses"], "responses")
    return found


@pytest.mark.parametrize(("where", "schema", "example"), examples(), ids=[e[0] for e in examples()])
def test_every_example_matches_its_schema(where, schema, example):
    OAS31Validator({**schema, "components": spec()["components"]}).validate(example)


def test_the_contract_check_catches_a_response_that_breaks_it(app, contract_check):
    with app.test_request_context("/api/games"):
        from flask import request

        wrong = Response(json.dumps({"games": [{"game": "ogorek"}]}), status=200, mimetype="application/json")
        wrong.request = request
        with pytest.raises(ResponseValidationError):
            contract_check(wrong)
        undocumented = Response(json.dumps({"games": []}), status=418, mimetype="application/json")
        undocumented.request = request
        with pytest.raises(ResponseNotFound):
            contract_check(undocumented)


def test_an_unknown_route_must_still_answer_with_the_error_shape(app, contract_check):
    with app.test_request_context("/nowhere"):
        from flask import request

        wrong = Response(json.dumps({"oops": True}), status=404, mimetype="application/json")
        wrong.request = request
        with pytest.raises(SchemaError):
            contract_check(wrong)


def test_the_spec_is_served_as_it_is_in_the_repository(client):
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.data == SPEC_PATH.read_bytes()


def inline_objects(node, where: str, top: bool = False) -> list[str]:
    """Where an object with fields of its own is written inline rather than named: under `where`, except the
    named schema itself (`top`) and the object of the fields an extension adds (`allOf: [base, {fields}]`)."""
    found = []
    if isinstance(node, dict):
        if "properties" in node and not top:
            found.append(where)
        for key, value in node.items():
            if key == "allOf" and top:
                found += [spot for n, part in enumerate(value)
                          for spot in inline_objects(part, f"{where}/allOf/{n}", top=True)]
            elif key not in ("example", "examples"):
                found += inline_objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        found += [spot for n, value in enumerate(node) for spot in inline_objects(value, f"{where}/{n}")]
    return found


def test_every_object_is_a_named_schema_written_once():
    """Generators make one type per named schema; an object written inline in two places would be two types."""
    everywhere = [spot for name, schema in spec()["components"]["schemas"].items()
                  for spot in inline_objects(schema, name, top=True)]
    everywhere += inline_objects(spec()["paths"], "paths") + inline_objects(spec()["components"]["responses"],
                                                                            "responses")
    assert everywhere == []
