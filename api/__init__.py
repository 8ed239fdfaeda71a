"""Kibic's service: the REST API over the referee, with the matches stored in one SQLite file, and the page."""

from __future__ import annotations

import os

from flask import Flask

import webui

from . import errors, store, views

__all__ = ["create_app"]

MAX_BODY_BYTES = 64 * 1024


def create_app(test_config: dict | None = None) -> Flask:
    """The Flask application; `test_config` overrides the defaults (and `REFEREE_DB`)."""
    app = Flask(__name__, static_folder=None)
    app.url_map.merge_slashes = False  # "//" would be an HTML redirect; here it is a JSON 404
    app.config.from_mapping(
        DATABASE=os.environ.get("REFEREE_DB") or os.path.join(".", "data", "referee.db"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    store.migrate(app.config["DATABASE"])
    app.teardown_appcontext(store.close_db)
    errors.register(app)
    app.register_blueprint(views.bp)
    app.register_blueprint(webui.bp)
    return app
