"""JSON answers whose cost does not grow with the match: a long match's history is encoded once per deal.

The state of a match carries its `history`, one entry per deal played: a series of hundreds of deals
would be encoded again at every play and every poll. An entry never changes once the deal is scored,
so `history_text` keeps each match's history as JSON text and encodes only the entries added since; the
app's JSON provider puts that text into the answer as it is.
"""

from __future__ import annotations

import json
import weakref
from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

from referee import Match

from . import loop

# Types orjson would write its own way are handed to Flask's `default`, as the standard library's encoder would
# (a date as an HTTP date, a dataclass through `asdict`); keys that are not strings are written as `json` does.
OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class Encoded:
    "JSON text, put into an answer as it is"

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON written by orjson (encoding a play's answer with the standard library took as long as the
    engine's view of the match), with `Encoded` fragments put in as they are and the keys in the order the
    state is built (nothing reads the text by its order: an ETag names the match's seq, not the bytes).
    Non-ASCII text is written as UTF-8, which JSON is."""

    sort_keys = False

    def encode(self, obj: Any) -> bytes:
        option = OPTIONS | (orjson.OPT_INDENT_2 if self._app.debug else 0)
        try:
            return orjson.dumps(obj, default=self.fragment, option=option)
        except orjson.JSONEncodeError:  # what orjson does not take (an integer beyond 64 bits): as `json` writes it
            return json.dumps(obj, default=self.decoded, ensure_ascii=False, separators=(",", ":")).encode()

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # a caller's own settings (indent, sort_keys): the standard library's encoder
            return super().dumps(obj, **{**kwargs, "default": self.decoded})
        return self.encode(obj).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        return self._app.response_class(self.encode(self._prepare_response_obj(args, kwargs)) + b"\n",
                                        mimetype=self.mimetype)

    def fragment(self, value: Any) -> Any:
        return orjson.Fragment(value.text) if isinstance(value, Encoded) else self.default(value)

    def decoded(self, value: Any) -> Any:
        return json.loads(value.text) if isinstance(value, Encoded) else self.default(value)


class HistoryText:
    """The JSON text of one match's history, extended entry by entry."""

    def __init__(self) -> None:
        self.entries: list[dict] = []
        self.parts: list[str] = []
        self.text = "[]"  # the parts joined, kept until an entry is added

    def of(self, history: list[dict]) -> str:
        known = len(self.entries)
        if known > len(history) or any(history[i] is not self.entries[i] for i in (0, known - 1) if known):
            self.entries, self.parts, self.text, known = [], [], "[]", 0  # folded again (an undo): the entries are new
        if len(history) > known:
            for entry in history[known:]:
                self.entries.append(entry)
                self.parts.append(json.dumps(entry, sort_keys=True, separators=(",", ":")))
            self.text = "[" + ",".join(self.parts) + "]"
        return self.text


_texts: weakref.WeakKeyDictionary[Match, HistoryText] = weakref.WeakKeyDictionary()
_lock = loop.real_lock()  # held for a few steps that never wait


def history_text(match: Match) -> Encoded:
    """The match's history as JSON text; a match that left the cache takes its text with it."""
    with _lock:
        text = _texts.get(match)
        if text is None:
            text = _texts[match] = HistoryText()
        return Encoded(text.of(match.state.history))


def inert(cell: str) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula: a name starting with = + - @, a tab or a
    carriage return gets a ' (a name is never a number: "-2+3" and "-1+cmd|..." are formulas too)."""
    if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + cell
    return cell
