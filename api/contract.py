"""`python -m api.contract --write | --check`: the parts of openapi.yaml that the engine derives.

Written from the engine: the catalogue example of `GET /api/games`; the state example of each game on
`GET /api/matches/{id}` (each game's `example`: the new match and its events, played through the API); the
games of each event schema (`x-games`); the engine's verdict codes (`VerdictCode`, from `referee.verdicts.CODES`);
and, between two marker lines, every game's own schemas: `<Game>Options` from its options, `<Game>Player`,
`<Game>Deal`, `<Game>Expected` and the shapes they name from `Game.schemas`, `<Game>State` and
`<Game>NewMatchState`, and `State` and `NewMatchState`, which tell the games apart by `game`. They are written
as client generators read them (an extension is `allOf` of its base and an object of the fields it adds; unions
have a discriminator). The paths, the prose and the shared schemas stay hand-written. `--check` fails with the
difference when the file is stale (`make test` runs it).
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import tempfile
from pathlib import Path

import yaml

from referee import CODES, GAMES, catalogue
from referee.match import MATCH_EVENTS

SHARED_EVENTS = sorted(MATCH_EVENTS - {"undo"})
"""The events every game has, which the match handles (a correction), sent on the events route: the contract's own
schemas (undo has its own route)."""

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
EXAMPLE_ID = "hY3kq0XgJ8sVt2mR5wZbNA"
CATALOGUE_AT = ("paths", "/api/games", "get", "responses", '"200"', "content", "application/json", "example")
STATES_AT = ("paths", "/api/matches/{id}", "get", "responses", '"200"', "content", "application/json", "examples")
CODES_AT = ("components", "schemas", "VerdictCode")


class StaleContract(Exception):
    "openapi.yaml differs from what the engine derives"


def state_examples() -> dict:
    """Each game's example match, played through the API, as its scorer reads it."""
    from . import create_app

    examples = {}
    with tempfile.TemporaryDirectory(prefix="kibic-contract-") as folder:
        client = create_app({"TESTING": True, "DATABASE": str(Path(folder) / "referee.db")}).test_client()
        for name, game in GAMES.items():
            created = client.post("/api/matches", json={"game": name, **game.example["match"]}).get_json()
            scorer = {"Authorization": f"Bearer {created['key']}"}
            for event in game.example["events"]:
                answer = client.post(f"/api/matches/{created['id']}/events", json=event, headers=scorer)
                if answer.status_code != 201:
                    raise RuntimeError(f"{name}'s example: {event} is refused: {answer.get_json()}")
            state = client.get(f"/api/matches/{created['id']}", headers=scorer).get_json()
            state = json.loads(json.dumps({**state, "id": EXAMPLE_ID}, sort_keys=True))  # the example's keys sorted
            examples[name] = {"summary": game.example["summary"], "value": state}
    return examples


# libyaml's parser and emitter where PyYAML was built with it (its wheels are), Python's otherwise: the same YAML,
# read and measured several times faster (the derivation reads openapi.yaml twice and measures ~700 parts)
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def load(text: str):
    """The YAML document `text` (openapi.yaml), as `yaml.safe_load` reads it."""
    return yaml.load(text, Loader=SAFE_LOADER)


def block(lines: list[str], path: tuple[str, ...]) -> tuple[int, int, int]:
    """The lines [start, end) of the value of the key at `path`, and the key's indent."""
    start, end, indent = 0, len(lines), -1
    for key in path:
        for number in range(start, end):
            line = lines[number]
            depth = len(line) - len(line.lstrip())
            if depth > indent and line.strip().startswith(f"{key}:"):
                indent, start = depth, number
                break
        else:
            raise KeyError(f"openapi.yaml has no {'.'.join(path)}")
        end = next((n for n in range(start + 1, end) if lines[n].strip()
                    and len(lines[n]) - len(lines[n].lstrip()) <= indent), end)
    return start, end, indent


