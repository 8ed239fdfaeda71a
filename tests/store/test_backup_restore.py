"""`kibic backup` and `kibic restore` against a real gunicorn serving the file: a backup taken while it serves, more
plays, the backup put back while it still serves; then every worker serves the backup's state and log (none of them
the matches it held folded), and the file is whole. A file that is not a Kibic database is refused, nothing changed.

On PostgreSQL (the throwaway cluster), the same night with `pg_dump` and `pg_restore` (found where Debian puts them
when they are not on the PATH), the backup put back while two workers serve it: they serve the backup's state and
log. A file that is not a backup of a Kibic database is refused, nothing changed."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import Table
from gunicorn_server import Gunicorn, call, serve

from api import admin, create_app
from api.store.postgres import PostgresStore
from api.store.sqlite import SQLiteStore
from referee import GAMES

KIBIC = str(Path(sys.executable).with_name("kibic"))
READS = 16  # each on a connection of its own: both workers answer some of them


def kibic(*args: str, database: Path | str, path: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "KIBIC_DB": str(database), **({"PATH": path} if path is not None else {})}
    return subprocess.run([KIBIC, *args], capture_output=True, text=True, env=env, timeout=60)


def example():
    """A game's example match and its events, from the registry (the first game that has more than a few)."""
    name, game = next((name, game) for name, game in GAMES.items() if len(game.example["events"]) >= 3)
    return {"game": name, **game.example["match"]}, game.example["events"]


def served(base: str, match_id: str) -> list[tuple[dict, dict]]:
    """The match's state and log as READS separate connections get them."""
    answers = []
    for _ in range(READS):
        status, state = call(base, "GET", f"/api/matches/{match_id}")
        assert status == 200, state
        status, events = call(base, "GET", f"/api/matches/{match_id}/events")
        assert status == 200, events
        answers.append((state, events))
    return answers


@pytest.mark.server
def test_a_backup_put_back_while_serving_is_what_every_worker_serves(tmp_path):
    database = tmp_path / "data" / "referee.db"
    backup = tmp_path / "backups" / "monday.db"
    backup.parent.mkdir()
    body, events = example()
    split = len(events) // 2
    with serve(database, workers=2) as base:
        status, match = call(base, "POST", "/api/matches", body)
        assert status == 201, match
        for event in events[:split]:
            status, answer = call(base, "POST", f"/api/matches/{match['id']}/events", event, key=match["key"])
            assert status == 201, answer
        at_backup = served(base, match["id"])
        made = kibic("backup", str(backup), database=database)
        assert made.returncode == 0, made.stderr
        assert "1 matches" in made.stdout and f"{split} events" in made.stdout
        assert oct(backup.stat().st_mode & 0o777) == "0o600"

        for event in events[split:]:
            status, answer = call(base, "POST", f"/api/matches/{match['id']}/events", event, key=match["key"])
            assert status == 201, answer
        status, later = call(base, "POST", "/api/matches", body)
        assert status == 201
        after = served(base, match["id"])  # both workers hold the match folded further on
        assert {state["seq"] for state, _ in after} == {len(events)}

        put_back = kibic("restore", str(backup), database=database)
        assert put_back.returncode == 0, put_back.stderr

        assert served(base, match["id"]) == at_backup
        assert {state["seq"] for state, _ in at_backup} == {split}
        status, gone = call(base, "GET", f"/api/matches/{later['id']}")
        assert status == 404, gone
        # the restored match goes on from the backup's event, on either worker
        status, answer = call(base, "POST", f"/api/matches/{match['id']}/events", events[split], key=match["key"])
        assert status == 201, answer
        assert answer["event"]["seq"] == split + 1

    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    checked = kibic("check", database=database)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.server
