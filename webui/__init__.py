"""The page at the table: one HTML page with its CSS and JavaScript modules, served by the app at `/`.

Nothing here knows the rules or the store: the page talks to the API over HTTP like any other client.
The page's own answer carries a strict Content-Security-Policy (scripts, styles and everything else only
from this server, no inline code), so the page cannot be made to run what a player's name smuggles in.
"""

from __future__ import annotations

import functools
import hashlib
import json
import mimetypes
import re
from pathlib import Path

from flask import Blueprint, Response, abort, request, send_from_directory

from . import ca

__all__ = ["bp"]

bp = Blueprint("webui", __name__, static_folder="static", static_url_path="/static")
mimetypes.add_type("application/manifest+json", ".webmanifest")  # the web app manifest, whatever the system knows
bp.register_blueprint(ca.bp)  # /ca: how a phone comes to trust the club's box (HTTPS on its own network)

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


STATIC = Path(__file__).parent / "static"
SERVICE_WORKER = STATIC / "sw.js"
WORKER_POLICY = "default-src 'self'; base-uri 'none'; frame-ancestors 'none'"
# The page's code and words are asked for at the version of the page's files (`static/v/<version>/js/main.js`): a
# phone's browser keeps them for good and opens the page again with no request for them (over the club's plain HTTP
# too, where no service worker keeps them), and a new version is new addresses.
VERSIONED = ("js/", "css/", "i18n/")
KEPT_FOR_GOOD = "public, max-age=31536000, immutable"


def files() -> tuple[str, tuple[str, ...]]:
    """The version of the page's files (made from their contents, read again when one of them changes) and their
    names under `static/`."""
    found = sorted(path for path in STATIC.rglob("*") if path.is_file() and path != SERVICE_WORKER)
    return files_at(tuple((path, stat.st_mtime_ns, stat.st_size) for path, stat in ((p, p.stat()) for p in found)))


@functools.lru_cache(maxsize=1)
def files_at(stamps: tuple[tuple[Path, int, int], ...]) -> tuple[str, tuple[str, ...]]:
    found = [path for path, _, _ in stamps]
    digest = hashlib.sha256()
    for path in found:
        digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16], tuple(path.relative_to(STATIC).as_posix() for path in found)


def address(name: str, version: str) -> str:
    """Where the page asks for its file `name` (under `static/`): at the files' version for its code and words."""
    return f"static/v/{version}/{name}" if name.startswith(VERSIONED) else f"static/{name}"


def page_text() -> str:
    return page_at(files()[0])


@functools.lru_cache(maxsize=1)
def page_at(version: str) -> str:
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    return re.sub(r'(?<=(?:src|ref)=")static/([^"]+)', lambda found: address(found.group(1), version), text)


@bp.get("/")
def index() -> Response:
    """The page; the match it shows (`?m=<id>`) and the scorer's key (`#key=...`) are read by the page itself."""
    response = Response(page_text(), mimetype="text/html")
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/static/v/<version>/<path:name>")
def versioned(version: str, name: str) -> Response:
    """One of the page's files at a version: kept for good by the browser at the files' version; at another (a page
    opened before the server was upgraded), the file as it is now, not kept."""
    if not name.startswith(VERSIONED):
        abort(404)
    current = version == files()[0]
    response = send_from_directory(STATIC, name, max_age=0, conditional=not current, etag=not current)
    response.headers["Cache-Control"] = KEPT_FOR_GOOD if current else "no-cache"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that it may keep the page itself: with the list of the page's files
    and a version made from their contents, so that a changed file makes a new version."""
    version, names = files()
    urls = ["./"] + [address(name, version) for name in names if name != "index.html"]
    text = SERVICE_WORKER.read_text(encoding="utf-8")
    text = text.replace("const FILES = [];", f"const FILES = {json.dumps(urls)};", 1)
    text = text.replace('const VERSION = "";', f'const VERSION = "{version}";', 1)
    response = Response(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = WORKER_POLICY  # its own fetches: this server only
    return response
