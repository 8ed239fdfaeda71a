"""The page's follow link as a QR code: what a phone at the table scans to follow a match or an evening."""

from __future__ import annotations

import io

import segno
from flask import Response, current_app, url_for


def follow_qr(title: str, **query: str) -> Response:
    """An SVG QR code of the page's link with `query`, from the configured public address when there is one."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        link = f"{public.rstrip('/')}{url_for('webui.index', **query)}"
    else:
        link = url_for("webui.index", _external=True, **query)
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                     xmldecl=False, title=title)
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400" if public else "private, max-age=86400"
    return response
