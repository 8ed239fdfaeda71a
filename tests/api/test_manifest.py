"""The page's web app manifest and icons, as files: what a phone needs to install the page (Chromium's own
installability check runs in tests/load/test_https.py, over HTTPS at the club's name)."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

from api import create_app

STATIC = Path(__file__).resolve().parents[2] / "webui" / "static"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


def png_has_alpha(path: Path) -> bool:
    return path.read_bytes()[25] in (4, 6)  # the IHDR colour type: grey or RGB with alpha


def test_the_manifest_lets_a_phone_install_the_page():
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == manifest["short_name"] == "Kibic"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "../"  # the page at the root, from static/
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    theme = re.search(r'<meta name="theme-color" content="(#[0-9a-f]{6})">', html).group(1)
    assert manifest["theme_color"] == theme
    paper = re.search(r"--paper: (#[0-9a-f]{6});", (STATIC / "css" / "kibic.css").read_text(encoding="utf-8"))
    assert manifest["background_color"] == paper.group(1)
    purposes = set()
    for icon in manifest["icons"]:
        width, height = png_size(STATIC / icon["src"])
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png", icon
        purposes.add((icon["purpose"], width))
        if icon["purpose"] == "maskable":
            assert not png_has_alpha(STATIC / icon["src"])  # the background goes to the edges
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= purposes


def test_the_page_names_its_manifest_and_apples_icon():
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="static/manifest.webmanifest">' in html
    apple = re.search(r'<link rel="apple-touch-icon" href="static/([^"]+)">', html).group(1)
    assert png_size(STATIC / apple) == (180, 180) and not png_has_alpha(STATIC / apple)


def test_the_manifest_is_served_as_a_manifest(tmp_path):
    """(The page's files are not the API: a client of the app's own, not the suite's, which holds every answer
    to openapi.yaml.)"""
    app = create_app({"DATABASE": str(tmp_path / "referee.db"), "TESTING": True})
    answer = app.test_client().get("/static/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
