"""The page's files: its code, styles and words asked for at the version of the page's files and kept for good by the
browser, so that a phone opens the page again with no request for them (over the club's plain HTTP too)."""

from __future__ import annotations

import re
import shutil

import pytest

import webui
from api import create_app


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db")}).test_client()


def page_files(client) -> list[str]:
    return re.findall(r'(?:src|href)="(static/[^"]+)"', client.get("/").get_data(as_text=True))


def test_the_pages_code_and_styles_are_at_the_files_version_and_kept_for_good(client):
    version, names = webui.files()
    asked = page_files(client)
    assert f"static/v/{version}/js/main.js" in asked and f"static/v/{version}/css/kibic.css" in asked
    for address in asked:
        answer = client.get(f"/{address}")
        assert answer.status_code == 200, address
        if "/v/" in address:
            assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable", address
            assert answer.data == (webui.STATIC / address.split("/", 3)[3]).read_bytes()
        else:  # the icons and the manifest (whose addresses a phone keeps when it installs the page): asked again
            assert answer.headers["Cache-Control"] == "no-cache", address


def test_a_file_at_another_version_is_served_as_it_is_now_and_not_kept(client):
    answer = client.get("/static/v/0000000000000000/js/main.js")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache"
    assert answer.data == (webui.STATIC / "js" / "main.js").read_bytes()
    assert client.get(f"/static/v/{webui.files()[0]}/manifest.webmanifest").status_code == 404
    assert client.get(f"/static/v/{webui.files()[0]}/js/../../sw.js").status_code == 404


def test_a_changed_file_makes_a_new_version_and_new_addresses(client, tmp_path, monkeypatch):
    static = tmp_path / "static"
    shutil.copytree(webui.STATIC, static)
    monkeypatch.setattr(webui, "STATIC", static)
    before = webui.files()[0]
    assert f"static/v/{before}/js/main.js" in page_files(client)
    words = static / "js" / "taps.js"
    words.write_text(words.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    after = webui.files()[0]
    assert after != before
    assert f"static/v/{after}/js/main.js" in page_files(client)
    assert f'"static/v/{after}/js/taps.js"' in client.get("/sw.js").get_data(as_text=True)


def test_the_page_is_answered_not_modified_when_unchanged(client):
    first = client.get("/")
    assert first.headers["Cache-Control"] == "no-cache" and first.headers["ETag"]
    assert client.get("/", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
