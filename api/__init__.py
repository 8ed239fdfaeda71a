"""Kibic's service: the REST API over the referee, with the matches stored in one SQLite file (or PostgreSQL), and
the page."""

from __future__ import annotations

import logging

from flask import Flask

import webui

from . import (
    bodies,
    clubs,
    encoding,
    errors,
    evenings,
    health,
    limits,
    logs,
    matches,
    routes,
    security,
    settings,
    store,
    stream,
    views,
)
from .version import VERSION

__all__ = ["create_app"]

MAX_BODY_BYTES = 64 * 1024
MATCHES_CACHED = 1000  # per server process; docs/contributing.md's "Performance" says the memory it takes


class Kibic(Flask):
    """Flask, asking once per view or hook whether it is an `async def` function to be wrapped (Flask asks the
    `inspect` module at every call, four times a request, and the answer never changes), with routes that compile
    their URL builders when first asked (`api.routes`)."""

    url_rule_class = routes.Rule

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
    """The Flask application; `test_config` overrides the settings (`api.settings`: `KIBIC_DB` and the others, read
    from the environment and checked: a bad one raises `settings.BadSetting`, naming it)."""
    found = settings.load()
    app = Kibic(__name__, static_folder=None)
    app.json = encoding.JSONProvider(app)
    app.url_map.merge_slashes = False  # "//" would be an HTML redirect; here it is a JSON 404
    app.config.from_mapping(
        DATABASE=found.database,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MATCHES_CACHED=MATCHES_CACHED,
        # The address phones reach the service at (`https://kibic.example.org`): follow links and their QR
        # codes are built from it, never from the request's Host header, which anyone can set.
        PUBLIC_URL=found.public_url,
        # The host names the service answers to (Flask refuses others with 400, whatever their case); none: any.
        TRUSTED_HOSTS=found.trusted_hosts,
        # New matches and evenings per client address (`api.limits`): windows such as "20 per minute", or none.
        CREATION_LIMIT=found.creation_limit,
        # The reverse proxies whose X-Forwarded-For names the client; none: no proxy.
        TRUSTED_PROXIES=found.trusted_proxies,
        # HTTPS on the club's own network (`kibic serve --https` sets them): the folder of the box's certificate
        # authority, offered on the /ca page, and the ports of the HTTPS and plain HTTP servers
        TLS_FOLDER=found.tls_dir,
        HTTPS_PORT=found.https_port,
        HTTP_PORT=found.http_port,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    store.install(app)
    matches.install(app)
    evenings.install(app)
    clubs.install(app)
    limits.install(app)
    errors.register(app)
    bodies.register(app)
    security.register(app)
    app.register_blueprint(views.bp)
    app.register_blueprint(evenings.bp)
    app.register_blueprint(clubs.bp)
    stream.register(app)
    app.register_blueprint(webui.bp)
    app.register_blueprint(health.bp)
    app.wsgi_app = logs.RequestIds(security.LowerCaseHost(app.wsgi_app))
    logging.getLogger(__name__).info("Kibic %s serving %s", VERSION, store.described(app.config["DATABASE"]))
    return app
