"""A `text/event-stream` as its reader takes it, for the contract's check (`check_contract` in tests/conftest.py).

A stream is checked message by message: `blocks` cuts it into the blocks that carry data (the `retry` line alone
and the comments are no message: an `EventSource` dispatches neither), `message` reads a block's fields as an
`EventSource` and schemathesis do (`data` lines joined, `event` "message" when none is sent), and `check_content`
validates the fields that carry JSON (`contentMediaType: application/json`) against their `contentSchema`, which
JSON Schema 2020-12, and so openapi-core, takes as an annotation only.
"""

from __future__ import annotations

import json
import re

from openapi_schema_validator import OAS31Validator

LINE_END = re.compile(r"\r\n|\r|\n")
BLOCK_END = re.compile(r"(?:\r\n|\r|\n){2}")


def blocks(text: str) -> list[str]:
    """The complete blocks of a stream that carry data, in order."""
    *complete, _ = BLOCK_END.split(text.removeprefix("\ufeff"))
    return [block for block in complete
            if any(line == "data" or line.startswith("data:") for line in LINE_END.split(block))]


def message(block: str | bytes) -> dict:
    """One block's fields as an `EventSource` reads them: `data`, `event`, and `id` and `retry` when sent."""
    if isinstance(block, bytes):
        block = block.decode("utf-8")
    fields: dict = {}
    data = []
    for line in LINE_END.split(block):
        if not line or line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        elif name == "retry" and value.isascii() and value.isdigit():
            fields["retry"] = int(value)
        elif name in ("id", "event"):
            fields[name] = value
    if not data:
        raise ValueError(f"a block without data is no message: {block!r}")
    return {"event": "message", **fields, "data": "\n".join(data)}


def check_content(fields: dict, schema: dict, components: dict) -> None:
    """Each field of a message that `schema` says carries JSON, parsed and validated against its `contentSchema`:
    raises `json.JSONDecodeError` or `jsonschema.ValidationError`."""
    for name, field in schema.get("properties", {}).items():
        if name in fields and field.get("contentMediaType") == "application/json" and "contentSchema" in field:
            OAS31Validator({**field["contentSchema"], "components": components}).validate(json.loads(fields[name]))
