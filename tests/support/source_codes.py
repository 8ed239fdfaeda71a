"""The one scanner of Kibic's source for the codes it gives: the referee's verdicts, the rules a play breaks, the
input errors and the API's own errors, read from where they are raised or returned. The registry of verdict codes
(`referee.CODES`) is held to what this finds (tests/engine/test_verdict_codes.py), the page's words to both
(tests/page/test_page_words.py, tests/engine/test_verdict_words.py); each test asks for the codes it is about."""

from __future__ import annotations

import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RULES = [  # the rules a known hand's play, a bid, an attack or a beat breaks (a broken rule, forceable)
    r'return "(\w+)", \(?f?"', r'\(\("(\w+)", f?"', r'breaks\.append\(\(\s*"(\w+)"', r'return \(?"(\w+)", \(?f?"',
    r'code = "(\w+)" if .* else "(\w+)"',
]
VERDICTS = [  # what the referee says of an event: a refusal or a warning, and the rules broken
    r'Rejected\(\s*"(\w+)"', r'RefereeWarning\(\s*"(\w+)"', r'breaks\.append\(\(\s*"(\w+)"',
    r'return \(?"(\w+)", \(?f?"', r'code = "(\w+)" if .* else "(\w+)"',
]
CODES = [  # every code an answer may carry: the referee's, an input error, the API's own
    r'(?:Rejected|InvalidInput|RefereeWarning)\(\s*"(\w+)"',  # verdicts of the referee
    r'__init__\("(\w+)"',  # CardError's bad_card
    r'return "(\w+)", \(?f?"',  # the rule a known hand's play breaks, or a claim's disproof
    r'\(\("(\w+)", f?"',  # the rules an attack breaks
    r'code = "(\w+)"(?: if .* else "(\w+)")?',  # the API's own errors; a wrong beat
    r'\d{3}: "(\w+)"',  # HTTP errors
    r'error_response\(\d+, "(\w+)"',
]


def referee_files(game_file: str | None = None) -> list[Path]:
    """The engine's modules, or one game's file in referee/games."""
    return [ROOT / "referee" / "games" / game_file] if game_file else sorted(ROOT.joinpath("referee").rglob("*.py"))


def api_files() -> list[Path]:
    return sorted(ROOT.joinpath("api").rglob("*.py"))


@functools.cache
def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def scan(patterns: list[str], files: list[Path]) -> set[str]:
    """Every code the patterns find in the files (each group of a match that found one)."""
    return {code for path in files for pattern in patterns for match in re.finditer(pattern, text(path))
            for code in match.groups() if code}


def rule_codes() -> set[str]:
    return scan(RULES, referee_files())


def verdict_codes(game_file: str | None = None) -> set[str]:
    return scan(VERDICTS, referee_files(game_file))


def all_codes() -> set[str]:
    return scan(CODES, [*referee_files(), *api_files()])


def engine_codes() -> set[str]:
    """The codes the referee itself gives (the registry `referee.CODES` is exactly these)."""
    return scan(CODES, referee_files())


def input_error_codes() -> dict[str, set[str]]:
    """The codes of the 422 input errors (the engine's `InvalidInput`, a card it cannot read, the API's own 422
    errors), each with the `case`s its details name."""
    found: dict[str, set[str]] = {}
    api_codes = [r'status = 422\s+code = "(\w+)"', r'error_response\(422, "(\w+)"', r'super\(\).__init__\("(\w+)"']
    for path in [*referee_files(), *api_files()]:
        for match in re.finditer(r'InvalidInput\(\s*"(\w+)"((?:[^()]|\([^()]*\))*)\)', text(path)):
            found.setdefault(match.group(1), set()).update(re.findall(r'"case": "(\w+)"', match.group(2)))
        for code in [code for pattern in api_codes for code in re.findall(pattern, text(path))]:
            found.setdefault(code, set())
    return found