def put(text: str, path: tuple[str, ...], value: object, flow: bool | None = None) -> str:
    lines = text.splitlines(keepends=True)
    start, end, indent = block(lines, path)
    dumped = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=110, default_flow_style=flow)
    body = [" " * (indent + 2) + line + "\n" for line in dumped.splitlines()]
    return "".join(lines[:start] + [" " * indent + f"{path[-1]}:\n"] + body + lines[end:])


def put_flow(text: str, path: tuple[str, ...], value: list) -> str:
    """A one-line list at `path`, written in flow style: `key: [a, b]`."""
    lines = text.splitlines(keepends=True)
    start, end, indent = block(lines, path)
    dumped = yaml.safe_dump(value, default_flow_style=True, width=10_000).strip()
    return "".join(lines[:start] + [" " * indent + f"{path[-1]}: {dumped}\n"] + lines[end:])


def event_games(text: str) -> dict[str, list[str]]:
    """Each event schema of the spec, and the games that have its event (its `x-games`)."""
    mapping = load(text)["components"]["schemas"]["Event"]["discriminator"]["mapping"]
    return {ref.rsplit("/", 1)[1]: [name for name, game in GAMES.items()
                                    if kind in game.event_types or kind in SHARED_EVENTS]
            for kind, ref in mapping.items()}


def schema_name(game: str) -> str:
    """The prefix of a game's schemas: its name in title case without underscores."""
    return "".join(word.title() for word in game.split("_"))


OPTION_TYPES = {"boolean": "boolean", "integer": "integer", "choice": "string"}
GAME_SCHEMAS_START = "    # --- the games' own schemas"
GAME_SCHEMAS_END = "    # --- end of the games' own schemas"


def option_schema(option) -> dict:
    """An option's schema from the engine's description of it: its type, choices or limits, default and
    description. A `sequence` is one of its choices or a list of whole numbers."""
    described = option.describe()
    if option.kind == "sequence":
        schema: dict = {"oneOf": [{"type": "string", "enum": described["choices"]},
                                  {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 1}}]}
    else:
        schema = {"type": OPTION_TYPES[option.kind]}
        if "choices" in described:
            schema["enum"] = described["choices"]
        schema |= {limit: described[limit] for limit in ("minimum", "maximum") if limit in described}
    return {**schema, "default": option.default, "description": option.description}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    return {"oneOf": [schema, {"type": "null"}]}


def game_schemas(name: str, game, shared: dict) -> dict[str, dict]:
    """A game's own schemas, named `<Game>...`: its options, its shapes (`Game.schemas`: the player's own
    fields, the deal, what is expected and the shapes they name) and its state, as generators read them: each
    object named once, extensions as `allOf` of the base and the fields added, unions of events due with a
    discriminator on `type`."""
    prefix = schema_name(name)
    own = game.schemas

    def extended(schema: dict) -> dict:
        """`{allOf: [base], properties, required}` as `allOf` of the base and an object of the fields added."""
        schema = dict(schema)
        [base] = [entry["$ref"] for entry in schema.pop("allOf")]
        added = {"type": "object", **{key: schema.pop(key) for key in ("required", "properties") if key in schema}}
        schema.pop("unevaluatedProperties", None)
        return {**schema, "allOf": [{"$ref": base}, added], "unevaluatedProperties": False}

    def resolve(schema: dict) -> dict:
        name = schema["$ref"].rsplit("/", 1)[1]
        return schemas[name] if name in schemas else shared[name]

    schemas: dict[str, dict] = {}
    schemas[f"{prefix}Options"] = {
        "type": "object", "additionalProperties": False,
        "required": [option.name for option in game.options],
        "description": f"{game.title}'s options, every one of them (one not given takes its default).",
        "properties": {option.name: option_schema(option) for option in game.options}}
    for shape, schema in own.items():
        schema = full_refs(schema, own, prefix)
        if shape == "Player":
            lives = {"type": "integer", "minimum": 0} if "lives" in game.player_figures else {"type": "null"}
            schema = {"description": f"A player of {game.title}.", **schema, "allOf": [ref("PlayerStanding")],
                      "properties": {"lives": lives, **schema.get("properties", {})}}
        if "allOf" in schema:
            schema = extended(schema)
        schemas[prefix + shape] = schema
    expected = schemas[f"{prefix}Expected"] = {"description": f"What {game.title} expects next.",
                                                **schemas[f"{prefix}Expected"]}
    expected["discriminator"] = {"propertyName": "type", "mapping": {
        resolve(variant)["properties"]["type"]["const"]: variant["$ref"] for variant in expected["oneOf"]}}
    schemas[f"{prefix}State"] = {
        "description": f"A match of {game.title} as it stands: the fields of every match, and {game.title}'s own.",
        "allOf": [ref("StateFields"), {
            "type": "object",
            "required": ["game", "options", "players", "deal", "expected"],
            "properties": {
                "game": {"const": name},
                "options": ref(f"{prefix}Options"),
                "players": {"type": "array", "items": ref(f"{prefix}Player")},
                "deal": {"description": "The current deal (the last one, between deals), null before the first.",
                         **nullable(ref(f"{prefix}Deal"))},
                "expected": {"description": "What must happen next; null when the match is over.",
                             **nullable(ref(f"{prefix}Expected"))}}}],
        "unevaluatedProperties": False}
    schemas[f"{prefix}NewMatchState"] = {
        "description": f"A new match of {game.title}, and its key (shown only here).",
        "allOf": [ref(f"{prefix}State"), {"type": "object", "required": ["key"]}]}
    return schemas


