"""Security: headers on every answer, names served as JSON text, nothing internal in an error, keys
compared in constant time, and SQL only ever written as literal text with its values bound apart."""

from __future__ import annotations

import ast
import hmac
import sqlite3
from pathlib import Path

import pytest

from api import create_app, keys, security, store

API = Path(__file__).resolve().parents[2] / "api"
NAMES = ['<img src=x onerror="alert(1)">', "Ala & 'Ola'", "</script><script>alert(2)</script>", "Zoë 😀"]


@pytest.fixture
def dealt(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def requests_of_every_kind(client, match) -> dict:
    key = {"Authorization": f"Bearer {match['key']}"}
    return {
        "catalogue": client.get("/api/games"),
        "state": client.get(f"/api/matches/{match['id']}"),
        "contract": client.get("/openapi.yaml"),
        "recorded": client.post(f"/api/matches/{match['id']}/events", json={"type": "play", "seat": 1, "card": "K"},
                                headers=key),
        "rejected": client.post(f"/api/matches/{match['id']}/events", json={"type": "play", "seat": 3, "card": "K"},
                                headers=key),
        "no key": client.post(f"/api/matches/{match['id']}/undo"),
        "not found": client.get("/api/matches/nobody"),
        "no route": client.get("/nowhere"),
        "wrong method": client.delete("/api/games"),
    }


def test_every_answer_carries_the_security_headers(client, dealt):
    for name, response in requests_of_every_kind(client, dealt).items():
        headers = response.headers
        assert headers["X-Content-Type-Options"] == "nosniff", name
        assert headers["Referrer-Policy"] == "no-referrer", name
        assert headers["X-Frame-Options"] == "DENY", name
        assert headers["Content-Security-Policy"] == security.API_POLICY, name
        assert "default-src 'none'" in security.API_POLICY and "frame-ancestors 'none'" in security.API_POLICY


def test_the_answer_with_a_key_is_never_cached(client):
    response = client.post("/api/matches", json={"game": "ogorek", "players": ["A", "B"]})
    assert response.headers["Cache-Control"] == "no-store"


@pytest.fixture
def app_with_page(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db")})
    app.add_url_rule("/page", "page", lambda: "<!doctype html><title>Kibic</title>")
    app.add_url_rule("/own-policy", "own", lambda: ("<p>x</p>", 200, {"Content-Security-Policy": "sandbox"}))
    return app


def test_a_page_gets_a_strict_policy_that_lets_its_own_files_work(app_with_page):
    response = app_with_page.test_client().get("/page")
    policy = dict(part.strip().split(" ", 1) for part in response.headers["Content-Security-Policy"].split(";"))
    assert response.mimetype == "text/html"
    assert policy["default-src"] == policy["script-src"] == policy["style-src"] == policy["connect-src"] == "'self'"
    assert policy["object-src"] == policy["base-uri"] == policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_a_route_may_set_its_own_policy(app_with_page):
    assert app_with_page.test_client().get("/own-policy").headers["Content-Security-Policy"] == "sandbox"


def test_names_are_stored_as_given_and_served_only_as_json(client, table):
    match = table.new_match(players=NAMES)
    table.post_event(match, {"type": "deal", "dealer": 0})
    answers = [client.get(f"/api/matches/{match['id']}{path}") for path in ("", "/settlement")]
    answers.append(client.post(f"/api/matches/{match['id']}/events", json={"type": "play", "seat": 3, "card": "K"},
                               headers={"Authorization": f"Bearer {match['key']}"}))
    answers.append(client.get("/api/matches/<script>alert(3)</script>"))

    assert [p["name"] for p in answers[0].get_json()["players"]] == NAMES
    assert [p["name"] for p in answers[1].get_json()["players"]] == NAMES
    assert NAMES[1] in answers[2].get_json()["error"]["message"]  # "It is <img ...>'s turn": still JSON text
    for response in answers:
        assert response.mimetype == "application/json"
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def raising(error: Exception):
    def broken(*args, **kwargs):
        raise error

    return broken


INTERNAL_ERRORS = [
    RuntimeError("/srv/kibic/api/store.py line 3: secret"),
    sqlite3.OperationalError('near "SELEC": syntax error in SELECT key_hash FROM matches'),
    sqlite3.IntegrityError("UNIQUE constraint failed: events.match_id, events.seq"),
    KeyError("key_hash"),
]


@pytest.mark.parametrize("error", INTERNAL_ERRORS, ids=lambda error: type(error).__name__)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_an_internal_error_shows_no_trace_and_no_sql(client, dealt, monkeypatch, error, method):
    monkeypatch.setattr(store.current(client.application), "match_row", raising(error))
    held = store.current(client.application)
    monkeypatch.setattr(held, "latest_seq", raising(error))  # a cached match reads only its latest seq
    monkeypatch.setattr(held, "news", raising(error))  # (or that and the events since, as one read)
    if method == "GET":
        response = client.get(f"/api/matches/{dealt['id']}")
    else:
        response = client.post(f"/api/matches/{dealt['id']}/undo", headers={"Authorization": f"Bearer {dealt['key']}"})

    assert response.status_code == 500
    assert response.get_json() == {"error": {"code": "internal_error", "details": {},
                                             "message": "Something went wrong on the server; please try again."}}
    text = response.get_data(as_text=True)
    for leak in ("Traceback", "File ", ".py", "SELECT", "sqlite", "constraint", "key_hash", "secret"):
        assert leak not in text


def test_a_write_compares_the_key_by_its_hash_in_constant_time(client, dealt, monkeypatch):
    compared, compare_digest = [], hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return compare_digest(a, b)

    monkeypatch.setattr(keys.hmac, "compare_digest", spy)
    response = client.post(f"/api/matches/{dealt['id']}/undo", headers={"Authorization": "Bearer not-the-key"})

    assert response.status_code == 403
    with sqlite3.connect(client.application.config["DATABASE"]) as db:
        stored_hash = db.execute("SELECT key_hash FROM matches WHERE id = ?", [dealt["id"]]).fetchone()[0]
    assert compared == [(keys.hash_key("not-the-key"), stored_hash)]


# --- SQL is literal text; values are bound --------------------------------------------------------

SQL_WORDS = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "DROP ", "ALTER ", "PRAGMA ", "WHERE ", "BEGIN")
SQL_CALLS = {"execute", "executemany", "executescript", "query"}


def sql_built_from_text(source: str) -> list[str]:
    """Every place where SQL is built from pieces (f-string, %, .format, +) or given to the database as
    anything but one literal string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS:
            if node.args and not (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(f"line {node.lineno}: {node.func.attr}() of {ast.unparse(node.args[0])}")
        pieces = None
        if isinstance(node, ast.JoinedStr):
            pieces = node.values
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
            pieces = [node.left, node.right]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            pieces = [node.func.value]
        for piece in pieces or []:
            if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                if any(word in piece.value.upper() for word in SQL_WORDS):
                    found.append(f"line {node.lineno}: SQL built from pieces: {ast.unparse(node)[:80]}")
    return found


@pytest.mark.parametrize("path", sorted(API.glob("*.py")), ids=lambda path: path.name)
def test_the_api_writes_sql_only_as_literals_with_bound_values(path):
    assert sql_built_from_text(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source", [
    'db.execute(f"SELECT * FROM matches WHERE id = {match_id}")',
    'db.query("SELECT * FROM matches WHERE id = \'%s\'" % match_id)',
    'db.query("DELETE FROM events WHERE seq = {}".format(seq))',
    'db.execute("SELECT * FROM matches WHERE id = \'" + match_id + "\'")',
    'sql = "UPDATE matches SET key_hash = \'%s\'" % key',
    'db.execute(sql)',
])
def test_the_sql_check_finds_sql_built_from_pieces(source):
    assert sql_built_from_text(source)


def test_the_sql_check_passes_bound_values():
    assert sql_built_from_text('db.query("SELECT * FROM matches WHERE id = ?", [match_id])') == []