def test_after_a_restore_no_worker_serves_a_folded_match_of_the_history_put_aside(tmp_path):
    """The log after a restore may reach the seq a worker holds with other events than those it folded: the
    backup at event 1, event 2 a play (both workers fold it), the backup put back, then event 2 an undo. A worker
    that kept its match at seq 2 would show the play: each forgets what it held once the file was restored."""
    database, backup = tmp_path / "data" / "referee.db", tmp_path / "b.db"
    body, events = example()
    with serve(database, workers=2) as base:
        status, match = call(base, "POST", "/api/matches", body)
        call(base, "POST", f"/api/matches/{match['id']}/events", events[0], key=match["key"])
        assert kibic("backup", str(backup), database=database).returncode == 0
        status, answer = call(base, "POST", f"/api/matches/{match['id']}/events", events[1], key=match["key"])
        assert status == 201, answer
        assert {state["seq"] for state, _ in served(base, match["id"])} == {2}

        assert kibic("restore", str(backup), database=database).returncode == 0
        status, undone = call(base, "POST", f"/api/matches/{match['id']}/undo", {}, key=match["key"])
        assert status == 201, undone

        answers = served(base, match["id"])
        assert {state["seq"] for state, _ in answers} == {2}
        assert all(log["events"][-1]["type"] == "undo" for _, log in answers)
        assert len({repr(state) for state, _ in answers}) == 1, "every worker serves the same state"


def before_the_write(monkeypatch, change) -> None:
    """The next event's write waits for `change` (the keeper's, and what follows it): it lands between what the
    request read and what it writes, where a request's first look at the store cannot notice it."""
    originals = {kind: kind.append_event for kind in (SQLiteStore, PostgresStore)}

    def append_event(self, *args, **kwargs):
        for kind, original in originals.items():
            monkeypatch.setattr(kind, "append_event", original)
        change()
        return originals[type(self)](self, *args, **kwargs)

    for kind in originals:
        monkeypatch.setattr(kind, "append_event", append_event)


def aside(request) -> None:
    """`request` made as another request of the server is, beside the one under way (a thread: its own contexts)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            request()
        except BaseException as exc:  # noqa: BLE001 - said by the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and not failed, failed


def backed_up_at_the_deal(table: Table, database: str, backup: Path) -> tuple[dict, list[dict]]:
    """A match backed up after its first event (the deal), then its second recorded: (the match, its events)."""
    body, events = example()
    match = table.new_match(**body)
    table.post_event(match, events[0])
    admin.backup(database, backup)
    table.post_event(match, events[1])
    return match, events


def another_server(database: str) -> Table:
    """Another app server on the same database (a process of its own: its own matches held)."""
    return Table(create_app({"TESTING": True, "DATABASE": database}).test_client())


@pytest.mark.both_stores
@pytest.mark.parametrize("race", ["put back behind", "written again by this server", "written again by another"])
def test_a_play_decided_before_a_restore_and_written_after_it_is_not_recorded(app, table, tmp_path, monkeypatch,
                                                                               race):
    """The backup at event 1, event 2 recorded (the match held folded at 2), then event 3 decided on it while the
    backup is put back. Its write would leave the log without event 2, or (another app server recording event 2,
    an undo, first) follow an event it never read: nothing is recorded, the answer says so with the match as put
    back, and the table goes on from there. (A request of the same server that noticed the restore first does not
    make the one that read before it current.)"""
    database, backup = app.config["DATABASE"], tmp_path / "b.backup"
    match, events = backed_up_at_the_deal(table, database, backup)
    other = another_server(database) if race.endswith("another") else table
    undo = "again" in race

    def put_back():
        admin.restore(database, backup)
        if undo:
            aside(lambda: other.undo(match, {}))

    before_the_write(monkeypatch, put_back)
    error = table.post_event(match, events[2], expect=409)["error"]
    assert error["code"] == "seq_conflict" and "backup put back" in error["message"]
    logged = [event["type"] for event in table.events(match)]
    assert logged == (["deal", "undo"] if undo else ["deal"])
    assert error["details"]["seq"] == len(logged)
    again = table.post_event(match, events[0] if undo else events[1])  # the deal again after the undo, or the play
    assert again["event"]["seq"] == len(logged) + 1


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_a_play_decided_before_a_postgresql_restore_is_refused_from_the_moment_the_data_is_back(app, table, tmp_path,
                                                                                               monkeypatch):
    """On PostgreSQL the backup's rows come back in `psql`'s transaction, and the restore's last steps (the tables of
    an older version) in one after it: the new generation comes with the rows. The backup taken with nothing
    rewritten since holds the generation a tap read before the restore; between the two transactions another app
    server records event 2 (an undo) on the log put back, and the tap's event 3 is written: it is refused."""
    database, backup = app.config["DATABASE"], tmp_path / "b.pgdump"
    match, events = backed_up_at_the_deal(table, database, backup)
    other = another_server(database)

    def the_rows_back():
        admin.put_back_postgresql(admin.postgresql_program("pg_restore"), database, backup)
        aside(lambda: other.undo(match, {}))

    before_the_write(monkeypatch, the_rows_back)
    error = table.post_event(match, events[2], expect=409)["error"]
    assert error["code"] == "seq_conflict"
    assert [event["type"] for event in table.events(match)] == ["deal", "undo"]
    assert table.post_event(match, events[0])["event"]["seq"] == 3


