"""`python -m webui.icons`: the page's PNG icons, drawn from `static/icon.svg` by headless Chromium, into
`static/icons/` (committed: run it again only after changing the SVG).

A phone installs the page with PNG icons: 192 and 512 px as the SVG draws them (rounded corners); a maskable one
(the background to the edges, the card within the middle 80% that any mask shape keeps); and Apple's touch icon,
180 px, square and opaque (iOS rounds its corners itself).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

STATIC = Path(__file__).parent / "static"
ICONS = STATIC / "icons"
CHROMIUM = "/usr/bin/chromium"


def variants(svg: str) -> dict[str, tuple[str, int]]:
    """Each icon's file name: (its SVG, its size in px)."""
    square = re.sub(r'(<rect width="64" height="64") rx="\d+"', r"\1", svg, count=1)
    if square == svg:
        raise ValueError("icon.svg no longer starts with its 64x64 rounded background")
    background, rest = square.split("/>", 1)[0] + "/>", square.split("/>", 1)[1]
    head = square[:square.index("<rect")]
    body = rest[:rest.rindex("</svg>")]
    inner = 'transform="translate(32 32) scale(0.72) translate(-32 -32)"'
    maskable = f'{head}{background[background.index("<rect"):]}<g {inner}>{body}</g></svg>'
    return {"icon-192.png": (svg, 192), "icon-512.png": (svg, 512), "maskable-512.png": (maskable, 512),
            "apple-touch-icon.png": (square, 180)}


def main() -> int:
    from playwright.sync_api import sync_playwright

    ICONS.mkdir(exist_ok=True)
    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for name, (drawing, size) in variants(svg).items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            sized = drawing.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<!doctype html><style>html,body{{margin:0;background:transparent}}svg{{display:block}}"
                             f"</style>{sized}")
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(ICONS / name)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
