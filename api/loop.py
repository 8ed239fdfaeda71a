"""gevent, in one place: what the app needs to know of the loop gunicorn's gevent workers run it on.

Under `kibic serve` each worker is gunicorn's gevent worker (`api/worker.py`), which patches `threading`, `time`
and the sockets to be cooperative: a request is a greenlet, and a lock or a sleep lets the loop serve the others.
Elsewhere (the tests' app, `flask run`, a script) the same code runs on threads. This module tells the two apart
(`on_gevent_loop`) and holds what the app asks of gevent: the standard library's own locks, threads and sleep
where a real thread shares them (`real_lock`, `original`), a signal from such a thread to the loop, a greenlet
waiting for it, and a socket's end watched by a greenlet of its own. gevent is imported only when asked (it is a
dependency, but the engine's and the tests' processes need not load it).

The worker itself (`api/worker.py`, gunicorn's gevent worker with Kibic's limits) uses gevent directly: gunicorn
loads it in its master process, where nothing of the app may be imported.
"""

from __future__ import annotations

from collections.abc import Callable

_on_loop = False  # found true once: a process patched by gevent stays patched


def on_gevent_loop() -> bool:
    """Whether this process runs gevent's loop (gunicorn's gevent workers patch `threading`)."""
    global _on_loop
    if not _on_loop:
        try:
            from gevent.monkey import is_module_patched
        except ImportError:  # pragma: no cover - gevent is a dependency
            return False
        _on_loop = is_module_patched("threading")
    return _on_loop


def original(module: str, name: str):
    """`module.name` as the standard library has it, before gevent patched it (if it did)."""
    try:
        from gevent.monkey import get_original
    except ImportError:  # pragma: no cover - gevent is a dependency
        return getattr(__import__(module), name)
    return get_original(module, name)


def real_lock():
    """A lock of the operating system's, even where gevent made `threading`'s cooperative: one that a real
    thread (the SQLite writer's) takes too, or that is held only for a few steps that never wait."""
    return original("_thread", "allocate_lock")()


def real_thread(run: Callable[[], None]) -> None:
    """Starts `run` in a real thread of the operating system's, beside the loop."""
    original("_thread", "start_new_thread")(run, ())


def real_sleep(seconds: float) -> None:
    """Sleeps the real thread (in a real thread: a cooperative sleep would wait for a loop it does not run)."""
    original("time", "sleep")(seconds)


class LoopSignal:
    """Wakes the loop from a real thread: `send` (from any thread) has `woken` run on the loop soon after, once
    for however many sends came before it ran. Made on the loop, in the process that serves."""

    def __init__(self, woken: Callable[[], None]):
        from gevent import get_hub

        self.watcher = get_hub().loop.async_()
        self.watcher.start(woken)

    def send(self) -> None:
        self.watcher.send()


def waiter():
    """What a greenlet waits on (`get()`) until it is switched to (`switch(value)`, from the loop)."""
    from gevent.hub import Waiter

    return Waiter()


class SocketEnd:
    """Whether a client closed its connection, told by a greenlet that waits for its socket to be readable (a
    client sends nothing more once its request is in, so readable means the end of the connection), which then
    calls `told` (the streams of the match wake, and this one sees its end). On gevent's loop only."""

    def __init__(self, sock, told: Callable[[], None] | None = None):
        import gevent
        from gevent.event import Event

        self.sock = sock
        self.told = told
        self.gone = Event()
        self.watcher = gevent.spawn(self.watch)

    def watch(self) -> None:
        import socket

        from gevent.socket import wait_read

        try:
            wait_read(self.sock.fileno())
            sent = self.sock.recv(1, socket.MSG_PEEK)
        except (OSError, ValueError):  # the connection reset, or its socket closed already
            sent = b""
        if not sent:  # the end of the connection (a client that sends bytes on a stream is left to the writes)
            self.gone.set()
            if self.told is not None:
                self.told()

    def stop(self) -> None:
        self.watcher.kill(block=False)
