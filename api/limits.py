"""How much a stranger may create: new matches and evenings, counted per client address.

Anyone on the club's network may start a match or an evening without a key, so one client could otherwise
fill the disk (245 matches a second from four connections). Each creation, retried ones included, counts
against the client's address in a moving window (`limits`, the library under flask-limiter: its moving
window is exact, and each count is taken under its storage's lock); past the limit the answer is `429
too_many_creations` with `Retry-After`, and nothing is created. The limit is `KIBIC_CREATION_LIMIT`
(default `CREATIONS`; `none` lifts it), counted in each server process's memory: with W worker processes a
client gets at most W times the limit.

The client's address is the connection's own (`REMOTE_ADDR`), an IPv6 address counted by its /64 (one
household's or phone's range). Behind a reverse proxy every client has the proxy's address, unless the proxy
is trusted (`KIBIC_TRUSTED_PROXIES`, its addresses): then the address is the last one of `X-Forwarded-For`
that is not a trusted proxy. A header from anyone else is ignored: a client cannot choose its own address.
"""

from __future__ import annotations

import math
import time

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .errors import ApiError
from .worker import client_of

CREATIONS = "20 per minute; 200 per day"
LIMITER = "kibic.limiter"


class TooManyCreations(ApiError):
    "More new matches and evenings from one address than the limit allows"

    status = 429
    code = "too_many_creations"

    def __init__(self, message: str, details: dict, retry_after: int):
        super().__init__(message, details)
        self.retry_after = retry_after


class Limits:
    """The creation limit of one app: its windows and their counts."""

    def __init__(self, creations: list[RateLimitItem], trusted_proxies: frozenset[str]):
        self.creations = creations
        self.trusted_proxies = trusted_proxies
        self.window = MovingWindowRateLimiter(MemoryStorage())

    def creation(self) -> None:
        """Counts a creation by the request's client; raises `TooManyCreations` past a limit."""
        if not self.creations:
            return
        client = self.client(request.environ)
        allowed = [self.window.hit(item, "creations", client) for item in self.creations]  # every window counts it
        if all(allowed):
            return
        limit = next(item for item, ok in zip(self.creations, allowed, strict=True) if not ok)
        reset = self.window.get_window_stats(limit, "creations", client).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise TooManyCreations(f"Too many new matches and evenings from this address (at most {limit.amount} per "
                               f"{limit.GRANULARITY.name}); try again in {wait} s.",
                               {"limit": str(limit), "retry_after": wait}, wait)

    def client(self, environ: dict) -> str:
        """The client's address: the connection's, or behind a trusted proxy the one it forwarded for."""
        address = environ.get("REMOTE_ADDR") or ""
        if address in self.trusted_proxies:
            hops = [hop.strip() for hop in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
            while hops and address in self.trusted_proxies:
                address = hops.pop()
        return counted_as(address)


def counted_as(address: str) -> str:
    """The address a client's creations are counted under: an IPv6 address by its /64, as its connections are
    (`api.worker.client_of`)."""
    return client_of(address)[:64]


def read_limit(text: str | None) -> list[RateLimitItem]:
    """`KIBIC_CREATION_LIMIT` (`api.settings` checks it at start): windows such as "20 per minute; 200 per day",
    or "none" (None)."""
    if text is None or text.strip().lower() in ("none", "off", ""):
        return []
    try:
        return parse_many(text)
    except ValueError as exc:
        raise ValueError(f"KIBIC_CREATION_LIMIT {text!r} is not a limit such as {CREATIONS!r} (or none)") from exc


def creation() -> None:
    current_app.extensions[LIMITER].creation()


def install(app: Flask) -> None:
    proxies = frozenset(app.config["TRUSTED_PROXIES"] or ())
    app.extensions[LIMITER] = Limits(read_limit(app.config["CREATION_LIMIT"]), proxies)
