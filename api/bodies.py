"""Request bodies are read whole before the app sees them, however they are framed.

A body sent with `Transfer-Encoding: chunked` has no Content-Length, so the app cannot refuse it by its
size up front; read lazily it would be cut at the limit and the cut text used. `WholeBody` reads such a
body to the end, up to one byte past the limit: over it, the request is refused with 413; with its
chunked framing broken (a bad chunk size, no terminator), with 400. A body of known length is refused
with 413 when its Content-Length is over the limit, else read whole too: one that ends before its length
is refused with 400. The app then sees an ordinary body of known length, and nothing of a body is ever
truncated and then used. The bytes read are the request's body (`body`), with no stream of the
framework's to wrap them again (which took as many instructions as checking the body's shape).

Under gunicorn a body must arrive within a deadline (`api/worker.py`: 10 s after its head), however slowly its
bytes come: a read that would end later raises `TimeoutError`, and the request is answered with 408 (and its
connection closed), nothing of it used.

Chunked is the only transfer coding read: a body said to be gzipped, deflated (or anything else) before it
was chunked is refused with 400, not read as if the coding were not there (gunicorn passes such a header on
and decodes nothing).

A route reads its body as JSON with `json_body` (the matches' and the evenings' alike): strict JSON, every
number read exactly as written or refused (400).
"""

from __future__ import annotations

import io
import json
import logging
import math
import re

import orjson
from flask import Flask, Request, request
from werkzeug.exceptions import RequestEntityTooLarge

from referee import InvalidInput

from . import store
from .errors import BadBody, BadContentType, BadJson, BodyTooSlow

log = logging.getLogger(__name__)

REFUSAL = "kibic.body_refused"
BODY = "kibic.body"
READ_ONLY = {"GET", "HEAD", "OPTIONS"}  # methods whose bodies no route reads: left unread
# In a body, what orjson would read otherwise than written: a whole number beyond 64 bits (`store.LONG_NUMBER`),
# or a number with an exponent, which may lie beyond a float's range (1e-400 read as 0, 1e400 as infinity)
LONG_NUMBER = re.compile(store.LONG_NUMBER.pattern.encode() + rb"|\d[eE]")


class WholeBody:
    "WSGI middleware: a request's body is read whole (up to a limit) before the app runs"

    def __init__(self, wsgi_app, limit: int):
        self.wsgi_app = wsgi_app
        self.limit = limit

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH")
        codings = environ.get("HTTP_TRANSFER_ENCODING")
        if codings is not None and [each.strip() for each in codings.lower().split(",")] != ["chunked"]:
            environ[REFUSAL] = "coding"  # the server reads no body of this request: the connection is closed after
            self.keep(environ, b"")
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        elif not length and codings is not None:
            self.read_chunked(environ)
        elif length and environ.get("REQUEST_METHOD") not in READ_ONLY:
            self.read_known(environ, length)
        return self.wsgi_app(environ, start_response)

    def read_chunked(self, environ) -> None:
        try:
            body = read_at_most(environ["wsgi.input"], self.limit + 1)
        except TimeoutError as exc:
            log.info("a chunked body too slow: %s", exc)
            environ[REFUSAL] = "too_slow"
            body = b""
        except Exception as exc:  # noqa: BLE001 - the server's own error for broken framing, whatever its class
            log.info("a chunked body with broken framing: %s", exc)
            environ[REFUSAL] = "malformed"
            body = b""
        else:
            if len(body) > self.limit:
                environ[REFUSAL] = "too_large"
                body = b""
        self.keep(environ, body)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = False

    def read_known(self, environ, length: str) -> None:
        try:
            size = int(length)
        except ValueError:
            return  # not a length: the server refuses such a request before it gets here
        if size > self.limit:
            environ[REFUSAL] = "too_large"
            self.keep(environ, b"")
            return
        try:
            body = read_at_most(environ["wsgi.input"], size)
        except TimeoutError as exc:
            log.info("a body too slow: %s", exc)
            environ[REFUSAL] = "too_slow"
            body = b""
        except Exception as exc:  # noqa: BLE001 - the server's own error for a connection lost, whatever its class
            log.info("a body that could not be read whole: %s", exc)
            body = b""
        if len(body) < size and environ.get(REFUSAL) is None:
            environ[REFUSAL] = "cut_short"
            body = b""
        self.keep(environ, body)

    @staticmethod
    def keep(environ, body: bytes) -> None:
        environ[BODY] = body
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))


