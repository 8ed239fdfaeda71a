"""A game's options: a table's choice of rules, with its default and limits, checked and described."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NEW = object()
"""An option's `earlier` when matches created before the option existed were played by its default."""


@dataclass(frozen=True)
class Option:
    """A table's choice of rules, with its default and limits, as the catalogue shows it."""

    name: str
    kind: str  # "integer", "boolean", "choice", or "sequence" (a choice or a list of integers)
    default: Any
    description: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    earlier: Any = NEW
    """The value a match created before the option existed keeps (the rule it was created with), where that is
    not the default: read by `formats.header_read` for a header that does not name the option."""

    @property
    def before(self) -> Any:
        """What a match whose header does not name this option plays by."""
        return self.default if self.earlier is NEW else self.earlier

    def check(self, value: Any) -> Any:
        if self.kind == "boolean":
            if not isinstance(value, bool):
                raise ValueError("must be true or false")
        elif self.kind == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError("must be a whole number")
            if self.choices and value not in self.choices:
                raise ValueError(f"must be one of {', '.join(map(str, self.choices))}")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"must be at most {self.maximum}")
        elif self.kind in ("choice", "sequence"):
            if self.kind == "sequence" and isinstance(value, list):
                if not value or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                    raise ValueError("must be a choice or a non-empty list of whole numbers")
                return list(value)
            if value not in self.choices:
                raise ValueError(f"must be one of {', '.join(map(str, self.choices))}")
        return value

    def describe(self) -> dict:
        out = {"name": self.name, "type": self.kind, "default": self.default, "description": self.description}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out
