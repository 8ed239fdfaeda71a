"""A phone that loses the network keeps its entries and sends them when it is back, none of them twice."""

from __future__ import annotations

import pytest
from conftest_browser import FIRST, LOCALES, PHONES
from test_page_games import TABLE
from test_page_thumb import words

from referee import GAMES

pytestmark = pytest.mark.browser

RETRY_SECONDS = 6  # the page retries every 2.5 s, and at once when the browser says it is online


def plays(server_api, match_id: str) -> list[tuple[int, str]]:
    events = server_api(f"/api/matches/{match_id}/events")["events"]
    return [(e["seat"], e["card"]) for e in events if e["type"] == "play"]


def test_entries_made_offline_are_sent_once_when_the_network_is_back(phone, server_api):
    match_id = phone.start_match(["S", "W", "N", "E"], dealer=0)
    phone.click("#log-deal")
    phone.play(1, "K")
    phone.wait_turn(2)

    phone.context.set_offline(True)
    phone.tap_card("2")  # N
    phone.page.wait_for_selector("#offline")
    phone.page.wait_for_selector('.seat.to-act[data-seat="3"]')  # the page goes on while the entry waits
    phone.tap_card("3")  # E
    phone.page.wait_for_selector("#pending:text('2 queued')")
    assert phone.page.get_attribute("#pending", "aria-label") == "2 waiting to be sent"
    assert phone.page.locator('.seat[data-seat="2"] .card.pending[data-card="2"]').count() == 1
    phone.screenshot("offline-queue")
    assert plays(server_api, match_id) == [(1, "K")]
    kept = phone.page.evaluate(f"JSON.parse(localStorage.getItem('kibic.outbox.{match_id}'))")
    assert [(e["body"]["seat"], e["body"]["card"], e["body"]["expect_seq"]) for e in kept] == [(2, "2", 2), (3, "3", 3)]
    assert len({e["id"] for e in kept}) == 2  # each with its own Idempotency-Key

    phone.context.set_offline(False)
    phone.page.wait_for_selector("#pending", state="detached", timeout=RETRY_SECONDS * 1000)
    phone.wait_turn(0)
    assert plays(server_api, match_id) == [(1, "K"), (2, "2"), (3, "3")]


def test_an_entry_whose_answer_was_lost_is_not_recorded_twice(phone, server_api):
    match_id = phone.start_match(["S", "W", "N", "E"], dealer=0)
    phone.click("#log-deal")
    phone.wait_turn(1)
    lost = []

    def lose_the_answer(route):
        if not lost:  # the request reaches the server and is recorded; its answer never comes back
            lost.append(route.fetch().status)
            route.abort("failed")
        else:
            route.continue_()

    phone.page.route("**/api/matches/*/events", lose_the_answer)
    phone.tap_card("K")
    # the page sends it again with the same Idempotency-Key and gets the first answer
    phone.page.wait_for_selector("#pending", state="detached", timeout=RETRY_SECONDS * 1000)
    phone.wait_turn(2)
    assert lost == [201]
    assert plays(server_api, match_id) == [(1, "K")]
    assert server_api(f"/api/matches/{match_id}")["seq"] == 2


def test_the_page_opens_without_network_and_its_entries_are_sent_later(new_phone, server_api):
    """A service worker keeps the page (on this machine, as over HTTPS): a reload offline shows the table as it
    was, not the browser's error page, and the table goes on; what is entered is sent once the network is back."""
    phone = new_phone(service_workers="allow")
    match_id = phone.start_match(["S", "W", "N", "E"], dealer=0)
    phone.click("#log-deal")
    phone.wait_turn(1)
    phone.page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10000)
    phone.context.set_offline(True)
    phone.page.reload()
    phone.page.wait_for_selector(".tab-panel")
    phone.page.wait_for_selector("#offline")
    phone.wait_turn(1)
    phone.tap_card("K")
    phone.page.wait_for_selector('.seat[data-seat="1"] .card.pending[data-card="K"]')
    phone.screenshot("offline-reload", full_page=False)
    assert plays(server_api, match_id) == []
    phone.context.set_offline(False)
    phone.page.wait_for_selector("#pending", state="detached", timeout=RETRY_SECONDS * 1000)
    assert plays(server_api, match_id) == [(1, "K")]


def test_the_service_worker_keeps_every_file_of_the_page(server_api, live_server):
    import re
    import urllib.request
    from pathlib import Path

    with urllib.request.urlopen(f"{live_server}/sw.js", timeout=10) as response:
        script = response.read().decode()
        assert response.headers["Content-Type"].startswith("text/javascript")
    files = json_list(re.search(r"const FILES = (\[.*?\]);", script).group(1))
    static = Path(__file__).resolve().parents[2] / "webui" / "static"
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', script).group(1)
    # the page's code and words at their version (kept for good by the browser), the rest where they are
    expected = {f"static/v/{version}/{name}" if name.startswith(("js/", "css/", "i18n/")) else f"static/{name}"
                for name in (p.relative_to(static).as_posix() for p in static.rglob("*")
                             if p.is_file() and p.name not in ("sw.js", "index.html"))}
    assert set(files) == expected | {"./"}
    assert any(name.endswith("/js/main.js") and name.startswith(f"static/v/{version}/") for name in files)


def json_list(text: str) -> list[str]:
    import json
    return json.loads(text)


SIGN_IN_VIEW = """() => {
    const el = document.getElementById("link-sign");
    if (!el || el.hidden) return null;
    const r = el.getBoundingClientRect();
    const bar = document.getElementById("bottom").getBoundingClientRect();
    return {text: el.textContent, whole: el.scrollWidth <= el.clientWidth + 0.5 && r.left >= 0
            && r.right <= window.innerWidth, inView: r.top >= 0 && r.bottom <= bar.top};
}"""


