"""`/ca`: how a phone comes to trust the club's box, served over plain HTTP (and HTTPS) by the same app.

The page (`static/ca.html`, drawn by `static/js/ca.js` in the table's language) offers the box's certificate
authority to download (`.crt` for Android, an iOS configuration profile, `.pem`), the steps for Android and iOS,
the HTTPS address with its QR code, and a QR code of the page itself for the next phone. The authority is the
one `api.tls` made in `KIBIC_TLS_DIR` (set by `python -m api.tls serve`); without one the page says that this
box does not serve HTTPS yet, and the downloads answer 404.

The addresses are built from the host name the phone used, when the server certificate covers it, else from the
certificate's first address: the answers depend on the request's `Host` and no shared cache keeps them.
"""

from __future__ import annotations

import io
import ipaddress
import re
from pathlib import Path

import segno
from flask import Blueprint, Response, abort, current_app, request
from markupsafe import escape


def tls():
    """`api.tls`, imported when first needed: `python -m api.tls` imports the app's package before it runs."""
    from api import tls as module

    return module


bp = Blueprint("ca", __name__)

PAGE = Path(__file__).parent / "static" / "ca.html"
HOST = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253})(:\d{1,5})?$")
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def folder() -> Path | None:
    configured = current_app.config.get("TLS_FOLDER")
    if configured and (Path(configured) / tls().CA_CERT).is_file():
        return Path(configured)
    return None


def ca_path() -> Path:
    found = folder()
    if found is None:
        abort(404)
    return found / tls().CA_CERT


def asked_host() -> str:
    """The host name or address the phone asked for (the `Host` header without its port), if it is one."""
    asked = request.host or ""
    if not HOST.match(asked):
        return ""
    if asked.startswith("["):
        return asked[1:asked.index("]")]
    return asked.rsplit(":", 1)[0]


def phone_host() -> str:
    """The host for the addresses on the page: the one the phone asked for when the certificate covers it."""
    name = asked_host()
    found = folder()
    if found is None:
        return name or "localhost"
    try:
        cert_names, cert_addresses = tls().certificate_hosts(found / tls().SERVER_CERT)
    except (OSError, ValueError, IndexError):
        return name or "localhost"
    try:
        asked_address = ipaddress.ip_address(name)
    except ValueError:
        asked_address = None
    if name.lower() in cert_names or asked_address in cert_addresses:
        return name
    hosts = tls().phone_addresses(cert_names, cert_addresses)
    return hosts[0] if hosts else name or "localhost"


def addresses() -> tuple[str, str]:
    """(the HTTPS address of the page, the plain address of `/ca`)."""
    host = tls().url_host(phone_host())
    config = current_app.config
    https_port = config.get("HTTPS_PORT") or 443
    http_port = config.get("HTTP_PORT") or request.environ.get("SERVER_PORT") or 80
    secure = f"https://{host}/" if int(https_port) == 443 else f"https://{host}:{https_port}/"
    plain = f"http://{host}/ca" if int(http_port) == 80 else f"http://{host}:{http_port}/ca"
    return secure, plain


def private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("Host")
    return response


@bp.get("/ca")
def page() -> Response:
    found = folder()
    secure, plain = addresses()
    fingerprint = tls().fingerprint(found / tls().CA_CERT) if found is not None else ""
    html = PAGE.read_text(encoding="utf-8")
    for name, value in (("ready", "yes" if found else ""), ("https", secure), ("plain", plain),
                        ("fingerprint", fingerprint)):
        html = html.replace(f'data-{name}=""', f'data-{name}="{escape(value)}"', 1)
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    return private(response)


@bp.get("/ca/kibic-ca.crt")
def certificate_der() -> Response:
    return download(tls().ca_der(ca_path()), "application/x-x509-ca-cert", "kibic-ca.crt")


@bp.get("/ca/kibic-ca.pem")
def certificate_pem() -> Response:
    return download(ca_path().read_bytes(), "application/x-pem-file", "kibic-ca.pem")


@bp.get("/ca/kibic-ca.mobileconfig")
def profile() -> Response:
    return download(tls().mobileconfig(ca_path()), "application/x-apple-aspen-config", "kibic-ca.mobileconfig")


def download(data: bytes, mimetype: str, filename: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/ca/qr-https.svg")
def qr_https() -> Response:
    return qr(addresses()[0], "The secure address")


@bp.get("/ca/qr-page.svg")
def qr_page() -> Response:
    return qr(addresses()[1], "This page")


def qr(link: str, title: str) -> Response:
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=4, border=2, dark="#000", light="#fff", xmldecl=False,
                                     title=title)
    return private(Response(svg.getvalue(), mimetype="image/svg+xml"))
