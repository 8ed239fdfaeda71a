"""Security headers on every response (SECURITY.md says why each is there).

A route may set its own (the page may need a different Content-Security-Policy): these are defaults.
"""

from __future__ import annotations

from flask import Flask, Response

# The page: its own scripts, styles, images and API only; no inline script, no plug-ins, no framing.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
               "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# Anything else (JSON, YAML, images): nothing may run or load in it, and nobody may frame it.
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

HEADERS = {
    "X-Content-Type-Options": "nosniff",  # JSON is never read as HTML or script, whatever a name contains
    "Referrer-Policy": "no-referrer",  # a follow link's match id is not sent to other sites
    "X-Frame-Options": "DENY",  # frame-ancestors, for browsers that predate it
}


def add_security_headers(response: Response) -> Response:
    """The headers above, and the policy for the kind of answer, each unless the route set its own (in one
    pass over the headers: every answer goes through here)."""
    present = {name.lower() for name, _ in response.headers.to_wsgi_list()}
    policy = PAGE_POLICY if response.mimetype == "text/html" else API_POLICY
    response.headers.extend([(name, value) for name, value in (*HEADERS.items(), ("Content-Security-Policy", policy))
                             if name.lower() not in present])
    return response


def register(app: Flask) -> None:
    app.after_request(add_security_headers)
