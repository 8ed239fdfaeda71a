"""The page at the table: one HTML page with its CSS and JavaScript modules, served by the app at `/`.

Nothing here knows the rules or the store: the page talks to the API over HTTP like any other client.
The page's own answer carries a strict Content-Security-Policy (scripts, styles and everything else only
from this server, no inline code), so the page cannot be made to run what a player's name smuggles in.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from pathlib import Path

from flask import Blueprint, Response, send_from_directory

from . import ca

__all__ = ["bp"]

bp = Blueprint("webui", __name__, static_folder="static", static_url_path="/static")
mimetypes.add_type("application/manifest+json", ".webmanifest")  # the web app manifest, whatever the system knows
bp.register_blueprint(ca.bp)  # /ca: how a phone comes to trust the club's box (HTTPS on its own network)

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


SERVICE_WORKER = Path(__file__).parent / "static" / "sw.js"
WORKER_POLICY = "default-src 'self'; base-uri 'none'; frame-ancestors 'none'"


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that it may keep the page itself: with the list of the page's files
    and a version made from their contents, so that a changed file makes a new version."""
    static = Path(bp.static_folder)
    files = sorted(path for path in static.rglob("*") if path.is_file() and path != SERVICE_WORKER)
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes())
    urls = ["./"] + [f"static/{path.relative_to(static).as_posix()}" for path in files if path.name != "index.html"]
    text = SERVICE_WORKER.read_text(encoding="utf-8")
    text = text.replace("const FILES = [];", f"const FILES = {json.dumps(urls)};", 1)
    text = text.replace('const VERSION = "";', f'const VERSION = "{digest.hexdigest()[:16]}";', 1)
    response = Response(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = WORKER_POLICY  # its own fetches: this server only
    return response
