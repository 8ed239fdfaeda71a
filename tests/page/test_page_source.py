"""The page's files: no HTML built from strings, no inline code or style, nothing loaded from elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "webui" / "static"
FILES = sorted(path for path in STATIC.rglob("*") if path.is_file())
TEXT = {path: path.read_text(encoding="utf-8") for path in FILES if path.suffix in {".html", ".js", ".css", ".svg"}}
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def test_the_page_has_its_files():
    names = {path.relative_to(STATIC).as_posix() for path in FILES}
    assert {"index.html", "css/kibic.css", "js/main.js", "i18n/pl.json", "i18n/en.json", "i18n/ru.json"} <= names


@pytest.mark.parametrize("path", [p for p in TEXT if p.suffix == ".js"], ids=lambda p: p.name)
def test_scripts_never_parse_html(path):
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function", TEXT[path])


@pytest.mark.parametrize("path", [p for p in TEXT if p.suffix == ".js"], ids=lambda p: p.name)
def test_scripts_set_no_inline_style(path):
    assert not re.search(r"\.style\b|[\"']style[\"']\s*:", TEXT[path])


def test_the_html_has_no_inline_script_style_or_handler():
    html = TEXT[STATIC / "index.html"]
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="static/js/main.js">']
    assert "<style" not in html and " style=" not in html
    assert not re.search(r"\son[a-z]+=", html)


@pytest.mark.parametrize("path", list(TEXT), ids=lambda p: p.relative_to(STATIC).as_posix())
def test_nothing_is_loaded_from_outside_the_server(path):
    addresses = set(re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", TEXT[path])) - {SVG_NAMESPACE}
    assert not addresses, addresses
