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
SQL_CALLS = {"execute", "executemany", "executescript", "query", "one", "rows"}
"""The calls that take a statement first: the database's, and the store's own helpers (`one`, `rows`)."""


def literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def constants(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The module's names bound once, at its top, to one literal string, and to a dict of literal strings, and never
    changed after (no item set, updated or added to)."""
    texts, tables, bound, changed = set(), set(), {}, set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            else []
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = bound.get(target.id, 0) + 1
                if literal(node.value):
                    texts.add(target.id)
                elif isinstance(node.value, ast.Dict) and all(literal(value) for value in node.value.values):
                    tables.add(target.id)
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                changed.add(target.value.id)
            elif isinstance(node, ast.AugAssign) and isinstance(target, ast.Name):
                changed.add(target.id)
        called = node.func if isinstance(node, ast.Call) else None
        if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name) \
                and called.attr in ("update", "setdefault", "__setitem__", "__iadd__"):
            changed.add(called.value.id)
    return ({name for name in texts if bound[name] == 1 and name not in changed},
            {name for name in tables if bound[name] == 1 and name not in changed})


def statement_given(node: ast.expr, texts: set[str], tables: set[str], handed_on: str | None) -> bool:
    """Whether a statement given to the database is literal text: a string, a module's constant string (or one of a
    dict of them), or, in a helper that takes a statement first (`one`, `rows`), the statement its caller gave it
    (whose call is checked in its turn)."""
    return (literal(node) or isinstance(node, ast.Name) and (node.id in texts or node.id == handed_on)
            or isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in tables)


def sql_built_from_text(source: str) -> list[str]:
    """Every place where SQL is built from pieces (f-string, %, .format, +) or given to the database as
    anything but literal text."""
    tree = ast.parse(source)
    texts, tables = constants(tree)
    handed_on: dict[ast.AST, str] = {}  # a call inside a helper that takes a statement first: that parameter's name
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name in SQL_CALLS:
            parameters = [each.arg for each in function.args.args if each.arg not in ("self", "cls")]
            for node in ast.walk(function):
                if parameters:
                    handed_on[node] = parameters[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS:
            if node.args and not statement_given(node.args[0], texts, tables, handed_on.get(node)):
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


@pytest.mark.parametrize("path", sorted(API.rglob("*.py")), ids=lambda path: path.relative_to(API).as_posix())
def test_the_api_writes_sql_only_as_literals_with_bound_values(path):
    assert sql_built_from_text(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source", [
    'db.execute(f"SELECT * FROM matches WHERE id = {match_id}")',
    'db.query("SELECT * FROM matches WHERE id = \'%s\'" % match_id)',
    'db.query("DELETE FROM events WHERE seq = {}".format(seq))',
    'db.execute("SELECT * FROM matches WHERE id = \'" + match_id + "\'")',
    'sql = "UPDATE matches SET key_hash = \'%s\'" % key',
    'db.execute(sql)',
    'store.one(sql, [club_id])',
    'STATEMENT = "SELECT * FROM matches"\nSTATEMENT = STATEMENT + where\ndb.execute(STATEMENT)',
    'DROPS = {"matches": "DROP TABLE matches"}\nDROPS[name] = typed\ndb.execute(DROPS[name])',
    'DROPS = {"matches": "DROP TABLE matches"}\nDROPS.update(given)\ndb.execute(DROPS[name])',
    'STATEMENT = "SELECT * FROM matches"\nSTATEMENT += where\ndb.execute(STATEMENT)',
    'DROPS = {"matches": "DROP TABLE " + name}\ndb.execute(DROPS["matches"])',
    'def fetch(self, sql, params):\n    return db.execute(sql, params)',
    'def one(self, sql, params):\n    return db.execute(sql + " LIMIT 1", params)',
])
def test_the_sql_check_finds_sql_built_from_pieces(source):
    assert sql_built_from_text(source)


@pytest.mark.parametrize("source", [
    'db.query("SELECT * FROM matches WHERE id = ?", [match_id])',
    'PAYMENTS = ("SELECT id FROM club_payments "\n            "WHERE club_id = ?")\ndb.execute(PAYMENTS, [club_id])',
    'DROPS = {"matches": "DROP TABLE matches CASCADE"}\ndb.execute(DROPS[name])',
    'def one(self, sql, params):\n    return db.execute(sql, params).fetchone()',
])
def test_the_sql_check_passes_literal_statements_and_bound_values(source):
    assert sql_built_from_text(source) == []


