"""The page at the table: one HTML page with its CSS and JavaScript modules, served by the app at `/`.

Nothing here knows the rules or the store: the page talks to the API over HTTP like any other client.
The page's own answer carries a strict Content-Security-Policy (scripts, styles and everything else only
from this server, no inline code), so the page cannot be made to run what a player's name smuggles in.
"""

from __future__ import annotations

from flask import Blueprint, Response, send_from_directory

__all__ = ["bp"]

bp = Blueprint("webui", __name__, static_folder="static", static_url_path="/static")

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@bp.get("/")
def index() -> Response:
    """The page; the match it shows (`?m=<id>`) and the scorer's key (`#key=...`) are read by the page itself."""
    response = send_from_directory(bp.static_folder, "index.html", max_age=0)
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
