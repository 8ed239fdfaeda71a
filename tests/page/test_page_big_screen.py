"""The big screen by the table (`/?e=<id>&screen`): on a tablet or TV in landscape, the current match's seats,
cards on the table and scoresheet, the evening's standings and the referee's last word, large, and live."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import pytest

from referee import GAMES, catalogue

pytestmark = pytest.mark.browser

SEED_DEAL = "1K 22 33 0A  09 1K 25 37  17 2Q 3Q 02  39 09 13 2Q  210 38 06 14  25 39 07 16".split()
# W plays 6 in trick 5 as their lowest card and then shows 4 as the last card: the 4 proves the 6 illegal
PROVEN = SEED_DEAL[:16] + "210 38 06 16  25 39 07 14".split()
SCREENS = {"1280x800": {"width": 1280, "height": 800}, "1024x768": {"width": 1024, "height": 768}}
TVS = {"1280x720": {"width": 1280, "height": 720}, "1920x1080": {"width": 1920, "height": 1080}}
LOGS = Path(__file__).resolve().parents[1] / "support" / "logs"
COMMAND_FIELDS = ("type", "seat", "card", "bid", "dealer", "trump", "hands", "force")


def an_evening_at_the_seed_deal(server_api, deal=SEED_DEAL) -> tuple[dict, dict]:
    evening = server_api.post("/api/evenings", {"name": "Piątek", "currency": "PLN"})
    first = server_api.post("/api/matches", {"game": "ogorek", "players": ["Ann", "Bob"], "stake": "1",
                                             "evening": evening["id"]}, key=evening["key"])
    server_api.post(f"/api/matches/{first['id']}/events", {"type": "penalty", "seat": 1, "points": 22},
                    key=evening["key"])
    match = server_api.post("/api/matches", {"game": "ogorek", "players": ["S", "W", "N", "E"],
                                             "evening": evening["id"]}, key=evening["key"])
    post = lambda event: server_api.post(f"/api/matches/{match['id']}/events", event, key=evening["key"])  # noqa: E731
    post({"type": "deal", "dealer": 0})
    for play in deal:
        post({"type": "play", "seat": int(play[0]), "card": play[1:]})
    post({"type": "deal"})  # W deals the second deal; N leads
    post({"type": "play", "seat": 2, "card": "9"})
    return evening, match


@pytest.mark.parametrize("size", list(SCREENS))
def test_the_big_screen_shows_the_match_the_sheet_and_the_standings_large(new_phone, server_api, size):
    evening, _ = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=SCREENS[size])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    assert screen.text(".big-title h1") == "Piątek"
    assert screen.page.locator(".big-seat .big-name").all_inner_texts() == ["S", "W", "N", "E"]
    assert screen.page.locator(".big-seat .big-score").all_inner_texts() == ["0", "0", "0", "9"]
    assert screen.page.locator('.big-seat[data-seat="2"] .big-cards .card').all_inner_texts() == ["9"]
    assert screen.page.locator('.big-seat[data-seat="3"]').get_attribute("class").split().count("to-act") == 1
    assert screen.page.locator("#scoresheet tbody tr").count() == 1
    assert screen.page.locator(".big-standings th").all_inner_texts() == ["Ann", "S", "W", "N", "E", "Bob"]
    assert screen.page.locator(".big-standings .transfer").all_inner_texts() == ["Bob pays Ann 2.00 PLN"]
    size_of = "el => parseFloat(getComputedStyle(el).fontSize)"
    assert screen.page.locator(".big-standings th").first.evaluate(size_of) >= 28
    assert screen.page.locator(".big-seat .big-score").first.evaluate(size_of) >= 40
    overflow = screen.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    screen.screenshot(f"big-screen-{size}", full_page=False)


def test_the_big_screen_follows_the_table(new_phone, server_api):
    evening, match = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=SCREENS["1280x800"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    assert screen.page.locator(".big-referee").count() == 0
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "play", "seat": 3, "card": "10"}, key=match["key"])
    screen.page.wait_for_selector('.big-seat[data-seat="3"] .big-cards .card')
    assert screen.page.locator('.big-seat[data-seat="3"] .big-cards .card').all_inner_texts() == ["10"]
    assert "K" not in screen.text(".big-match")  # no card of a hand; none was entered, none is shown


def test_the_big_screen_says_the_referees_last_word(new_phone, server_api):
    evening, _ = an_evening_at_the_seed_deal(server_api, PROVEN)
    screen = new_phone(viewport=SCREENS["1280x800"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-referee")
    assert "W" in screen.text(".big-referee") and "6" in screen.text(".big-referee")
    screen.screenshot("big-screen-referee", full_page=False)


def test_the_evening_page_links_to_its_big_screen(phone, server_api):
    evening, _ = an_evening_at_the_seed_deal(server_api)
    phone.page.goto(f"/?e={evening['id']}")
    phone.page.wait_for_selector(".evening")
    assert phone.page.locator(f'a[href="?e={evening["id"]}&screen"]').count() == 1


def test_the_big_screen_is_never_drawn_in_the_phones_small_type(new_phone, server_api):
    """Its own styles come late (held back 1.5 s here, as on a slow link): nothing is drawn before they apply, so the
    screen never shows the phone's small type first and then grows under the eyes of the room."""
    evening, _ = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=SCREENS["1280x800"])

    def late(route) -> None:
        screen.page.wait_for_timeout(1500)
        route.continue_()

    screen.page.route("**/bigscreen.css", late)
    screen.page.goto(f"/?e={evening['id']}&screen")
    sizes = screen.page.evaluate("""() => new Promise((done) => {
        const seen = [];
        const look = () => {
            const th = document.querySelector('.big-standings th');
            if (th) seen.push(parseFloat(getComputedStyle(th).fontSize));
            if (seen.length >= 20) done(seen); else requestAnimationFrame(look);
        };
        look();
    })""")
    assert len(sizes) == 20 and min(sizes) >= 28, sizes


