"""`referee/` is the pure rules engine: it imports nothing outside the standard library."""

import ast
import sys
from pathlib import Path

import pytest

REFEREE = Path(__file__).resolve().parents[2] / "referee"


def foreign_imports(source: str) -> list[str]:
    """The modules a source imports that are neither the standard library nor the referee's own."""
    foreign = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [] if node.level else [node.module]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in (
                "__import__", "import_module"):
            names = ["<dynamic import>"]
        else:
            continue
        foreign += [name for name in names if name.split(".")[0] not in sys.stdlib_module_names | {"referee"}]
    return foreign


def modules():
    return sorted(REFEREE.rglob("*.py"))


def test_the_referee_has_its_modules():
    names = {path.relative_to(REFEREE).as_posix() for path in modules()}
    assert {"cards.py", "match.py", "knowledge.py", "settlement.py", "games/base.py", "games/ogorek.py"} <= names


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.relative_to(REFEREE).as_posix())
def test_referee_imports_only_the_standard_library(path):
    assert foreign_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source, foreign",
    [
        ("import flask", ["flask"]),
        ("import os, marshmallow.fields", ["marshmallow.fields"]),
        ("from sqlite_utils import Database", ["sqlite_utils"]),
        ("from api.store import x", ["api.store"]),
        ("def f():\n    import hypothesis", ["hypothesis"]),
        ("importlib.import_module('flask')", ["<dynamic import>"]),
        ("__import__('flask')", ["<dynamic import>"]),
        ("from __future__ import annotations\nimport decimal\nfrom collections import Counter", []),
        ("from .cards import Card\nfrom ..verdicts import Rejected\nimport referee.cards", []),
    ],
)
def test_the_check_sees_foreign_imports(source, foreign):
    assert foreign_imports(source) == foreign
