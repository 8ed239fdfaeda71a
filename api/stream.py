"""`GET /api/matches/{id}/stream`: the match's state pushed to the phones that follow it, as Server-Sent Events.

Each message is `id: <seq>` and `data: <the state>`, the state exactly as `GET /api/matches/{id}` answers a
reader without the key (built by the same function). A message goes out for every new seq the stream sees;
events logged in quick succession (within one look, 0.1 s) come as one message, with the latest seq and
state. `Last-Event-ID` (which a browser's EventSource sends by itself when it reconnects) resumes after
that seq; without it the stream starts with the state as it stands. A comment every 15 s keeps proxies
from closing an idle stream.

A stream ends, whole, as soon as the worker serving it stops (a stop, a reload: `environ["kibic.stopping"]`, set
by `api/worker.py`): the page's EventSource reconnects, to a worker that goes on, and resumes after its last seq.
A stream ends as soon as its client closes the connection: under gunicorn's gevent worker a greenlet waits
for the stream's socket to be readable (a client sends nothing on a stream once its request is in, so
readable means the end of the connection) and wakes the stream, which would otherwise learn of it only when
its next comment failed, up to 15 s later, holding its connection meanwhile. A client that vanishes without
closing (a phone out of the Wi-Fi) is found at a write, as before.

Any process may have logged the event: each process looks up the latest seq of every match its streams
follow in one query every 0.1 s (`Watch`), wakes only the streams whose match moved on, and builds each
new message once for all its streams of that match: the state (none at all when this process answered the play and
no hand is secret: `matches.state` keeps the state it built) encoded once, the same bytes sent on every stream. A
match this process holds at the seq the look found is not read from the log again; the store is looked at all the
same, once per message, for a restore of the data (`Store.generation`). Streams hold no database connection while
they wait.
When the data is put back under the streams (an operator's restore, deletion or forgetting: a new generation, which the
look notices), each stream sends its match's state as it now stands, even at a seq it already sent: the states it sent
may be gone from the log.
A store that tells of every event logged by any app server (PostgreSQL's `LISTEN`/`NOTIFY`, `Store.listen`)
wakes the streams at once instead, and the looks, every second then, only make sure nothing was missed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from flask import Blueprint, Flask, Response, current_app, request

from . import loop, matches, store
from .errors import ApiError
from .store import StoreError

log = logging.getLogger(__name__)

bp = Blueprint("stream", __name__)

LOOK_SECONDS = 0.1  # how often a process looks for new events of the matches its streams follow
HEARD_LOOK_SECONDS = 1.0  # how often it looks while the store tells of every event logged (`Store.listen`)
IDLE_SECONDS = 15.0  # a comment this often keeps an idle stream open through proxies
RETRY_MS = 2000  # how long a browser waits before it reconnects a broken stream
WATCH = "kibic.watch"


class BadLastEventId(ApiError):
    "A Last-Event-ID that is not the seq of an event"

    code = "bad_last_event_id"


@bp.get("/api/matches/<match_id>/stream")
def stream(match_id: str):
    after = last_event_id()
    latest = store.current().latest_seq(match_id)  # 404 and 503 are answered before the stream starts
    watch = current_app.extensions[WATCH]
    followed = watch.follow(match_id, latest, store.current().generation())
    messages = watch.messages(followed, after if after is not None and after <= latest else -1,
                              request.environ.get("gunicorn.socket"), request.environ.get("kibic.stopping"))
    return Response(messages, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def last_event_id() -> int | None:
    value = request.headers.get("Last-Event-ID")
    if value is None or value == "":
        return None
    if not value.isascii() or not value.isdigit() or len(value) > 18:
        raise BadLastEventId("Last-Event-ID is the seq of the last event the client has: a whole number.")
    return int(value)


def message(app: Flask, match_id: str, seq: int | None = None) -> tuple[int, bytes]:
    """The match's latest state as one event of the stream: its seq and its bytes, encoded once for every stream of
    the match in this process. `seq` is the latest seq the watcher saw: a match this process holds at that seq (it
    answered the play) is not looked up in the log again, the store looked at all the same for a restore of the data
    since (`Store.generation`: the first look notices it, and the matches held are forgotten); a match held behind it
    reads its news as a request's does."""
    with app.app_context():
        held = seq is not None and matches.cache().holds(match_id, seq)  # else its news are read, as a request's
        if held:
            store.current().generation()
        with matches.current_match(match_id, seq if held else None) as match:
            body = matches.state(match_id, match, keyed=False)  # as GET /api/matches/{id} answers without the key
            return match.seq, b"id: %d\ndata: %s\n\n" % (match.seq, app.json.encode(body))