def body(asked: Request) -> bytes:
    """The request's body as `WholeBody` read it (the framework's reading of it, for a request it did not read)."""
    data = asked.environ.get(BODY)
    return asked.get_data(cache=True) if data is None else data


def read_at_most(stream, size: int) -> bytes:
    parts, left = [], size
    while left > 0:
        part = stream.read(min(left, 65536))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def refuse_what_was_refused() -> None:
    """Before each request: answer the refusal `WholeBody` noted, in the one error shape."""
    refusal = request._get_current_object().environ.get(REFUSAL)
    if refusal == "too_large":
        raise RequestEntityTooLarge()
    if refusal == "malformed":
        raise BadBody("The request's chunked body is broken (a bad chunk size or no end); send it again.")
    if refusal == "cut_short":
        raise BadBody("The request's body ended before its Content-Length said; send it again.")
    if refusal == "too_slow":
        raise BodyTooSlow("The request's body did not arrive in time (it must arrive whole within 10 seconds of "
                          "its headers); send it again.")
    if refusal == "coding":
        raise BadBody("The request's body must be sent plain, or chunked with no other transfer coding "
                      "(Transfer-Encoding: chunked); this server decodes no gzip, deflate or other coding.")


def register(app: Flask) -> None:
    app.wsgi_app = WholeBody(app.wsgi_app, app.config["MAX_CONTENT_LENGTH"])
    app.before_request(refuse_what_was_refused)


# --- the JSON in it --------------------------------------------------------------------------------

def json_body(optional: bool = False) -> object:
    """The request's JSON body (an empty object when `optional` and empty); 400 when it is not JSON."""
    asked = request._get_current_object()  # the request itself: each use of the proxy looks it up again
    data = body(asked)
    if not data.strip():
        if optional:
            return {}
        raise BadJson("The request has no body; send it as JSON.")
    # a phone sends exactly application/json; any other Content-Type is parsed to know whether it is JSON too
    if asked.environ.get("CONTENT_TYPE") != "application/json" and not asked.is_json:
        raise BadContentType("Send the body as JSON, with the header Content-Type: application/json.")
    if not LONG_NUMBER.search(data):
        try:
            return orjson.loads(data)  # strict JSON in UTF-8, without lone surrogates, NaN or Infinity
        except orjson.JSONDecodeError:
            pass  # the standard library's reading says what is wrong (or reads what orjson does not: a BOM)
    try:
        parsed = json.loads(data, parse_constant=reject_constant, parse_float=float_in_range)
        json.dumps(parsed, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError) as exc:
        raise BadJson(f"The body is not valid JSON: {str(exc)[:200]}") from None
    return parsed


# --- a query's whole numbers ----------------------------------------------------------------------

def whole_number_arg(name: str, default: int, least: int, most: int) -> int:
    """A query argument that is a whole number from `least` to `most` (`default` when not given); else 422."""
    text = request.args.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and least <= int(text) <= most):
        raise InvalidInput("invalid_input", f"{name} is a whole number from {least} to {most}.",
                           {name: text[:40]})
    return int(text)


def reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def float_in_range(text: str) -> float:
    """A JSON number with a fraction or an exponent, unless it lies beyond what a float holds (read as 0 or as
    infinity, it would be taken for another number)."""
    value = float(text)
    if math.isinf(value) or (value == 0 and any(digit in "123456789" for digit in text.partition("e")[0]
                                                 .partition("E")[0])):
        raise ValueError(f"the number {text[:40]} is too {'large' if value else 'small'} to be read exactly")
    return value
