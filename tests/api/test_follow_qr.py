"""The follow link: the page it opens, and GET /api/matches/{id}/qr.svg, its QR code read back module by module."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import segno
from conftest import ContractClient
from flask.testing import FlaskClient

from api import create_app

SVG = "{http://www.w3.org/2000/svg}"


def dark_modules(svg: bytes) -> set[tuple[int, int]]:
    """The dark modules (column, row) that segno's SVG path draws: runs of `h n` along rows."""
    root = ET.fromstring(svg)
    path = next(p for p in root.iter(f"{SVG}path") if p.get("class") == "qrline")
    scale = int(re.search(r"scale\((\d+)\)", ET.tostring(root, encoding="unicode")).group(1))
    assert scale >= 3
    x = y = 0.0
    dark = set()
    for command, numbers in re.findall(r"([MmHh])([-\d. ]+)", path.get("d")):
        values = [float(n) for n in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            run = int(values[0])
            dark.update((int(x) + i, int(y - 0.5)) for i in range(run))
            x += run
    return dark


def symbol_of(text: str, border: int) -> set[tuple[int, int]]:
    matrix = segno.make(text, error="m").matrix
    return {(col + border, row + border) for row, line in enumerate(matrix) for col, bit in enumerate(line) if bit}


def test_the_qr_code_holds_the_follow_link_of_the_match(table, client):
    match = table.new_match()
    response = client.get(f"/api/matches/{match['id']}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert match["key"].encode() not in response.data
    follow = f"http://localhost/?m={match['id']}"
    assert dark_modules(response.data) == symbol_of(follow, border=2)
    assert dark_modules(response.data) != symbol_of(follow + "x", border=2)


def test_the_follow_link_opens_the_page(table, app):
    match = table.new_match()
    page = FlaskClient(app, app.response_class).get(f"/?m={match['id']}")  # the page is not in the API contract
    assert page.status_code == 200
    assert re.search(rb'<script type="module" src="static/v/[0-9a-f]{16}/js/main.js">', page.data)
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy and "unsafe-inline" not in policy


def test_no_qr_code_for_an_unknown_match(client):
    response = client.get("/api/matches/nothing-here/qr.svg")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "match_not_found"


def test_without_a_public_address_no_shared_cache_keeps_a_qr_code_built_from_the_host(table, client):
    match = table.new_match()
    response = client.get(f"/api/matches/{match['id']}/qr.svg", headers={"Host": "evil.example"})
    assert response.headers["Cache-Control"].startswith("private")


def test_with_a_public_address_the_qr_code_ignores_the_host_header(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db"),
                      "PUBLIC_URL": "https://kibic.example.org/"})
    app.test_client_class = ContractClient
    client = app.test_client()
    match = client.post("/api/matches", json={"game": "ogorek", "players": ["S", "W"]}).get_json()
    response = client.get(f"/api/matches/{match['id']}/qr.svg", headers={"Host": "evil.example"})
    assert dark_modules(response.data) == symbol_of(f"https://kibic.example.org/?m={match['id']}", border=2)
    assert response.headers["Cache-Control"] == "public, max-age=86400"


def test_trusted_hosts_refuse_any_other_host(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db"), "TRUSTED_HOSTS": ["kibic.local"]})
    client = app.test_client()
    refused = client.get("/api/games", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "bad_request"
    assert client.get("/api/games", headers={"Host": "kibic.local"}).status_code == 200
