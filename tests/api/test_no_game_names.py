"""The page, the bench and the API learn games from the catalogue: none of them names a game."""

from __future__ import annotations

import re
from pathlib import Path

from referee import GAMES

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = [ROOT / "webui" / "static" / "js", ROOT / "api", ROOT / "bench"]


def named(text: str) -> set[str]:
    return {name for name in GAMES if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text)}


def test_the_check_finds_a_game_name():
    assert named('const rules = state.game === "ogurets";') == {"ogurets"}
    assert named("t(`deal.${game}`)") == set()


def test_no_script_or_module_of_the_page_the_bench_or_the_api_names_a_game():
    found = {str(path.relative_to(ROOT)): sorted(named(path.read_text(encoding="utf-8")))
             for folder in FOLDERS for path in sorted(folder.rglob("*")) if path.suffix in (".js", ".py")}
    assert {path: names for path, names in found.items() if names} == {}
