"""Security headers on every response (SECURITY.md says why each is there).

A route may set its own (the page may need a different Content-Security-Policy): these are defaults.
"""

from __future__ import annotations

from flask import Flask

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


class SecurityHeaders:
    """WSGI middleware: the headers above, and the policy for the kind of answer, on every answer, each unless the
    route set its own. Added to the header list the answer starts with (every answer goes through here: the
    list of pairs costs less than the response object's headers)."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        def start(status: str, headers: list[tuple[str, str]], exc_info=None):
            present, policy = set(), API_POLICY
            for name, value in headers:
                name = name.lower()
                present.add(name)
                if name == "content-type" and value.partition(";")[0].strip().lower() == "text/html":
                    policy = PAGE_POLICY
            headers.extend([(name, value) for name, value in (*HEADERS.items(), ("Content-Security-Policy", policy))
                            if name.lower() not in present])
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)


def register(app: Flask) -> None:
    app.wsgi_app = SecurityHeaders(app.wsgi_app)


class LowerCaseHost:
    """WSGI middleware: the Host header in lower case, as host names are compared (`KIBIC_TRUSTED_HOSTS=club.lan`
    lets `Host: CLUB.LAN` in)."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST")
        if host is not None and not host.islower():
            environ["HTTP_HOST"] = host.lower()
        return self.wsgi_app(environ, start_response)
