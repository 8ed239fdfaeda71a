"""Logs an operator can read: every line with its time, level, process and request id; INFO kept (the start, the
migrations applied, the store's faults, a secret rotated); gunicorn's access lines with their latency, and with the
ids of matches and evenings shortened (a follow link is a read link: the whole id is not for a log's readers).
`KIBIC_LOG_FORMAT=json` writes one JSON object a line instead.

Each request gets an id: the client's `X-Request-Id` when it is a short plain token, else a new one. The answer
carries it back in `X-Request-Id`, and every line logged while the request is served names it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sys
import time

from gunicorn import glogging

REQUEST_ID = "kibic.request_id"
REQUEST_ID_HEADER = "X-Request-Id"
GIVEN_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
LONG_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")  # a match's or an evening's id (22 characters), in a path or a query
SHOWN = 4  # characters of an id an access line keeps: enough to tell a few matches apart, far too few to follow one
TEXT = "%(asctime)s %(levelname)s [%(process)d] [%(request_id)s] %(name)s: %(message)s"
ACCESS = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'


def shortened(text: str) -> str:
    """`text` with every id in it cut to its first letters and "…"."""
    return LONG_TOKEN.sub(lambda found: found.group()[:SHOWN] + "…", text)


def current_request_id() -> str:
    flask = sys.modules.get("flask")  # never imported here: gunicorn's master logs through this too
    if flask is not None and flask.has_request_context():
        return flask.request.environ.get(REQUEST_ID, "-")
    return "-"


class RequestIdFilter(logging.Filter):
    """Names the request being served (or "-") on every record, as `request_id`."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id()
        return True


class TextFormatter(logging.Formatter):
    def __init__(self, fmt: str = TEXT, datefmt: str | None = None, style: str = "%"):
        super().__init__(fmt, datefmt, style)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 - logging's name
        """The time in UTC to the millisecond, ISO 8601: 2026-12-01T18:30:22.541Z."""
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        if not hasattr(record, "request_id"):
            record.request_id = "-"
        return super().format(record)


class JsonFormatter(TextFormatter):
    """One JSON object a line: time, level, process, request_id, logger, message (and the error, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": self.formatTime(record), "level": record.levelname, "process": record.process,
                "request_id": getattr(record, "request_id", "-"), "logger": record.name,
                "message": record.getMessage()}
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def formatter(log_format: str) -> logging.Formatter:
    return JsonFormatter() if log_format == "json" else TextFormatter()


def handler(log_format: str) -> logging.Handler:
    made = logging.StreamHandler(sys.stderr)
    made.setFormatter(formatter(log_format))
    made.addFilter(RequestIdFilter())
    return made


def configure(log_format: str = "text", level: str = "INFO") -> None:
    """Kibic's lines (the `api` loggers and anything else logged in the process) go to stderr in `log_format`."""
    root = logging.getLogger()
    made = next((each for each in root.handlers if getattr(each, "kibic", False)), None)
    if made is None:  # one handler for the process's life (set again, never replaced)
        made = handler(log_format)
        made.kibic = True
        root.addHandler(made)
    made.setFormatter(formatter(log_format))
    root.setLevel(level)


class GunicornLogger(glogging.Logger):
    """gunicorn's own lines and its access lines in Kibic's format (`KIBIC_LOG_FORMAT`), the access lines with
    their latency (ms) and request id, and the ids in their paths shortened; the app's lines join them."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        log_format = os.environ.get("KIBIC_LOG_FORMAT", "text").lower()  # checked by `api.settings` at start
        level = os.environ.get("KIBIC_LOG_LEVEL", "INFO").upper()
        for log in (self.error_log, self.access_log):
            for each in log.handlers:
                each.setFormatter(formatter(log_format))
                each.addFilter(RequestIdFilter())
        self.error_log.setLevel(level)
        configure(log_format, level)
        self.error_log.propagate = False
        self.access_log.propagate = False

    def atoms(self, resp, req, environ, request_time) -> dict:
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ("r", "U", "q", "f"):
            if isinstance(atoms.get(name), str):
                atoms[name] = shortened(atoms[name])
        return atoms

    def access(self, resp, req, environ, request_time) -> None:
        if not self.access_log_enabled:
            return
        safe = self.atoms_wrapper_class(self.atoms(resp, req, environ, request_time))
        try:
            self.access_log.info(self.cfg.access_log_format, safe,
                                 extra={"request_id": environ.get(REQUEST_ID, "-")})
        except Exception:  # noqa: BLE001 - as gunicorn's own: a line that cannot be written is said, not raised
            self.exception("access log line")


class RequestIds:
    """WSGI middleware: the request's id in the environ (for the log lines) and in the answer's `X-Request-Id`."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        given = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = environ[REQUEST_ID] = given if GIVEN_ID.match(given) else secrets.token_hex(6)

        def start(status, headers, exc_info=None):
            headers.append((REQUEST_ID_HEADER, request_id))
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)