def test_the_big_screen_follows_the_stream_and_draws_every_state_at_once(new_phone, server_api):
    """Each tap is drawn as the stream brings it, none skipped, and the match is never read while the stream is up
    (polling every two seconds kept a tap off the screen for 0.9 s at the median, 2 s at worst)."""
    evening, match = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=TVS["1280x720"])
    state_reads = []
    screen.page.on("request", lambda r: r.url.endswith(f"/api/matches/{match['id']}") and state_reads.append(r.url))
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    screen.page.evaluate("""() => {
        window.shownAt = {};
        new MutationObserver(() => {
            const seq = document.querySelector('.big-screen')?.dataset.seq;
            if (seq && !(seq in window.shownAt)) window.shownAt[seq] = Date.now();
        }).observe(document.getElementById('app'), { childList: true });
    }""")
    post = lambda event: server_api.post(f"/api/matches/{match['id']}/events", event, key=match["key"])  # noqa: E731
    waits = []
    seqs = []
    for play in ["10", "K", "A", "9", "10", "Q", "K"]:  # trick 1 of the second deal after N's 9, then trick 2
        seat = server_api(f"/api/matches/{match['id']}")["expected"]["seat"]
        before = time.time()
        seq = post({"type": "play", "seat": seat, "card": play})["event"]["seq"]
        screen.page.wait_for_function(f"() => ({seq}) in (window.shownAt || {{}})", timeout=10_000)
        waits.append(screen.page.evaluate(f"() => window.shownAt[{seq}]") / 1000 - before)
        seqs.append(seq)
    shown = [int(seq) for seq in screen.page.evaluate("() => Object.keys(window.shownAt)")]
    assert sorted(shown) == seqs  # every state drawn, in turn
    assert state_reads == []  # the stream brought them all: the match was never polled
    print(f"tap to big screen: p50 {statistics.median(waits):.3f} s, max {max(waits):.3f} s over {len(waits)} taps")
    assert statistics.median(waits) < 0.6, waits  # polling every 2 s: about 1 s