class Departure:
    """Whether a stream's client has closed its connection (or its worker stops), told by a greenlet that watches
    the stream's socket (`loop.SocketEnd`): for streams served by gunicorn's gevent worker only (`of` answers None
    elsewhere, and the stream then learns of it at a write). Either wakes the streams of the match (`wake`), which
    wait for the match alone: one event to wait on costs each stream less at each message than three."""

    def __init__(self, sock, stopping=None, wake=None):
        self.wake = wake or (lambda: None)
        self.end = loop.SocketEnd(sock, self.wake)
        self.stopping = stopping  # the worker's event, set when it stops: the stream ends too
        if stopping is not None:
            stopping.rawlink(self.stops)

    @classmethod
    def of(cls, sock, stopping=None, wake=None) -> Departure | None:
        return cls(sock, stopping, wake) if sock is not None and loop.on_gevent_loop() else None

    def stops(self, _stopping) -> None:
        self.wake()

    def ended(self) -> bool:
        """The client left, or the worker stops."""
        return self.end.gone.is_set() or (self.stopping is not None and self.stopping.is_set())

    def stop(self) -> None:
        self.end.stop()
        if self.stopping is not None:
            self.stopping.unlink(self.stops)


@dataclass
class Followed:
    """A match followed by streams of this process: its latest seq, and what wakes its streams."""

    match_id: str
    seq: int
    streams: int = 0
    changed: threading.Event = field(default_factory=threading.Event)
    built: tuple[int, bytes] | None = None  # the latest message, built once for all the streams
    building: threading.Lock = field(default_factory=threading.Lock)  # (a greenlet's own on gevent's loop)
    put_back: int = 0  # how many times the data was put back under the streams (a restore): each sends anew

    def latest(self, app: Flask) -> tuple[int, bytes]:
        """The message of the latest seq seen, built by the first stream to want it, shared by the others."""
        built = self.built
        if built is None or built[0] < self.seq:
            with self.building:
                built = self.built
                if built is None or built[0] < self.seq:
                    built = self.built = message(app, self.match_id, self.seq)
        return built

    def moved_on(self, seq: int) -> None:
        if seq > self.seq:
            self.seq = seq
            self.wake()

    def restored(self, seq: int) -> None:
        """The data was put back (an operator's restore, deletion or forgetting: a new generation): the match is at
        `seq` now, perhaps behind what its streams sent, and the states they sent may no longer be its own."""
        with self.building:
            self.seq, self.built = seq, None
            self.put_back += 1
        self.wake()

    def wake(self) -> None:
        """Wakes every stream of the match (it moved on, or one of its streams' clients left): each looks again."""
        woken, self.changed = self.changed, threading.Event()
        woken.set()


