"""A follower's page takes each new state from the stream, and polls with the ETag while the stream is broken."""

from __future__ import annotations

import re

import pytest
from conftest_browser import PHONES, Phone, ServerApi
from gunicorn_server import serve
from test_page_thumb import words

from api import admin

pytestmark = pytest.mark.browser

FOLLOW_SECONDS = 2.5  # a bound for the wait, not a measure: the benchmark measures how soon (bench/results.md)


def requests_to(phone, match_id: str) -> dict[str, list[str]]:
    """The URLs the phone asks of the match, by kind, as they go out."""
    seen: dict[str, list[str]] = {"stream": [], "state": []}
    state = re.compile(rf"/api/matches/{re.escape(match_id)}$")

    def record(request) -> None:
        if request.url.endswith(f"/api/matches/{match_id}/stream"):
            seen["stream"].append(request.url)
        elif state.search(request.url):
            seen["state"].append(request.url)

    phone.page.on("request", record)
    return seen


def scorer_and_follower(new_phone, stream_broken: bool = False):
    scorer = new_phone()
    match_id = scorer.start_match(["S", "W", "N", "E"], dealer=0)
    follower = new_phone()
    if stream_broken:  # a proxy that cuts the stream, or a network that drops long requests
        follower.page.route("**/stream", lambda route: route.abort())
    seen = requests_to(follower, match_id)
    with follower.page.expect_request(lambda request: request.url.endswith("/stream")):
        follower.open(f"/?m={match_id}")
    follower.page.wait_for_selector("#mode.following")
    return scorer, follower, seen


def test_a_follower_gets_each_play_pushed_by_the_stream(new_phone):
    scorer, follower, seen = scorer_and_follower(new_phone)
    polled_before = len(seen["state"])

    scorer.page.click("#log-deal")
    scorer.play(1, "K")
    within = FOLLOW_SECONDS * 1000
    follower.page.wait_for_selector('.seat[data-seat="1"] .in-front .card[data-card="K"]', timeout=within)
    scorer.play(2, "A")  # a Q on the K would be refused: N's other five cards could not all be the three Qs left
    follower.page.wait_for_selector('.seat[data-seat="2"] .in-front .card[data-card="A"]', timeout=within)
    follower.page.wait_for_selector('.seat.to-act[data-seat="3"]', timeout=within)

    assert len(seen["stream"]) == 1
    assert len(seen["state"]) == polled_before  # pushed, not polled
    assert follower.problems == []


def test_a_follower_whose_stream_breaks_polls_with_the_etag(new_phone):
    scorer, follower, seen = scorer_and_follower(new_phone, stream_broken=True)
    scorer.page.click("#log-deal")
    scorer.play(1, "K")
    within = (FOLLOW_SECONDS + 1.5) * 1000  # a poll every 1.5 s
    follower.page.wait_for_selector('.seat[data-seat="1"] .in-front .card[data-card="K"]', timeout=within)
    follower.page.wait_for_selector('.seat.to-act[data-seat="2"]', timeout=within)

    assert seen["stream"], "the page never tried the stream"
    assert len(seen["state"]) >= 2  # the first look, then the polls that found the play
    assert follower.problems == []
    follower.screenshot("follower-polling")


def test_a_follower_whose_stream_is_broken_says_so_in_view_with_when_it_last_heard(new_phone):
    """With the stream cut, the follower says, whole and at the bottom of the screen whatever is scrolled, that it has
    no live view and when it last heard from the server (its polls: just now); with the stream working, nothing. On
    each phone, in each language (switched in place)."""
    scorer, follower, _ = scorer_and_follower(new_phone, stream_broken=False)
    follower.calm()
    assert follower.page.locator("#link-sign").is_hidden()  # the stream works: no sign
    cut = new_phone(locale="en-US")
    cut.page.route("**/stream", lambda route: route.abort())
    cut.open(scorer.page.url.split("#")[0])
    cut.page.wait_for_selector("#mode.following")
    cut.page.wait_for_selector("#link-sign:not([hidden])")
    for size in PHONES:
        cut.resize(PHONES[size])
        for lang in ("pl", "en", "ru"):
            cut.language(lang)
            cut.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            cut.calm()
            sign = cut.page.eval_on_selector("#link-sign", """el => {
                const r = el.getBoundingClientRect();
                return {text: el.textContent, whole: el.scrollWidth <= el.clientWidth + 0.5 && r.left >= 0
                        && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight};
            }""")
            assert sign["whole"], (size, lang)
            assert sign["text"] == words(lang, "status.stream_lost", ago=words(lang, "status.ago_now")), (size, lang)
            cut.screenshot(f"follower-stream-lost-{size}-{lang}", full_page=False)


@pytest.mark.server
def test_a_follower_is_shown_the_match_as_a_restore_puts_it_back(chromium, tmp_path):
    """A follower's page shows W's K; the box's data is put back to a backup made before it (`kibic restore`, online):
    the page shows the match without the K, and then the 2 another phone enters in its place at the same seq
    (before: the stream sent nothing until a seq past the K's, and the page kept the K)."""
    database, backup = tmp_path / "referee.db", tmp_path / "backup.db"
    with serve(database) as base:
        server = ServerApi(base)
        match = server.post("/api/matches", {"game": "ogorek", "players": ["S", "W", "N", "E"]})
        events = f"/api/matches/{match['id']}/events"
        server.post(events, {"type": "deal", "dealer": 0}, match["key"])
        admin.backup(str(database), backup)
        server.post(events, {"type": "play", "seat": 1, "card": "K"}, match["key"])
        follower = Phone(chromium, base)
        try:
            follower.open(f"/?m={match['id']}")
            follower.page.wait_for_selector('.seat[data-seat="1"] .in-front .card[data-card="K"]')
            admin.restore(str(database), backup)
            follower.page.wait_for_selector('.seat[data-seat="1"] .in-front .card', state="detached",
                                            timeout=FOLLOW_SECONDS * 1000)
            assert follower.page.locator('.seat.to-act[data-seat="1"]').count() == 1  # W to play again
            played = server.post(events, {"type": "play", "seat": 1, "card": "2"}, match["key"])
            assert played["event"]["seq"] == 2  # the seq the K had
            follower.page.wait_for_selector('.seat[data-seat="1"] .in-front .card[data-card="2"]',
                                            timeout=FOLLOW_SECONDS * 1000)
            assert follower.problems == []
        finally:
            follower.close()