@pytest.mark.both_stores
def test_a_play_decided_before_a_name_is_forgotten_and_written_after_it_is_not_recorded(app, table, monkeypatch):
    """`kibic forget` rewrites the matches' players and logs under a new generation: a play decided on the match as it
    was read, and written after the forgetting, is refused as after a restore, and the table goes on."""
    body, events = example()
    match = table.new_match(**body)
    table.post_event(match, events[0])
    forgotten = body["players"][0]
    before_the_write(monkeypatch, lambda: admin.forget(app.config["DATABASE"], forgotten))

    error = table.post_event(match, events[1], expect=409)["error"]
    assert "a name forgotten" in error["message"]
    state = error["details"]["state"]
    assert state["seq"] == 1 and forgotten not in [player["name"] for player in state["players"]]
    assert table.post_event(match, events[1])["event"]["seq"] == 2


@pytest.mark.parametrize("kind", ["text", "sqlite_of_another_program", "cut_short", "newer_kibic"])
def test_a_file_that_is_not_a_kibic_database_is_refused_and_nothing_changes(tmp_path, kind):
    database = tmp_path / "data" / "referee.db"
    assert kibic("migrate", database=database).returncode == 0
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO matches (id, game, players, options, stake, created, key_hash) "
                   "VALUES ('m1', 'ogorek', '[]', '{}', '0', 'now', 'h')")
    wrong = tmp_path / "wrong.db"
    if kind == "text":
        wrong.write_text("players: Ann, Bob\n")
    elif kind == "sqlite_of_another_program":
        with sqlite3.connect(wrong) as db:
            db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    else:
        assert kibic("backup", str(wrong), database=database).returncode == 0
        if kind == "cut_short":
            wrong.write_bytes(wrong.read_bytes()[:8192])
        else:
            with sqlite3.connect(wrong) as db:
                db.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                           "VALUES ('kibic', 'a_step_of_a_later_version', 'later')")
    before = dump(database)

    refused = kibic("restore", str(wrong), database=database)

    assert refused.returncode == 1
    assert "kibic:" in refused.stderr and str(wrong) in refused.stderr
    assert "Traceback" not in refused.stderr
    assert dump(database) == before
    assert not [name for name in os.listdir(database.parent) if "restore" in name]


def test_a_backup_restores_onto_a_fresh_machine(tmp_path):
    first = tmp_path / "old" / "referee.db"
    assert kibic("migrate", database=first).returncode == 0
    with sqlite3.connect(first) as db:
        db.execute("INSERT INTO matches (id, game, players, options, stake, created, key_hash) "
                   "VALUES ('m1', 'ogorek', '[]', '{}', '0', 'now', 'h')")
    assert kibic("backup", str(tmp_path / "b.db"), database=first).returncode == 0
    fresh = tmp_path / "new" / "referee.db"
    made = kibic("restore", str(tmp_path / "b.db"), database=fresh)
    assert made.returncode == 0, made.stderr
    assert dump(fresh).count("m1") == 1
    assert oct(fresh.stat().st_mode & 0o777) == "0o600"
    assert oct(fresh.parent.stat().st_mode & 0o777) == "0o700"


def dump(database: Path) -> str:
    with sqlite3.connect(database) as db:
        return "\n".join(line for line in db.iterdump() if "_sqlite_migrations" not in line or "INSERT" in line)


# --- PostgreSQL ----------------------------------------------------------------------------------

WITHOUT_POSTGRESQL_ON_PATH = str(Path(sys.executable).parent)  # the venv's programs only: no pg_dump, no pg_restore


