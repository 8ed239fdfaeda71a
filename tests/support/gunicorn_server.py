"""A real gunicorn on a free loopback port, for the tests that need a server and for the benchmarks,
with the settings `make serve` uses (`gunicorn.conf.py`).

The server runs in a process group of its own, so that stopping (or killing) it takes the master and
its workers at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlsplit

STARTUP_SECONDS = 30
LISTENING = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+)")
READY = re.compile(r"Worker ready with pid")  # `post_worker_init`: the worker has loaded the app
ROOT = Path(__file__).resolve().parents[2]
KIBIC = "api:create_app()"
CONFIG = ROOT / "gunicorn.conf.py"  # what `make serve` runs with: gevent workers


class Gunicorn:
    """gunicorn serving `app` ("module:factory()") on 127.0.0.1, on a port the system picks."""

    def __init__(self, app: str = KIBIC, env: dict[str, str] | None = None, workers: int = 2):
        self.app = app
        self.env = env or {}
        self.workers = workers
        self.process: subprocess.Popen | None = None
        self.base = ""

    def start(self) -> str:
        """Starts the server; answers its base URL once it listens and every worker has loaded the app."""
        command = [str(Path(sys.executable).with_name("gunicorn")), "--config", str(CONFIG), "--bind", "127.0.0.1:0",
                   "--workers", str(self.workers), self.app]
        self.process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **self.env}, stderr=subprocess.PIPE,
                                        text=True, start_new_session=True)
        lines: queue.Queue[str] = queue.Queue()
        self.lines = lines  # what the server logs after its start, for the tests that read its log
        threading.Thread(target=pass_lines, args=(self.process.stderr, lines), daemon=True).start()
        self.base = f"http://127.0.0.1:{wait_until_serving(lines, self.workers)}"
        return self.base

    def kill(self) -> None:
        """SIGKILL to the master and its workers: nothing gets to finish or clean up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()


@contextlib.contextmanager
def gunicorn(app: str = KIBIC, env: dict[str, str] | None = None, workers: int = 2) -> Iterator[str]:
    """A running gunicorn for the block: yields its base URL and stops the server after."""
    server = Gunicorn(app, env, workers)
    try:
        yield server.start()
    finally:
        server.stop()


def serve(database: Path, workers: int = 2) -> contextlib.AbstractContextManager[str]:
    """Kibic served by gunicorn on `database`."""
    return gunicorn(KIBIC, {"REFEREE_DB": str(database)}, workers)


def pass_lines(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)


def wait_until_serving(lines: queue.Queue, workers: int) -> str:
    """The port from gunicorn's "Listening at" line, once every worker has loaded the app too (before that a
    request waits in the socket's queue for the app's imports, seconds on a busy machine)."""
    deadline = time.monotonic() + STARTUP_SECONDS
    port, booted, seen = None, 0, []
    while time.monotonic() < deadline and (port is None or booted < workers):
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        found = LISTENING.search(line)
        port = found.group(1) if found else port
        booted += bool(READY.search(line))
    if port is None or booted < workers:
        raise RuntimeError("gunicorn did not start:\n" + "".join(seen))
    return port


def call(base: str, method: str, path: str, body=None, key: str | None = None, timeout: float = 10,
         source: str | None = None) -> tuple[int, dict]:
    """One JSON request to the server at `base`, on a connection of its own (from the loopback address `source`,
    127.0.0.2 say, if given: the whole of 127.0.0.0/8 is loopback): (status, answer)."""
    url = urlsplit(base)
    connection = HTTPConnection(url.hostname, url.port, timeout=timeout,
                                source_address=(source, 0) if source else None)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()
