"""gunicorn on a free loopback port, started and stopped by the benchmarks."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 2
STARTUP_SECONDS = 30
LISTENING = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+)")
BOOTED = re.compile(r"Booting worker with pid")


@contextmanager
def gunicorn(app: str, env: dict[str, str], workers: int = WORKERS) -> Iterator[str]:
    """gunicorn serving `app` ("module:factory()") on 127.0.0.1; yields its base URL once every worker booted."""
    command = [str(Path(sys.executable).with_name("gunicorn")), "--bind", "127.0.0.1:0", "--workers", str(workers),
               app]
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env}, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stderr], daemon=True).start()
    try:
        yield f"http://127.0.0.1:{wait_until_serving(lines, workers)}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until_serving(lines: queue.Queue, workers: int) -> str:
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
        booted += bool(BOOTED.search(line))
    if port is None or booted < workers:
        raise RuntimeError("gunicorn did not start:\n" + "".join(seen))
    return port  # a worker still importing the app leaves requests waiting in the socket's queue
