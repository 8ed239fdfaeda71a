"""`python -m api.contract --write | --check`: the parts of openapi.yaml that the engine derives.

The catalogue example of `GET /api/games`, the state example of each game on `GET /api/matches/{id}` (each
game's `example`: the new match and its events, played through the API), the games of each event schema
(`x-games`), each game's options (`<Game>Options`, and the options `<Game>State` requires) and the engine's
verdict codes (`VerdictCode`, from `referee.verdicts.CODES`) are written into
`openapi.yaml` from the engine; the paths, the prose and the shared schemas stay hand-written. `--check`
fails with the difference when the file is stale (`make test` runs it).
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from pathlib import Path

import yaml

from referee import CODES, GAMES, catalogue

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
            examples[name] = {"summary": game.example["summary"], "value": {**state, "id": EXAMPLE_ID}}
    return examples


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
    mapping = yaml.safe_load(text)["components"]["schemas"]["Event"]["discriminator"]["mapping"]
    return {ref.rsplit("/", 1)[1]: [name for name, game in GAMES.items() if kind in game.event_types]
            for kind, ref in mapping.items()}


def schema_name(game: str) -> str:
    """The prefix of a game's schemas: its name in title case without underscores."""
    return "".join(word.title() for word in game.split("_"))


def option_schema(option) -> dict:
    """An option's schema from the engine's description of it: its type, choices or limits, default and
    description."""
    described = option.describe()
    schema: dict = {"type": {"boolean": "boolean", "integer": "integer", "choice": "string"}[option.kind]}
    if "choices" in described:
        schema["enum"] = described["choices"]
    schema |= {limit: described[limit] for limit in ("minimum", "maximum") if limit in described}
    return {**schema, "default": option.default, "description": option.description}


def put_options(text: str) -> str:
    """Each game's options into `<Game>Options` (a list of hand sizes, `sequence`, stays hand-written) and the
    options `<Game>State` requires."""
    for name, game in GAMES.items():
        prefix = schema_name(name)
        for option in game.options:
            if option.kind != "sequence":
                text = put(text, ("components", "schemas", f"{prefix}Options", "properties", option.name),
                           option_schema(option), flow=False)
        text = put_flow(text, ("components", "schemas", f"{prefix}State", "properties", "options"),
                        {"$ref": f"#/components/schemas/{prefix}Options",
                         "required": [option.name for option in game.options]})
    return text


def derived(text: str) -> str:
    """The spec's text with its derived parts written from the engine."""
    text = put(text, CATALOGUE_AT, {"games": catalogue()})
    text = put(text, STATES_AT, state_examples())
    for schema, games in event_games(text).items():
        text = put_flow(text, ("components", "schemas", schema, "x-games"), games)
    text = put_options(text)
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