def event_schema_name(kind: str) -> str:
    return f"{kind.title()}Event"


def event_schemas(shared: dict) -> dict[str, dict]:
    """The events the games bring (`Game.event_schemas`), each in one schema `<Type>Event`, and `Event`, the
    union of every event of every game told apart by `type`. An event of several games (deal, play, end) is a
    shared schema; every field a game reads in an event is in the event's schema."""
    kinds: dict[str, list[str]] = {}
    declared: dict[str, dict] = {}
    for name, game in GAMES.items():
        for kind in game.event_fields:
            kinds.setdefault(kind, []).append(name)
        for kind, schema in game.event_schemas.items():
            if declared.setdefault(kind, schema) != schema:
                raise ValueError(f"the event {kind!r} is described twice, and differently ({name})")
    schemas: dict[str, dict] = {}
    for kind, schema in declared.items():
        fields = {key: schema[key] for key in ("required", "properties") if key in schema}
        schemas[event_schema_name(kind)] = {
            "description": schema["description"], "x-games": kinds.get(kind, []),
            "allOf": [ref("EventFields"), {
                "type": "object", "required": ["type", *fields.get("required", [])],
                "properties": {"type": {"const": kind}, **full_refs(fields.get("properties", {}), {})}}],
            "unevaluatedProperties": False}
    for kind, names in kinds.items():
        schema = schemas.get(event_schema_name(kind)) or shared.get(event_schema_name(kind))
        if schema is None:
            raise ValueError(f"the event {kind!r} of {', '.join(names)} has no schema: describe it in the game's "
                             f"event_schemas, or as {event_schema_name(kind)} among the shared schemas")
        described = schema["allOf"][1]["properties"]
        for name in names:
            unknown = GAMES[name].event_fields[kind] - set(described)
            if unknown:
                raise ValueError(f"{name} reads {', '.join(sorted(unknown))} in a {kind} event, which "
                                 f"{event_schema_name(kind)} does not describe")
    for kind in SHARED_EVENTS:
        if event_schema_name(kind) not in shared:
            raise ValueError(f"the event {kind!r} of every game has no schema: describe it as "
                             f"{event_schema_name(kind)} among the shared schemas")
    mapping = {kind: ref(event_schema_name(kind))["$ref"] for kind in [*kinds, *SHARED_EVENTS]}
    schemas["Event"] = {
        "description": "One event; its `type` says which. Each game has its own events (`x-games` on each schema, "
                       "and `events` in the catalogue): an event the game does not have is `422 bad_event_type`, a "
                       "field the game does not read in it `422 unused_field`.",
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping}}
    return schemas