class Watch:
    """The matches this process's streams follow, and one looker that finds their new events for all."""

    def __init__(self, app: Flask):
        self.app = app
        self.followed: dict[str, Followed] = {}
        self.lock = threading.Lock()
        self.looking = False
        self.failing = False  # the last look failed: said once in the log, not every look
        self.listening = False  # the store was asked to tell of new events (`Store.listen`), if it can
        self.generation = ""  # the data's generation at the last look, or at the first stream's start (`follow`)

    def follow(self, match_id: str, seq: int, generation: str) -> Followed:
        """A stream of the match starts, its seq read from the data of `generation`: a restore after that read, even
        before the looker's first look, is noticed by it (the stream sends the match as put back)."""
        with self.lock:
            followed = self.followed.get(match_id)
            if followed is None:
                followed = self.followed[match_id] = Followed(match_id, seq)
            followed.streams += 1
            if not self.listening:
                self.listening = True
                store.current(self.app).listen(self.heard)
            if not self.looking:
                self.looking = True
                self.generation = generation
                threading.Thread(target=self.look, name="kibic-stream-watch", daemon=True).start()
            followed.moved_on(seq)
        return followed

    def heard(self, match_id: str, seq: int) -> None:
        """An app server (this one or another) logged event `seq` of the match: its streams here wake."""
        with self.lock:
            followed = self.followed.get(match_id)
            if followed is not None:
                followed.moved_on(seq)

    def leave(self, followed: Followed) -> None:
        with self.lock:
            followed.streams -= 1
            if followed.streams == 0 and self.followed.get(followed.match_id) is followed:
                del self.followed[followed.match_id]

    def messages(self, followed: Followed, sent: int, sock=None, stopping=None) -> Iterator[bytes]:
        """One stream: its messages, as the match moves on, with a comment now and then while it does not; it
        ends when its client closes the connection (`sock`, the connection's socket, where the server gives it) or
        the worker stops (`stopping`, its event, where the worker gives it)."""
        departure = None
        try:
            yield b"retry: %d\n\n" % RETRY_MS
            # here, where the `finally` below is sure to stop its watcher
            departure = Departure.of(sock, stopping, followed.wake)
            quiet_since = time.monotonic()
            put_back = followed.put_back
            while departure is None or not departure.ended():
                changed = followed.changed
                if followed.put_back != put_back:  # a restore: the state as it now stands, whatever seq was sent
                    put_back, sent = followed.put_back, -1
                if followed.seq > sent:
                    seq, text = followed.latest(self.app)
                    if seq > sent:
                        sent = seq
                        yield text
                        quiet_since = time.monotonic()
                        continue
                if not waited(changed, max(0.0, quiet_since + IDLE_SECONDS - time.monotonic())):
                    yield b": idle\n\n"
                    quiet_since = time.monotonic()
        except (StoreError, ApiError, OSError) as exc:  # storage out of order: the client reconnects or polls
            log.warning("a stream of match %s ends: %s", followed.match_id, exc)
        finally:
            if departure is not None:
                departure.stop()
            self.leave(followed)

    def look(self) -> None:
        """Every LOOK_SECONDS (HEARD_LOOK_SECONDS while the store tells of each event), the latest seq of every
        followed match, in one query; ends when none is followed."""
        while True:
            time.sleep(HEARD_LOOK_SECONDS if store.current(self.app).hearing() else LOOK_SECONDS)
            with self.lock:
                if not self.followed:
                    self.looking = False
                    return
                followed = list(self.followed.values())
            try:
                with self.app.app_context():
                    latest = store.current().latest_seqs([each.match_id for each in followed])
                    generation = store.current().generation()  # noticed by the look just made, if not before
            except Exception as exc:  # noqa: BLE001 - storage out of order: the streams wait, the next look tries again
                if not self.failing:
                    log.warning("cannot look for new events (the streams wait until the storage is back): %r", exc)
                self.failing = True
                continue
            self.failing = False
            restored, self.generation = generation != self.generation, generation
            with self.lock:
                for each in followed:
                    if restored:
                        each.restored(latest.get(each.match_id, 0))
                    else:
                        each.moved_on(latest.get(each.match_id, 0))


def waited(changed: threading.Event, seconds: float) -> bool:
    return changed.wait(seconds)


def register(app: Flask) -> None:
    app.extensions[WATCH] = Watch(app)
    app.register_blueprint(bp)