def test_the_big_screen_reads_the_match_every_two_seconds_while_the_stream_is_broken(new_phone, server_api):
    evening, match = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=TVS["1280x720"])
    screen.page.route("**/stream", lambda route: route.abort())
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "play", "seat": 3, "card": "10"}, key=match["key"])
    screen.page.wait_for_selector('.big-seat[data-seat="3"] .big-cards .card', timeout=10_000)


def test_a_trick_taken_stays_in_view_until_the_next_lead(new_phone, server_api):
    evening, match = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=TVS["1280x720"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    post = lambda seat, card: server_api.post(f"/api/matches/{match['id']}/events",  # noqa: E731
                                              {"type": "play", "seat": seat, "card": card}, key=match["key"])
    for seat, card in [(3, "10"), (0, "K"), (1, "A")]:
        post(seat, card)
    screen.page.wait_for_selector(".big-seats.last-trick-shown")
    cards = lambda seat: screen.page.locator(f'.big-seat[data-seat="{seat}"] .big-cards .card').all_inner_texts()  # noqa: E731
    assert [cards(seat) for seat in range(4)] == [["K"], ["A"], ["9"], ["10"]]  # W's ace takes it; W leads next
    assert "to-act" in screen.page.locator('.big-seat[data-seat="1"]').get_attribute("class")
    assert "took-it" in screen.page.locator('.big-seat[data-seat="1"]').get_attribute("class")
    assert "W" in screen.text(".big-trick .last-trick")
    screen.page.wait_for_timeout(2500)  # still there seconds later
    assert [cards(seat) for seat in range(4)] == [["K"], ["A"], ["9"], ["10"]]
    post(1, "9")
    screen.page.wait_for_selector(".big-seats:not(.last-trick-shown)")
    assert [cards(seat) for seat in range(4)] == [[], ["9"], [], []]


def an_evening_of_a_recorded_match(server_api, log: str, deals: int | None = None) -> tuple[dict, dict]:
    """An evening whose match is a recorded log of tests/support/logs replayed, to the end or up to `deals` deals."""
    recorded = json.loads((LOGS / log).read_text(encoding="utf-8"))
    header = recorded["header"]
    evening = server_api.post("/api/evenings", {"name": "Piątek", "currency": "PLN"})
    match = server_api.post("/api/matches", {"game": header["game"], "players": header["players"],
                                             "options": header["options"], "stake": header["stake"],
                                             "evening": evening["id"]}, key=evening["key"])
    dealt = 0
    for event in recorded["events"]:
        if event["type"] == "deal":
            dealt += 1
            if deals is not None and dealt > deals:
                break
        if event["type"] == "undo":
            server_api.post(f"/api/matches/{match['id']}/undo", {}, key=match["key"])
        else:
            command = {field: event[field] for field in COMMAND_FIELDS if field in event}
            server_api.post(f"/api/matches/{match['id']}/events", command, key=match["key"])
    return evening, match


def assert_whole_on_the_screen(screen) -> None:
    """Nothing below the screen, nor beside it: the seats, the sheet's latest deal and its totals all in view."""
    page = screen.page
    size = page.viewport_size
    assert page.evaluate("() => document.documentElement.scrollHeight") <= size["height"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
    for selector in [".big-seats", "#scoresheet tfoot .totals", "#scoresheet tbody tr:last-child", ".big-standings"]:
        box = page.locator(selector).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, selector  # 1: rounding
    sheet, match = page.locator("#scoresheet").bounding_box(), page.locator(".big-match").bounding_box()
    assert sheet["x"] + sheet["width"] <= match["x"] + match["width"] + 1  # not over the standings


@pytest.mark.parametrize("size", list(TVS))
def test_a_whole_match_of_bids_and_trumps_fits_the_tv(new_phone, server_api, size):
    """All fifteen hands of a recorded Oh Hell match: the latest deals that fit and the totals, the trump and the bids,
    red suits red, and no scrolling (a TV cannot scroll)."""
    evening, match = an_evening_of_a_recorded_match(server_api, "oh_hell/001-table.json")
    final = server_api(f"/api/matches/{match['id']}")
    screen = new_phone(viewport=TVS[size])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet tfoot")
    assert_whole_on_the_screen(screen)
    rows = screen.page.locator("#scoresheet tbody tr")
    shown = [rows.nth(i).get_attribute("data-deal") for i in range(rows.count()) if rows.nth(i).is_visible()]
    assert shown and shown[-1] == "15" and len(shown) < 15  # the latest deals, the earlier left out and said so
    assert f"1–{15 - len(shown)}" in screen.text("#scoresheet caption")
    totals = screen.page.locator("#scoresheet tfoot td").all_inner_texts()
    assert totals == [str(p["score"]) for p in final["players"]]
    assert screen.page.locator(".big-seat .big-bid").count() == 3
    screen.screenshot(f"big-screen-whole-match-{size}", full_page=False)


@pytest.mark.parametrize("size", list(TVS))
def test_the_referees_word_leaves_the_sheet_on_the_tv(new_phone, server_api, size):
    """Three hands of Oh Hell with a revoke let stand: the referee's word, the trump in its colour, the bids, and the
    sheet with its totals, all on the screen."""
    evening, match = an_evening_of_a_recorded_match(server_api, "oh_hell/format-1-forced.json", deals=3)
    players = server_api(f"/api/matches/{match['id']}")["players"]
    screen = new_phone(viewport=TVS[size])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen .big-referee")
    assert_whole_on_the_screen(screen)
    assert screen.page.locator("#scoresheet tbody tr:visible").count() >= 1
    assert screen.page.locator(".big-seat .big-bid").all_inner_texts() == [f"bid {p['bid']}, took {p['tricks']}"
                                                                          for p in players]
    trump = screen.page.locator(".big-trick .trump-big .card")
    assert trump.inner_text() == "J♦" and "red" in trump.get_attribute("class").split()
    red = screen.page.evaluate("() => getComputedStyle(document.querySelector('.big-trick .trump-big .card')).color")
    assert red == "rgb(192, 22, 44)"
    screen.screenshot(f"big-screen-referee-{size}", full_page=False)


AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
               "resultTypes": ["violations"]}


def test_the_big_screen_is_held_to_wcag(new_phone, server_api):
    """axe-core over the big screen with a trick taken in view (its cards faded) and the referee's word, the trump
    and the bids."""
    from accessibility import Axe
    axe, found = Axe(), []
    evening, match = an_evening_at_the_seed_deal(server_api)
    for seat, card in [(3, "10"), (0, "K"), (1, "A")]:
        server_api.post(f"/api/matches/{match['id']}/events", {"type": "play", "seat": seat, "card": card},
                        key=match["key"])
    oh_hell, _ = an_evening_of_a_recorded_match(server_api, "oh_hell/format-1-forced.json", deals=3)
    screen = new_phone(viewport=TVS["1280x720"])
    for evening_id, ready in [(evening["id"], ".big-seats.last-trick-shown"), (oh_hell["id"], ".big-referee")]:
        screen.page.goto(f"/?e={evening_id}&screen")
        screen.page.wait_for_selector(ready)
        for violation in axe.run(screen.page, options=AXE_OPTIONS).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                found.append(f"{ready}: {violation['id']} {[node['target'] for node in violation['nodes']][:3]}")
    assert found == []


def an_evening_of_a_simulated_table(server_api, game: str, players: int, deals: int, steps: int = 2):
    """An evening whose match of `game` for `players` is played by tests/support's table simulator of the game (real
    shuffled hands, legal plays, none of them entered for the referee) for `deals` deals, and `steps` entries of the
    next."""
    import random

    from game_tables import SIMULATORS

    from referee import Match
    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"][:players]
    table = SIMULATORS[game](Match.create(game, names, {}), random.Random(players))
    commands, dealt, after = [], 0, 0
    while (command := table.step()) is not None and after < steps:
        commands.append(command)
        dealt += command["type"] == "deal"
        after += dealt > deals
    evening = server_api.post("/api/evenings", {"name": "Piątek", "currency": "PLN"})
    match = server_api.post("/api/matches", {"game": game, "players": names, "stake": "1", "evening": evening["id"]},
                            key=evening["key"])
    for command in commands:
        server_api.post(f"/api/matches/{match['id']}/events", command, key=match["key"])
    return evening, match


@pytest.mark.parametrize("size", list(TVS))
def test_seven_players_fit_the_tv(new_phone, server_api, size):
    evening, _ = an_evening_of_a_simulated_table(server_api, "oh_hell", 7, deals=5)
    screen = new_phone(viewport=TVS[size])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet tfoot")
    screen.screenshot(f"big-screen-seven-{size}", full_page=False)
    assert_whole_on_the_screen(screen)
    assert screen.page.locator(".big-seat").count() == 7


@pytest.mark.parametrize("game", GAMES)
def test_every_game_on_the_tv(new_phone, server_api, game):
    """Each game of the catalogue after three deals, as its simulated table plays them: drawn without a script error
    (the phone fails its test on one), the whole of it on the screen."""
    entry = next(g for g in catalogue() if g["game"] == game)
    players = min(entry["max_players"], 4)
    evening, _ = an_evening_of_a_simulated_table(server_api, game, players, deals=3, steps=3)
    screen = new_phone(viewport=TVS["1280x720"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen .big-seats")
    screen.screenshot(f"big-screen-{game}", full_page=False)
    assert screen.page.locator(".big-seat").count() == players
    if screen.page.locator("#scoresheet").count():
        assert_whole_on_the_screen(screen)
    else:
        assert screen.page.evaluate("() => document.documentElement.scrollHeight") <= 720


def test_the_big_screen_goes_on_to_the_next_match_and_follows_its_stream(new_phone, server_api):
    evening, match = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=TVS["1280x720"])
    streams = []
    screen.page.on("request", lambda r: r.url.endswith("/stream") and streams.append(r.url))
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "end"}, key=evening["key"])
    following = server_api.post("/api/matches", {"game": "ogorek", "players": ["Ann", "Bob", "Cid"],
                                                 "evening": evening["id"]}, key=evening["key"])
    screen.page.wait_for_function("() => document.querySelectorAll('.big-seat').length === 3", timeout=15_000)
    server_api.post(f"/api/matches/{following['id']}/events", {"type": "deal", "dealer": 0}, key=evening["key"])
    server_api.post(f"/api/matches/{following['id']}/events", {"type": "play", "seat": 1, "card": "A"},
                    key=evening["key"])
    screen.page.wait_for_selector('.big-seat[data-seat="1"] .big-cards .card', timeout=2_000)
    assert [url.split("/")[-2] for url in streams] == [match["id"], following["id"]]


def test_a_bout_being_fought_is_in_front_of_its_seats(new_phone, server_api):
    """A bout's attacks in front of the seats that attacked, the cards beating them in front of the defender."""
    evening, match = an_evening_of_a_simulated_table(server_api, "durak", 5, deals=0, steps=6)
    bout = server_api(f"/api/matches/{match['id']}")["deal"]["bout"]  # two seats attacked, one card beaten
    assert len({a["seat"] for a in bout["attacks"]}) == 2 and any(a["beaten_by"] for a in bout["attacks"])
    screen = new_phone(viewport=TVS["1280x720"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen .big-seats")
    screen.screenshot("big-screen-durak-bout", full_page=False)
    chips = lambda seat: screen.page.locator(f'.big-seat[data-seat="{seat}"] .big-cards .card').evaluate_all(  # noqa: E731
        "cards => cards.map((c) => c.dataset.card)")
    for seat in range(5):
        wanted = [a["card"] for a in bout["attacks"] if a["seat"] == seat]
        if seat == bout["defender"]:
            wanted += [a["beaten_by"] for a in bout["attacks"] if a["beaten_by"]]
        assert chips(seat) == wanted, seat