# each size's walk starts in another language, from the phone's locale


@pytest.mark.parametrize("size", list(PHONES))
def test_offline_and_the_entries_waiting_are_said_whole_above_the_bar_while_tapping(new_phone, server_api, size):
    """Five at the table (the status line at the top is crowded and scrolled away while the cards are tapped): the
    sign of a phone offline, with its entries waiting, is whole and in view just above the bottom bar. One walk a
    size; the sign, drawn again in the new words when the table switches language, is looked at in each language
    switched in place (offline, the same two entries waiting)."""
    names = ["Agnieszka", "Bartłomiej", "Katarzyna", "Małgorzata", "Przemysław"]
    match = server_api.post("/api/matches", {"game": "ogorek", "players": names})
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "deal", "dealer": 0}, match["key"])
    phone = new_phone(locale=LOCALES[FIRST[size]], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    assert phone.page.evaluate(SIGN_IN_VIEW) is None
    phone.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    phone.context.set_offline(True)
    phone.tap_card("K")
    phone.page.wait_for_selector("#offline")
    phone.tap_card("A")
    phone.page.wait_for_selector("#pending")
    phone.calm()
    for lang in phone.languages(LOCALES):
        sign = phone.page.evaluate(SIGN_IN_VIEW)
        assert sign == {"text": f"{words(lang, 'status.offline')} · {words(lang, 'status.pending.other', n=2)}"
                        if lang == "en" else sign["text"], "whole": True, "inView": True}, lang
        assert sign["text"].startswith(words(lang, "status.offline")) and "2" in sign["text"], lang
        phone.screenshot(f"offline-sign-{size}-{lang}", full_page=False)
    phone.context.set_offline(False)
    phone.page.wait_for_selector("#pending", state="detached", timeout=RETRY_SECONDS * 1000)
    phone.page.wait_for_selector("#link-sign", state="hidden")


CUT = "els => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)"


@pytest.mark.parametrize("game", [name for name, game in GAMES.items() if game.keypad in ("ranks", "suit_rank")])
def test_the_deal_line_counts_the_trick_that_plays_waiting_to_be_sent_have_taken(new_phone, server_api, game):
    """A whole first trick tapped without network: the page goes on into the second trick, and the deal line says
    trick 2, not the 1 of the state the server last sent; in each language, switched in place (offline too)."""
    players = ["Ala", "Bob", "Cyd"]
    options = {"sequence": [3, 3]} if "sequence" in {o.name for o in GAMES[game].options} else {}
    match = server_api.post("/api/matches", {"game": game, "players": players, "options": options})
    events = f"/api/matches/{match['id']}/events"
    trump = {"trump": "2C"} if "trump" in GAMES[game].event_fields["deal"] else {}
    server_api.post(events, {"type": "deal", "dealer": 0, **trump}, match["key"])
    while (expected := server_api(f"/api/matches/{match['id']}")["expected"])["type"] == "bid":
        server_api.post(events, {"type": "bid", "seat": expected.get("seat", (expected.get("seats") or [0])[0]),
                                 "bid": 0, "force": True}, match["key"])
    phone = new_phone(locale=LOCALES["en"], viewport=PHONES["360x740"])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    state = server_api(f"/api/matches/{match['id']}")
    size = state["rules"]["hand_sizes"][0]
    for lang in LOCALES:
        phone.language(lang)
        assert words(lang, "info.trick", n=1, of=size) in phone.text("#deal-info"), lang
    phone.context.set_offline(True)
    for index in range(len(players)):  # three different cards, one for each seat in turn
        key = f"button:nth-child({index + 2})"
        phone.click(f".action .keypad.ranks > {key}, .action .keypad.suited .ranks > {key}")
    phone.page.wait_for_selector(f"#pending:text('{len(players)}')")
    phone.calm()
    for lang in [*reversed(LOCALES)]:
        phone.language(lang)
        assert words(lang, "info.trick", n=2, of=size) in phone.text("#deal-info"), lang
        # the status line at the top says each of its parts whole: the scorer's, offline, the entries queued
        assert phone.page.eval_on_selector_all(".status-line > *", CUT) == [], lang
        phone.screenshot(f"offline-trick-two-{game}-{lang}", full_page=False)
    phone.context.set_offline(False)


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_language_changes_offline_without_a_service_worker(phone, server_api, lang):
    """On the club's plain-HTTP network no service worker keeps the page's files: a language never shown on this
    phone is switched to with the network gone, the table drawn in its words and nothing failing."""
    phone.start_match(["S", "W", "N", "E"], dealer=0)
    phone.page.wait_for_load_state("networkidle")
    assert phone.page.evaluate("() => navigator.serviceWorker.controller") is None
    phone.context.set_offline(True)
    phone.language(lang)
    assert phone.text("#tab-table") == TABLE[lang]
    assert phone.text("#tab-scores") == words(lang, "tab.scores")


def test_a_page_opened_again_asks_for_none_of_its_files_over_plain_http(phone):
    """Over the club's plain HTTP (no service worker): the first open fetches the page's code, styles and words, the
    next one takes every one of them from the browser's cache, with no request (before: each asked again, a 304)."""
    fetched = "() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/static/v/'))" \
              ".map((e) => [e.name, e.transferSize])"
    phone.page.goto("/")
    phone.page.wait_for_selector("form.setup")
    phone.page.goto("/")  # the phone was lent with its cache: a page it may have opened before, loaded anew
    phone.page.wait_for_selector("form.setup")
    files = phone.page.evaluate(fetched)
    assert any(name.endswith("/js/main.js") for name, _ in files) and any("/i18n/" in name for name, _ in files)
    assert [name for name, size in files if size > 0] == []