def postgres_dump(database: str) -> str:
    import psycopg

    with psycopg.connect(database) as conn:
        return "\n".join(repr(row) for table in ("matches", "events", "evenings", "evening_matches")
                         for row in conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2"))  # noqa: S608 - our names


def as_played(events: list[dict]) -> list[dict]:
    """The events as recorded, without what an undo since marks on them."""
    return [{name: value for name, value in event.items() if name != "undone_by"} for event in events]


@pytest.mark.server
def test_a_postgresql_backup_put_back_while_serving_is_what_every_worker_serves(postgres_cluster, tmp_path):
    """The backup at event `split`, event `split + 1` a play that both workers fold, the backup put back while they
    serve, then event `split + 1` an undo: every worker serves the undo (a worker that kept its match at that seq
    would show the play), the backup's log before it, and not the match created after the backup."""
    database = postgres_cluster.new_database()
    backup = tmp_path / "monday.pgdump"
    body, events = example()
    split = len(events) // 2
    server = Gunicorn(env={"KIBIC_DB": database}, workers=2)
    base = server.start()
    try:
        status, match = call(base, "POST", "/api/matches", body)
        assert status == 201, match
        for event in events[:split]:
            status, answer = call(base, "POST", f"/api/matches/{match['id']}/events", event, key=match["key"])
            assert status == 201, answer
        at_backup = served(base, match["id"])
        made = kibic("backup", str(backup), database=database, path=WITHOUT_POSTGRESQL_ON_PATH)
        assert made.returncode == 0, made.stderr
        assert oct(backup.stat().st_mode & 0o777) == "0o600"

        status, answer = call(base, "POST", f"/api/matches/{match['id']}/events", events[split], key=match["key"])
        assert status == 201, answer
        status, later = call(base, "POST", "/api/matches", body)
        assert status == 201
        assert {state["seq"] for state, _ in served(base, match["id"])} == {split + 1}

        put_back = kibic("restore", str(backup), database=database, path=WITHOUT_POSTGRESQL_ON_PATH)
        assert put_back.returncode == 0, put_back.stderr
        assert "1 matches" in put_back.stdout, put_back.stdout

        status, undone = call(base, "POST", f"/api/matches/{match['id']}/undo", {}, key=match["key"])
        assert status == 201, undone
        answers = served(base, match["id"])
        assert {state["seq"] for state, _ in answers} == {split + 1}
        assert all(log["events"][-1]["type"] == "undo" for _, log in answers), [
            (state["seq"], log["events"][-2:]) for state, log in answers]
        assert all(as_played(log["events"][:-1]) == as_played(at_backup[0][1]["events"]) for _, log in answers)
        assert len({repr(state) for state, _ in answers}) == 1, "every worker serves the same state"
        status, gone = call(base, "GET", f"/api/matches/{later['id']}")
        assert status == 404, gone
    finally:
        server.stop()
    checked = kibic("check", database=database)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def pg_tables(database: str) -> set[str]:
    import psycopg

    with psycopg.connect(database) as conn:
        return {row[0] for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}


def test_a_postgresql_backup_of_an_older_version_is_brought_to_this_ones_tables(postgres_cluster, tmp_path):
    """A backup taken before the clubs came (their migration undone by hand: its tables and column dropped, its name
    taken off the list of migrations), put back into a database of this version that holds a club made since: the
    club is gone, the backup's match is served, and the service starts and makes clubs again (the tables that
    `pg_restore --clean` leaves, which the backup knows nothing of, stood in the way of the migration it lacks: the
    service could not start)."""
    import psycopg

    from api import create_app
    from api.store import postgres
    from api.store.postgres import PostgresStore

    older = postgres_cluster.new_database()
    body, events = example()
    try:
        table = create_app({"TESTING": True, "DATABASE": older}).test_client()
        assert pg_tables(older) == postgres.TABLES, "postgres.TABLES names every table the migrations make"
        match = table.post("/api/matches", json=body).get_json()
        for event in events[:2]:
            answer = table.post(f"/api/matches/{match['id']}/events", json=event,
                                headers={"Authorization": f"Bearer {match['key']}"})
            assert answer.status_code == 201, answer.get_json()
        PostgresStore.close_all()
        with psycopg.connect(older) as conn:
            conn.execute("DROP TABLE club_payments, club_names, club_members, clubs, match_summaries")
            conn.execute("ALTER TABLE evenings DROP COLUMN club_id")
            conn.execute("DELETE FROM kibic_migrations WHERE name IN ('create_clubs', 'create_match_summaries')")
            conn.execute("DELETE FROM settings WHERE name = 'generation'")
        archive = tmp_path / "before-the-clubs.pgdump"
        made = kibic("backup", str(archive), database=older)
        assert made.returncode == 0, made.stderr

        current = postgres_cluster.new_database()
        table = create_app({"TESTING": True, "DATABASE": current}).test_client()
        club = table.post("/api/clubs", json={"name": "Czwartki", "currency": "PLN"}).get_json()
        PostgresStore.close_all()

        put_back = kibic("restore", str(archive), database=current)
        assert put_back.returncode == 0, put_back.stderr
        assert "1 matches" in put_back.stdout, put_back.stdout
        assert pg_tables(current) == postgres.TABLES

        table = create_app({"TESTING": True, "DATABASE": current}).test_client()
        served_match = table.get(f"/api/matches/{match['id']}")
        assert served_match.status_code == 200 and served_match.get_json()["seq"] == 2, served_match.get_json()
        gone = table.get(f"/api/clubs/{club['id']}", headers={"Authorization": f"Bearer {club['key']}"})
        assert gone.status_code == 404, gone.get_json()
        again = table.post("/api/clubs", json={"name": "Czwartki", "currency": "PLN"})
        assert again.status_code == 201, again.get_json()
    finally:
        PostgresStore.close_all()
    checked = kibic("check", database=current)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize("kind", ["text", "sqlite_backup", "dump_of_another_database", "newer_kibic"])
def test_a_file_that_is_not_a_postgresql_backup_of_kibic_is_refused_and_nothing_changes(postgres_cluster, tmp_path,
                                                                                       kind):
    import psycopg

    database = postgres_cluster.new_database()
    assert kibic("migrate", database=database).returncode == 0
    with psycopg.connect(database) as conn:
        conn.execute("INSERT INTO matches (id, game, players, options, stake, created, key_hash) "
                     "VALUES ('m1', 'ogorek', '[]', '{}', '0', 'now', 'h')")
    wrong = tmp_path / "wrong.backup"
    if kind == "text":
        wrong.write_text("players: Ann, Bob\n")
    elif kind == "sqlite_backup":
        sqlite = tmp_path / "referee.db"
        assert kibic("migrate", database=sqlite).returncode == 0
        assert kibic("backup", str(wrong), database=sqlite).returncode == 0
    elif kind == "newer_kibic":  # a backup of a Kibic that has a migration this one does not know
        newer = postgres_cluster.new_database()
        assert kibic("migrate", database=newer).returncode == 0
        with psycopg.connect(newer) as conn:
            conn.execute("INSERT INTO kibic_migrations (name, applied) VALUES ('from_a_newer_kibic', 'now')")
        assert kibic("backup", str(wrong), database=newer).returncode == 0
    else:
        other = postgres_cluster.new_database()
        with psycopg.connect(other) as conn:
            conn.execute("CREATE TABLE photos (id integer PRIMARY KEY, path text)")
        assert kibic("backup", str(wrong), database=other).returncode == 0
    before = postgres_dump(database)

    refused = kibic("restore", str(wrong), database=database)

    assert refused.returncode == 1, refused.stdout
    assert "kibic:" in refused.stderr and str(wrong) in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    assert postgres_dump(database) == before
    if kind == "newer_kibic":
        assert "newer Kibic" in refused.stderr and "from_a_newer_kibic" in refused.stderr, refused.stderr


def test_without_postgresql_client_tools_a_backup_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(admin, "POSTGRESQL_PROGRAMS", str(tmp_path / "postgresql" / "*" / "bin"))
    with pytest.raises(admin.AdminError) as said:
        admin.backup("postgresql://kibic@127.0.0.1:1/kibic", tmp_path / "b.pgdump")
    assert re.search(r"pg_dump .*not installed.*postgresql-client", str(said.value)), said.value
    assert not (tmp_path / "b.pgdump").exists()
