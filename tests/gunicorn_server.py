"""A real gunicorn serving Kibic on a free loopback port, on a database of the caller's choosing."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

STARTUP_SECONDS = 30
LISTENING = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+)")
ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def serve(database: Path, workers: int = 2) -> Iterator[str]:
    """gunicorn on 127.0.0.1, on a port the system picks; yields the base URL and stops the server after."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    env = {**os.environ, "REFEREE_DB": str(database)}
    process = subprocess.Popen(
        [str(gunicorn), "--bind", "127.0.0.1:0", "--workers", str(workers), "api:create_app()"],
        cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=pass_lines, args=(process.stderr, lines), daemon=True)
    reader.start()
    try:
        yield f"http://127.0.0.1:{wait_until_listening(lines)}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=5)


def pass_lines(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)


def wait_until_listening(lines: queue.Queue) -> str:
    """The port from gunicorn's "Listening at" line; the workers accept requests once they have the app."""
    deadline = time.monotonic() + STARTUP_SECONDS
    seen = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        found = LISTENING.search(line)
        if found:
            return found.group(1)
    raise RuntimeError("gunicorn did not start listening:\n" + "".join(seen))
