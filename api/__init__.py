"""Kibic's service: the REST API over the referee, with the matches stored in one SQLite file (or PostgreSQL), and
the page."""

from __future__ import annotations

import os

from flask import Flask

import webui

from . import bodies, encoding, errors, evenings, matches, security, store, stream, views

__all__ = ["create_app"]

MAX_BODY_BYTES = 64 * 1024
MATCHES_CACHED = 1000  # per server process; see the README's "Performance" for the memory it takes


class Kibic(Flask):
    """Flask, asking once per view or hook whether it is an `async def` function to be wrapped (Flask asks the
    `inspect` module at every call, four times a request, and the answer never changes)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.synchronous: dict = {}  # a view or hook -> itself, or its synchronous wrapper

    def ensure_sync(self, func):
        try:
            return self.synchronous[func]
        except KeyError:
            made = self.synchronous[func] = super().ensure_sync(func)
            return made
        except TypeError:  # a callable that cannot be a key
            return super().ensure_sync(func)


def create_app(test_config: dict | None = None) -> Flask:
    """The Flask application; `test_config` overrides the defaults (and `REFEREE_DB`)."""
    app = Kibic(__name__, static_folder=None)
    app.json = encoding.JSONProvider(app)
    app.url_map.merge_slashes = False  # "//" would be an HTML redirect; here it is a JSON 404
    app.config.from_mapping(
        DATABASE=os.environ.get("REFEREE_DB") or os.path.join(".", "data", "referee.db"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MATCHES_CACHED=MATCHES_CACHED,
        # The address phones reach the service at (`https://kibic.example.org`): follow links and their QR
        # codes are built from it, never from the request's Host header, which anyone can set.
        PUBLIC_URL=os.environ.get("KIBIC_PUBLIC_URL") or None,
        # The host names the service answers to (Flask refuses others with 400); none: any.
        TRUSTED_HOSTS=[host.strip() for host in os.environ.get("KIBIC_TRUSTED_HOSTS", "").split(",") if host.strip()]
        or None,
        # HTTPS on the club's own network (`python -m api.tls serve` sets them): the folder of the box's
        # certificate authority, offered on the /ca page, and the ports of the HTTPS and plain HTTP servers
        TLS_FOLDER=os.environ.get("KIBIC_TLS_DIR") or None,
        HTTPS_PORT=int(os.environ.get("KIBIC_HTTPS_PORT") or 0) or None,
        HTTP_PORT=int(os.environ.get("KIBIC_HTTP_PORT") or 0) or None,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    store.install(app)
    matches.install(app)
    errors.register(app)
    bodies.register(app)
    security.register(app)
    app.register_blueprint(views.bp)
    app.register_blueprint(evenings.bp)
    stream.register(app)
    app.register_blueprint(webui.bp)
    return app
