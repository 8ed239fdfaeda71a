"""`/ca` without a browser: what it answers with and without the box's authority, whatever Host a request names
(the page's words and downloads in a real browser over the club's network: tests/load/test_https.py)."""

from __future__ import annotations

import re

import pytest

from api import create_app, tls


@pytest.fixture
def club(tmp_path):
    folder = tmp_path / "tls"
    tls.ensure_certificates(folder, ["club.lan"], ["192.168.1.20", "127.0.0.1"])
    app = create_app({"DATABASE": str(tmp_path / "referee.db"), "TESTING": True, "TLS_FOLDER": str(folder),
                      "HTTPS_PORT": 8443, "HTTP_PORT": 8000})
    return app.test_client(), folder


def data(html: str) -> dict[str, str]:
    main = re.search(r'<main id="ca"[^>]*>', html).group(0)
    return dict(re.findall(r'data-(\w+)="([^"]*)"', main))


def test_the_page_gives_the_addresses_at_the_name_the_phone_used(club):
    client, folder = club
    answer = client.get("/ca", headers={"Host": "club.lan:8000"})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    assert "Host" in answer.headers["Vary"]
    said = data(answer.get_data(as_text=True))
    assert said == {"ready": "yes", "https": "https://club.lan:8443/", "plain": "http://club.lan:8000/ca",
                    "fingerprint": tls.fingerprint(folder / tls.CA_CERT)}


@pytest.mark.parametrize("host", ["evil.example:8000", 'x"><script>alert(1)</script>', "10.9.9.9:8000", ""])
def test_a_host_the_certificate_does_not_cover_gets_the_boxs_own_address(club, host):
    client, _ = club
    html = client.get("/ca", headers={"Host": host}).get_data(as_text=True)
    assert "<script>alert" not in html
    said = data(html)
    assert said["https"] == "https://192.168.1.20:8443/" and said["plain"] == "http://192.168.1.20:8000/ca"


def test_the_downloads_are_the_boxs_authority(club):
    client, folder = club
    crt = client.get("/ca/kibic-ca.crt")
    assert crt.data == tls.ca_der(folder / tls.CA_CERT) and crt.mimetype == "application/x-x509-ca-cert"
    assert crt.headers["Content-Disposition"] == 'attachment; filename="kibic-ca.crt"'
    assert client.get("/ca/kibic-ca.pem").data == (folder / tls.CA_CERT).read_bytes()
    assert client.get("/ca/kibic-ca.mobileconfig").data == tls.mobileconfig(folder / tls.CA_CERT)
    for which in ("https", "page"):
        qr = client.get(f"/ca/qr-{which}.svg", headers={"Host": "club.lan"})
        assert qr.mimetype == "image/svg+xml" and qr.headers["Cache-Control"] == "no-store"


def test_without_https_the_page_says_so_and_there_is_nothing_to_download(tmp_path):
    client = create_app({"DATABASE": str(tmp_path / "referee.db"), "TESTING": True}).test_client()
    assert data(client.get("/ca").get_data(as_text=True))["ready"] == ""
    for path in ("/ca/kibic-ca.crt", "/ca/kibic-ca.pem", "/ca/kibic-ca.mobileconfig"):
        answer = client.get(path)
        assert answer.status_code == 404 and set(answer.get_json()["error"]) == {"code", "message", "details"}
