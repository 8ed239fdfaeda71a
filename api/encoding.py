"""JSON answers whose cost does not grow with the match: a long match's history is encoded once per deal.

The state of a match carries its `history`, one entry per deal played: a series of hundreds of deals
would be encoded again at every play and every poll. An entry never changes once the deal is scored,
so `history_text` keeps each match's history as JSON text and encodes only the entries added since; the
app's JSON provider puts that text into the answer as it is.
"""

from __future__ import annotations

import json
import secrets
import threading
import weakref
from typing import Any

from flask.json.provider import DefaultJSONProvider

from referee import Match

MARK = f"kibic-encoded-{secrets.token_hex(8)}-"  # stands in for a fragment while the rest is encoded


class Encoded:
    "JSON text, put into an answer as it is"

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with `Encoded` fragments spliced in, its keys in the order the state is built (sorting
    them was about a fifth of encoding a play's answer; nothing reads the text by its order: an ETag names
    the match's seq, not the bytes)."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        fragments: list[str] = []

        def default(value: Any) -> Any:
            if isinstance(value, Encoded):
                fragments.append(value.text)
                return f"{MARK}{len(fragments) - 1}"
            return self.default(value)

        text = super().dumps(obj, **{**kwargs, "default": default})
        if fragments and text.count(MARK) != len(fragments):  # the data itself holds the mark: no splicing
            return super().dumps(obj, **{**kwargs, "default": self.decoded})
        for number, fragment in enumerate(fragments):
            text = text.replace(f'"{MARK}{number}"', fragment, 1)
        return text

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
_lock = threading.Lock()


def history_text(match: Match) -> Encoded:
    """The match's history as JSON text; a match that left the cache takes its text with it."""
    with _lock:
        text = _texts.get(match)
        if text is None:
            text = _texts[match] = HistoryText()
        return Encoded(text.of(match.state.history))
