"""The API guide's short sessions (`new` a match, then `log` events) answer exactly what docs/api.md shows.

Each `sh` block that starts a match with `new '<json>'` and logs events with `log '<json>'` is played
over the API; the block after it must show, line by line, what `log` prints: the recorded event, or
the error.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from test_server_smoke import server  # noqa: F401 - the real gunicorn, for the shell

from referee import GAMES

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def session_blocks() -> list[tuple[str, str]]:
    """(the sh block, the block after it) of every session in the API guide."""
    blocks = BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    found = []
    for (kind, text), (_, shown) in zip(blocks, blocks[1:], strict=False):
        lines = text.splitlines()
        if kind == "sh" and any(line.startswith("new '") for line in lines) and any(
                line.startswith("log '") for line in lines):
            assert lines[0].startswith("new '") and all(line.startswith("log '") for line in lines[1:]), (
                f"a session is one `new` line, then `log` lines:\n{text}")
            found.append((text, shown))
    return found


def sessions() -> list[tuple[dict, list[dict], list[str]]]:
    """(the new match, the events logged, the lines shown) of every session in the API guide."""
    found = []
    for text, shown in session_blocks():
        new, *logged = [json.loads(line.split(" ", 1)[1][1:-1]) for line in text.splitlines()]
        found.append((new, logged, shown.splitlines()))
    return found


def test_the_api_guide_shows_a_session_of_every_game():
    assert sorted(new["game"] for new, _, _ in sessions()) == sorted(GAMES)


def test_each_session_answers_what_the_api_guide_shows(table):
    for new, events, shown in sessions():
        match = table.new_match(**new)
        printed = []
        for event in events:
            response = table.client.post(f"/api/matches/{match['id']}/events", json=event,
                                         headers={"Authorization": f"Bearer {match['key']}"})
            answer = response.get_json()
            printed.append(str(answer.get("event") or answer["error"]))
        assert printed == shown, new["game"]


@pytest.mark.server
def test_the_sessions_run_in_a_shell_with_curl_against_a_real_server(server, tmp_path):  # noqa: F811
    guide = GUIDE.read_text(encoding="utf-8")
    [setup] = [text for kind, text in BLOCK.findall(guide) if kind == "sh" and "new() {" in text]
    assert "API=http://127.0.0.1:8000/api\n" in setup
    script = setup.replace("API=http://127.0.0.1:8000/api", f"API={server}/api")
    script += "".join(text for text, _ in session_blocks())
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "".join(shown for _, shown in session_blocks())
