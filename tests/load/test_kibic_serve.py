"""`kibic serve` as a club starts it: gunicorn with the packaged gevent settings, the data folder and the page's address
said at start, log lines an operator can read; a bad setting stops it naming the setting; `/readyz` answers within
about a second when the database server is down."""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from http.client import HTTPConnection
from pathlib import Path

import pytest
from gunicorn_server import call

from api import create_app
from api.version import VERSION

KIBIC = str(Path(sys.executable).with_name("kibic"))
STARTUP_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def lines_of(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line)


def wait_for(lines: queue.Queue, pattern: str, seen: list[str], count: int = 1) -> None:
    deadline, found = time.monotonic() + STARTUP_SECONDS, sum(bool(re.search(pattern, line)) for line in seen)
    while found < count:
        line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        seen.append(line)
        found += bool(re.search(pattern, line))


@pytest.mark.server
@pytest.mark.timed  # the page served and said within its start's deadline: alone
def test_kibic_serve_serves_the_page_and_says_where(tmp_path):
    port = free_port()
    data = tmp_path / "club"
    env = {key: value for key, value in os.environ.items() if key not in ("KIBIC_DB", "REFEREE_DB")}
    server = subprocess.Popen([KIBIC, "serve", "--data", str(data), "--port", str(port), "--workers", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              start_new_session=True, cwd=tmp_path)
    out, err = queue.Queue(), queue.Queue()
    threading.Thread(target=lines_of, args=(server.stdout, out), daemon=True).start()
    threading.Thread(target=lines_of, args=(server.stderr, err), daemon=True).start()
    said, logged = [], []
    try:
        wait_for(out, r"^QR code of ", said)
        wait_for(err, r"Kibic \S+ serving", logged, count=2)
        base = f"http://127.0.0.1:{port}"
        assert f"Kibic {VERSION}\n" in said
        assert f"data: {data / 'referee.db'}\n" in said
        assert f"open: {base}/\n" in said

        connection = HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/")
        page = connection.getresponse()
        assert page.status == 200 and page.getheader("Content-Type").startswith("text/html")
        page.read()
        status, match = call(base, "POST", "/api/matches", {"game": "ogorek", "players": ["S", "W", "N", "E"]})
        assert status == 201
        connection.request("GET", f"/api/matches/{match['id']}", headers={"X-Request-Id": "tap-1"})
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200 and answer.getheader("X-Request-Id") == "tap-1"
        connection.close()
        wait_for(out, r"\[tap-1\] gunicorn.access", said)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
    access = next(line for line in said if "[tap-1]" in line)
    assert re.match(r"^\d{4}-\d\d-\d\dT[\d:.]+Z INFO \[\d+\] \[tap-1\] gunicorn.access: 127.0.0.1 "
                    r"\"GET /api/matches/\S{4}… HTTP/1.1\" 200 \d+ \d+ms$", access.strip()), access
    assert not [line for line in said + logged if match["id"] in line], "no log line holds a whole match id"
    assert any(re.search(r"INFO \[\d+\] \[-\] api.store.sqlite: migrated the database", line) for line in logged)
    assert not [line for line in logged if "Traceback" in line or "Exception ignored" in line]
    assert oct(data.stat().st_mode & 0o777) == "0o700"
    assert oct((data / "referee.db").stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize(("name", "value"), [("KIBIC_WORKERS", "many"), ("KIBIC_PUBLIC_URL", "ftp://club")])
def test_a_bad_setting_stops_kibic_serve_naming_it(tmp_path, name, value):
    done = subprocess.run([KIBIC, "serve", "--data", str(tmp_path), "--port", str(free_port())], capture_output=True,
                          text=True, env={**os.environ, name: value}, timeout=60)
    assert done.returncode == 2
    assert f"bad setting {name}: " in done.stderr
    assert not (tmp_path / "referee.db").exists()


def test_kibic_says_its_version():
    done = subprocess.run([KIBIC, "--version"], capture_output=True, text=True, timeout=60)
    assert done.stdout == f"kibic {VERSION}\n"


# a ratio (the readiness check against the pool's 5 s) and 3 s for a busy machine: shares the cores
def test_readyz_answers_at_once_when_the_database_server_is_down():
    """Nothing listens at the address: a request that needs the store waits the pool's 5 s for its 503, /readyz
    says why within about a second."""
    app = create_app({"TESTING": True, "DATABASE": f"postgresql://kibic@127.0.0.1:{free_port()}/kibic"})
    client = app.test_client()
    started = time.monotonic()
    ready = client.get("/readyz")
    took = time.monotonic() - started
    started = time.monotonic()
    waited = client.get("/api/matches/hY3kq0XgJ8sVt2mR5wZbNA")
    request_took = time.monotonic() - started
    assert ready.status_code == 503
    assert ready.get_json()["error"]["details"]["reason"] == "the database server cannot be reached"
    assert waited.status_code == 503
    assert took < request_took / 2.5, (took, request_took)
    assert took < 3