def full_refs(node, own: dict, prefix: str = ""):
    """Short `$ref`s made whole: a name of the game's own (then `prefix` + name), else a shared schema's."""
    if isinstance(node, dict):
        return {key: (ref(prefix + value if value in own else value)["$ref"] if key == "$ref"
                      else full_refs(value, own, prefix)) for key, value in node.items()}
    if isinstance(node, list):
        return [full_refs(value, own, prefix) for value in node]
    return node


def all_game_schemas(text: str) -> dict[str, dict]:
    """Every game's own schemas, the states of all games told apart by `game`, and the events."""
    shared = load(text)["components"]["schemas"]
    schemas: dict[str, dict] = {}
    for name, game in GAMES.items():
        schemas |= game_schemas(name, game, shared)

    def union(kind: str) -> dict:
        mapping = {name: ref(f"{schema_name(name)}{kind}")["$ref"] for name in GAMES}
        return {"oneOf": [{"$ref": target} for target in mapping.values()],
                "discriminator": {"propertyName": "game", "mapping": mapping}}

    schemas["State"] = {"description": "A match as it stands; `game` says which game's fields it has.",
                        **union("State"), "not": {"required": ["key"]}}
    schemas["NewMatchState"] = {"description": "The state of the new match, and its key (shown only here).",
                                **union("NewMatchState")}
    return schemas | event_schemas(shared)


class FlowDumper(yaml.SafeDumper):
    """YAML that reads like the hand-written parts: short objects and lists on one line."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)

    def represent_mapping(self, tag, mapping, flow_style=None):
        return super().represent_mapping(tag, mapping, flow_style=short(mapping))

    def represent_sequence(self, tag, sequence, flow_style=None):
        flat = not any(isinstance(item, dict | list) for item in sequence)
        return super().represent_sequence(tag, sequence, flow_style=flat or short(sequence))


def short(value) -> bool:
    return len(yaml.dump(value, Dumper=SAFE_DUMPER, default_flow_style=True, width=10_000, allow_unicode=True)) <= 90


def put_game_schemas(text: str) -> str:
    """The games' own schemas between their two marker lines."""
    lines = text.splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if line.startswith(GAME_SCHEMAS_START))
    end = next(n for n, line in enumerate(lines) if line.startswith(GAME_SCHEMAS_END))
    dumped = yaml.dump(all_game_schemas(text), Dumper=FlowDumper, sort_keys=False, allow_unicode=True, width=116)
    return "".join(lines[:start + 1] + ["    " + line + "\n" for line in dumped.splitlines()] + lines[end:])


def derived(text: str) -> str:
    """The spec's text with its derived parts written from the engine."""
    text = put(text, CATALOGUE_AT, {"games": catalogue()})
    text = put(text, STATES_AT, state_examples())
    text = put_game_schemas(text)
    for schema, games in event_games(text).items():
        text = put_flow(text, ("components", "schemas", schema, "x-games"), games)
    text = put_flow(text, (*CODES_AT, "enum"), list(CODES))
    return put(text, (*CODES_AT, "x-verdicts"), [
        {"code": code, "status": listed.status, "forceable": listed.forceable, "sentence": listed.sentence}
        for code, listed in CODES.items()])


def check(path: Path = SPEC) -> None:
    text = path.read_text(encoding="utf-8")
    fresh = derived(text)
    if fresh != text:
        diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), fresh.splitlines(keepends=True),
                                            "openapi.yaml", "derived from the engine"))
        raise StaleContract(f"openapi.yaml is stale: run `python -m api.contract --write`.\n{diff}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m api.contract", description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="write the derived parts into openapi.yaml")
    action.add_argument("--check", action="store_true", help="fail with the difference when openapi.yaml is stale")
    args = parser.parse_args(argv)
    if args.write:
        SPEC.write_text(derived(SPEC.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    try:
        check()
    except StaleContract as stale:
        print(stale, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
