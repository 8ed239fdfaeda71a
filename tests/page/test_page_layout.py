"""Nothing moves under a finger: the keypad, the seats and Undo keep their place whatever the referee says, taps
on a control that has just moved are ignored, a double tap records once and asks, and the two accidents a
table recorded before (a second tap on Undo, a double tap on a card) record nothing. One walk a size, in each of its
languages switched in place as a table does: a double tap's question is asked again in the new words, but what the
referee said after an entry (a refusal, a finding, a notice, "Tap ignored", End's question) is dropped by a switch or
replaced, so it is brought again in each language by the same taps."""

from __future__ import annotations

import json
import time

import pytest
from conftest_browser import I18N, LOCALES, PHONES, TAPS

pytestmark = pytest.mark.browser

SEATS = ["S", "W", "N", "E"]
W_HAND = ["K", "K", "7", "6", "4", "3"]  # W's hand in the rule text's example


def box_of(phone, selector: str) -> list[tuple[int, int, int, int]]:
    return phone.page.eval_on_selector_all(selector, """els => els.map(el => {
        const r = el.getBoundingClientRect();
        return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
    })""")


def boxes(phone) -> dict[str, list]:
    """Where the keys, the seats and Undo are on the page (the bar's Undo: on the screen)."""
    undo = phone.page.eval_on_selector("#undo", """el => {
        const r = el.getBoundingClientRect();
        return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)];
    }""")
    return {"keys": box_of(phone, ".action .keypad button"), "seats": box_of(phone, ".seats > li"),
            "heading": box_of(phone, ".action > h2"), "undo": undo}


def scorer_on_a_match(new_phone, server_api, size: str, lang: str, hands: dict | None = None):
    """A match started over the API (S deals, W's hand known when asked), opened by a phone with its key."""
    match = server_api.post("/api/matches", {"game": "ogorek", "players": SEATS})
    deal = {"type": "deal", "dealer": 0, **({"hands": hands} if hands else {})}
    server_api.post(f"/api/matches/{match['id']}/events", deal, match["key"])
    phone = new_phone(locale=LOCALES[lang], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    return phone, match


def post_play(server_api, match, seat: int, card: str) -> None:
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "play", "seat": seat, "card": card}, match["key"])


# The second tap comes `ms` later by the page's clock (performance.now, which taps.js reads), both in one go: the
# gap is the one asked for however busy the machine is, and the page has drawn what the first tap entered. The
# taps wait in the page for a frame in which nothing is settling and come in that same task: a message from the
# server drawn between the test's look (`calm`) and the taps cannot move the control under them. `where` is a
# control's selector, or a point of the screen [x, y]: each tap then lands on what is there when it comes (the first
# tap may have changed it).
TWO_TAPS = """async ([where, ms]) => {
    const settling = () => document.documentElement.hasAttribute('data-settling');
    for (const until = performance.now() + 5000; settling() && performance.now() < until;)
        await new Promise((done) => requestAnimationFrame(done));
    const target = () => (typeof where === 'string' ? document.querySelector(where)
                                                    : document.elementFromPoint(...where));
    target().click();
    const now = performance.now.bind(performance);
    performance.now = () => now() + ms;
    try { target().click(); } finally { performance.now = now; }
    return document.getElementById('last-word')?.textContent || '';
}"""


def tap_twice_at(phone, finger: tuple[float, float], ms: int) -> str:
    """A finger taps the screen at `finger` twice, `ms` apart by the page's clock; returns what the bar then says."""
    phone.calm()
    return phone.page.evaluate(TWO_TAPS, [list(finger), ms])


def tap_twice(phone, card: str, ms: int) -> str:
    """Taps the card's key twice, `ms` apart by the page's clock (the key as drawn after the first tap); returns what
    the bottom bar then says (for the message of a test that fails)."""
    phone.calm()
    return phone.page.evaluate(TWO_TAPS, [f'.action .keypad button[data-card="{card}"]', ms])


def finger_on(phone, selector: str) -> tuple[float, float]:
    """Where a finger taps the control: the middle of its box, once it is scrolled to the middle of the screen."""
    phone.page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'center'})")
    phone.calm()
    box = phone.page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def walks(*cases: tuple[str, tuple[str, ...]]) -> list:
    """Each size's walk and its languages, the first the phone's locale, the others switched to in place."""
    return [pytest.param(size, langs, id="-".join((size, *langs))) for size, langs in cases]


def plays(server_api, match) -> list[tuple[int, str]]:
    events = server_api(f"/api/matches/{match['id']}/events")["events"]
    return [(e["seat"], e["card"]) for e in events if e["type"] == "play" and not e["undone_by"]]


@pytest.mark.parametrize(("size", "langs"), walks(("360x740", ("pl", "en", "ru")), ("390x844", ("ru",))))
def test_keys_seats_and_undo_keep_their_place_whatever_the_referee_says(new_phone, server_api, size, langs):
    """W's 6 refused (W holds K) and let stand (a finding), undone (a notice) and the notice's OK, K tapped twice (a
    question) and N's 2 offline: the keys, the seats, the step's heading and Undo stay where they were, in each of the
    size's languages. The refusal, the finding and the notice are brought again in each language by the same taps
    (a switch drops them); the question and the offline screen are looked at switched in place (drawn again)."""
    phone, match = scorer_on_a_match(new_phone, server_api, size, langs[0], hands={"1": W_HAND})
    for seat, card in [(1, "K"), (2, "2"), (3, "3"), (0, "A"), (0, "9")]:
        post_play(server_api, match, seat, card)
    phone.page.wait_for_selector('.seat[data-seat="0"] .in-front .card[data-card="9"]')
    phone.wait_turn(1)
    before = {}
    for lang in phone.languages(langs):
        before[lang] = boxes(phone)
        assert len(before[lang]["keys"]) == 13 and len(before[lang]["seats"]) == 4, lang
    shots = {lang: [] for lang in langs}

    def unchanged(kind: str, lang: str) -> None:
        phone.calm()
        assert boxes(phone) == before[lang], (kind, lang)
        shots[lang].append(kind)
        phone.screenshot(f"layout-{kind}-{size}-{lang}", full_page=False)

    for lang in phone.languages(langs):
        phone.tap_card("6")  # W holds K: a refusal, with "let it stand"
        phone.page.locator("#refusal").wait_for()
        unchanged("refusal", lang)
        phone.click("#let-it-stand")  # recorded with a finding, and the finding's banner
        phone.page.locator(".verdict.finding").wait_for()
        phone.wait_turn(2)
        unchanged("finding", lang)
        phone.click("#undo")  # W's 6 taken back, said in a notice: W to play again
        phone.page.locator(".verdict.notice").wait_for()
        phone.wait_turn(1)
        unchanged("undo-notice", lang)
        phone.click(".verdict.notice button")  # OK: the notice goes
        unchanged("notice-gone", lang)
    tap_twice(phone, "K", 0)  # at once: a double tap
    for lang in phone.languages(langs):
        phone.page.locator(".verdict.question").wait_for()  # asked again in the new words
        unchanged("double-tap-question", lang)
    phone.click("#question-no")
    phone.context.set_offline(True)
    phone.wait_turn(2)
    phone.tap_card("2")
    for lang in phone.languages(langs):
        phone.page.wait_for_selector("#offline")
        phone.page.wait_for_selector("#pending")
        unchanged("offline", lang)
    phone.context.set_offline(False)
    phone.settled()
    assert plays(server_api, match)[-2:] == [(1, "K"), (2, "2")]
    for lang in langs:
        assert len(shots[lang]) == 6, lang


@pytest.mark.parametrize(("size", "langs"), walks(("360x740", ("pl",)), ("390x844", ("ru", "en"))))
def test_a_second_tap_on_undo_records_nothing(new_phone, server_api, size, langs):
    """The first accident: Undo, and 0.7 s later (by the page's clock) a second tap on the same spot. The question is
    looked at in each of the size's languages, asked again in the new words."""
    phone, match = scorer_on_a_match(new_phone, server_api, size, langs[0])
    for seat, card in [(1, "K"), (2, "2")]:
        post_play(server_api, match, seat, card)
    phone.page.wait_for_selector('.seat[data-seat="2"] .in-front .card[data-card="2"]')
    phone.wait_turn(3)
    undo = phone.page.locator("#undo").bounding_box()
    finger = (undo["x"] + undo["width"] / 2, undo["y"] + undo["height"] / 2)
    said = tap_twice_at(phone, finger, 700)  # within the page's one second for a second Undo
    assert phone.page.locator(".verdict.question").count() == 1, f"no question; the bar said {said!r}"
    phone.settled()
    for lang in phone.languages(langs):
        assert phone.page.locator(".verdict.question").count() == 1, lang  # still asked, in these words
        phone.screenshot(f"accident-undo-{size}-{lang}", full_page=False)
        events = server_api(f"/api/matches/{match['id']}/events")["events"]
        assert [(e["type"], e.get("card"), e["undone_by"]) for e in events] == [
            ("deal", None, None), ("play", "K", None), ("play", "2", 4), ("undo", None, None)]
        question = phone.page.locator(".verdict.question").bounding_box()
        assert not (question["y"] <= finger[1] <= question["y"] + question["height"]), lang  # not under the finger


@pytest.mark.parametrize(("size", "langs"), walks(("360x740", ("ru", "en")), ("390x844", ("pl",))))
def test_a_double_tap_on_a_card_records_it_once_and_asks(new_phone, server_api, size, langs):
    """The second accident: two taps 120 ms apart on 3 recorded E's 3 and S's 3. Quicker than 0.2 s a tap for the
    next seat is a bounce: it asks (a quarter of a second apart it is recorded: test_page_thumb.py). The question is
    looked at in each of the size's languages, asked again in the new words."""
    phone, match = scorer_on_a_match(new_phone, server_api, size, langs[0])
    for seat, card in [(1, "K"), (2, "2")]:
        post_play(server_api, match, seat, card)
    phone.page.wait_for_selector('.seat[data-seat="2"] .in-front .card[data-card="2"]')
    phone.wait_turn(3)
    finger = finger_on(phone, '.action .keypad button[data-card="3"]')
    said = tap_twice(phone, "3", 80)  # quicker than a finger's bounce (taps.js: BOUNCE_MS)
    question = phone.page.locator(".verdict.question")
    assert question.count() == 1, f"no question; the bar said {said!r}"
    phone.settled()
    for lang in phone.languages(langs):
        assert question.locator("h2").inner_text() == {
            "en": "S played 3 too?", "pl": "S też zagrywa 3?", "ru": "S тоже кладёт 3?"}[lang]
        box = question.bounding_box()
        assert not (box["y"] <= finger[1] <= box["y"] + box["height"]), lang
        phone.screenshot(f"accident-double-tap-{size}-{lang}", full_page=False)
        assert plays(server_api, match) == [(1, "K"), (2, "2"), (3, "3")], lang
    phone.click("#question-yes")  # S did play a 3 too: the table says so
    phone.wait_turn(1)  # the trick is complete: W, with its highest card, leads the next
    assert plays(server_api, match) == [(1, "K"), (2, "2"), (3, "3"), (0, "3")]


# A finger taps the control at a point, and taps there again the moment another control is there (the first tap's
# doing): in the task in which the page noticed the change (taps.js's observer, made before this one, is told first),
# so that the second tap comes while what took the place settles, however busy the machine. Returns what the bottom
# bar then says.
TAP_AND_AGAIN = """async ([x, y]) => {
    const control = () => document.elementFromPoint(x, y)?.closest('button, summary, a[href], input, select');
    const first = control();
    const again = new Promise((done) => {
        const watch = new MutationObserver(() => {
            const now = control();
            if (!now || now === first) return;
            watch.disconnect();
            now.click();
            done(document.getElementById('last-word')?.textContent || '');
        });
        watch.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    first.click();
    return await again;
}"""


@pytest.mark.parametrize(("size", "langs"), walks(("360x740", ("en",)), ("390x844", ("pl", "ru"))))
def test_double_taps_on_deal_and_on_end_record_one_deal_and_end_nothing(new_phone, server_api, size, langs):
    """Deal tapped twice, the second tap landing on the keypad that took the deal step's place as it came: ignored,
    as the page says; End tapped twice: asked once, away from the finger, and nothing ended. In each of the size's
    languages: the page's words about a tap go with the deal's answer, so End's question (asked again in the next
    language's words, the bar's line too) is answered No, the deal is taken back (Undo) and both are tapped twice
    again in the next language."""
    phone = new_phone(locale=LOCALES[langs[0]], viewport=PHONES[size])
    match_id = phone.start_match(SEATS, dealer=0)
    for lang in langs:
        said = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        if lang != langs[0]:
            phone.language(lang)
            assert phone.text(".verdict.question h2") == said["control.end_ask"]
            assert phone.text("#end-confirm") == said["control.end_confirm"]
            assert phone.text("#last-word") == said["control.end_ask"]
            phone.click("#question-no")
            phone.click("#undo")
            phone.page.wait_for_selector("#log-deal")
        recorded = len(server_api(f"/api/matches/{match_id}/events")["events"])
        finger = finger_on(phone, "#log-deal")
        assert phone.page.evaluate(TAP_AND_AGAIN, list(finger)) == said["tap.ignored"]
        phone.screenshot(f"deal-double-tap-{size}-{lang}", full_page=False)
        phone.wait_turn(1)
        events = server_api(f"/api/matches/{match_id}/events")["events"]
        assert [e["type"] for e in events[recorded:]] == ["deal"], lang

        finger = finger_on(phone, "#end")
        tap_twice_at(phone, finger, 120)
        confirm = phone.page.locator("#end-confirm")
        confirm.wait_for()
        box = confirm.bounding_box()
        assert not (box["x"] <= finger[0] <= box["x"] + box["width"]
                    and box["y"] <= finger[1] <= box["y"] + box["height"]), lang
        phone.screenshot(f"end-question-{size}-{lang}", full_page=False)
        phone.settled()
        state = server_api(f"/api/matches/{match_id}")
        assert state["status"] == "playing" and state["seq"] == events[-1]["seq"], lang


def test_a_tap_just_after_another_phone_moved_the_table_is_ignored_and_said(new_phone, server_api):
    phone, match = scorer_on_a_match(new_phone, server_api, "360x740", "en")
    phone.wait_turn(1)
    key = phone.page.locator('.action .keypad button[data-card="5"]').bounding_box()
    post_play(server_api, match, 1, "K")  # another phone logs W's king
    phone.page.wait_for_selector('.seat.to-act[data-seat="2"]')
    phone.page.mouse.click(key["x"] + 10, key["y"] + 10)  # meant for W, lands as N's: ignored
    assert "Tap ignored" in phone.text("#last-word")
    time.sleep(0.3)
    assert plays(server_api, match) == [(1, "K")]
    phone.tap_card("5")  # looked, and taps again
    phone.wait_turn(3)
    assert plays(server_api, match) == [(1, "K"), (2, "5")]
    stored = phone.page.evaluate(f"localStorage.getItem('kibic.key.{match['id']}')")
    assert json.loads(stored) == match["key"]


def test_a_phone_turned_takes_a_tap_once_the_turned_screen_has_settled(new_phone, server_api):
    """Turning the phone moves every control: they settle from the turn, and a tap made once the screen has been
    still is taken (the page used to notice the move only at the first tap after the turn, and ignore it however long
    the table had looked). A tap while the turned screen still moves is ignored, as any (tested above)."""
    phone, match = scorer_on_a_match(new_phone, server_api, "360x740", "en")
    phone.wait_turn(1)
    phone.page.set_viewport_size({"width": 740, "height": 360})  # turned sideways
    phone.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    phone.calm()  # the screen still, as the page says once the turn's moves have settled
    phone.page.locator('.action .keypad button[data-card="K"]').click()  # looked, then tapped: taken
    assert "Tap ignored" not in phone.text("#last-word")
    phone.wait_turn(2)
    assert plays(server_api, match) == [(1, "K")]


AGAIN = {"en": "“Deal” again?", "pl": "„Rozdaj” jeszcze raz?", "ru": "«Сдать» ещё раз?"}
ASKED = {"en": "Tapped twice, recorded once; asked above:",
         "pl": "Dwa stuknięcia, zapisano raz; pytanie powyżej:",
         "ru": "Два нажатия, записано одно; вопрос выше:"}
# The page's first entry refused at once, in the page (as the server refuses a deal it cannot take: nothing recorded):
# its answer comes in the same few milliseconds however busy the machine, where a route answered by the test's
# process would come when that process gets its turn.
REFUSE_THE_FIRST_ENTRY = """(refusal) => {
    const fetch = window.fetch;
    window.fetch = function (path, init) {
        if (!window.__refused && init?.method === 'POST' && String(path).endsWith('/events')) {
            window.__refused = JSON.parse(init.body).type;
            const headers = { 'Content-Type': 'application/json' };
            return Promise.resolve(new Response(refusal, { status: 422, headers }));
        }
        return fetch.apply(this, arguments);
    };
}"""
# Deal tapped, and tapped again as soon as it is back and has settled (the table waits the settling out on the taps'
# own clock, `passes`): the ms between the taps by that clock, or null when Deal never came back.
TAP_TWICE = """async () => {
    const { passes } = await TAPS;
    document.querySelector('#log-deal').click();
    const first = performance.now();
    while (performance.now() - first < 1000) {
        await new Promise((done) => requestAnimationFrame(done));
        const deal = document.querySelector('#log-deal');
        if (deal && !deal.disabled) {
            const waited = passes();
            deal.click();
            return performance.now() - first + waited;
        }
    }
    return null;
}""".replace("TAPS", TAPS)


@pytest.mark.parametrize("size", list(PHONES))
def test_a_double_tap_question_is_asked_again_in_the_language_the_table_switches_to(new_phone, server_api, size):
    """Deal is tapped and refused at once, and tapped again as soon as it has settled, within the double-tap window:
    the page asks "“Deal” again?", in the bottom bar. (The refusal is played by the test, which
    answers that one request in the page, since no refusal of the real server leaves Deal in its place and open.) When
    the table switches to Polish, then Russian, the question and the bottom bar's line are said again in the new
    language, the button named by its words in that language, in the same place; "yes" then deals."""
    phone = new_phone(viewport=PHONES[size])
    match_id = phone.start_match(SEATS, dealer=0)
    refusal = json.dumps({"error": {"code": "bad_event", "message": "Refused by the test.", "details": {}}})
    phone.page.evaluate(REFUSE_THE_FIRST_ENTRY, refusal)
    finger_on(phone, "#log-deal")
    between = phone.page.evaluate(TAP_TWICE)
    assert phone.page.evaluate("() => window.__refused") == "deal"
    assert between is not None and between < 500  # a double tap (taps.js: DOUBLE_MS)
    question = phone.page.locator(".verdict.question")
    question.wait_for()
    phone.calm()
    assert question.locator("h2").inner_text() == AGAIN["en"]
    assert phone.text("#last-word") == f"{ASKED['en']} {AGAIN['en']}"
    bottom = box_of(phone, "#last-word")
    where = phone.page.locator("#question-yes").bounding_box()  # the answers stay, the words above them grow
    for lang in ("pl", "ru"):
        phone.click(f'#langs button[data-lang="{lang}"]')
        phone.page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        phone.calm()
        assert phone.text("#last-word") == f"{ASKED[lang]} {AGAIN[lang]}"
        assert question.count() == 1  # still waiting for its answer, above
        assert question.locator("h2").inner_text() == AGAIN[lang]
        assert box_of(phone, "#last-word") == bottom
        now = phone.page.locator("#question-yes").bounding_box()
        assert (now["x"], now["y"]) == (where["x"], where["y"]), lang
        phone.screenshot(f"double-tap-asked-{size}-{lang}", full_page=False)
    phone.click("#question-yes")
    phone.wait_turn(1)
    events = server_api(f"/api/matches/{match_id}/events")["events"]
    assert [e["type"] for e in events] == ["deal"]


ALSO_TEN = {"en": "Małgorzata played 10 too?", "pl": "Małgorzata też zagrywa 10?", "ru": "Małgorzata тоже кладёт 10?"}


def bottom_bar(phone) -> list[list[int]]:
    """Where the bottom bar's line and Undo are on the screen."""
    return phone.page.eval_on_selector_all("#last-word, #undo", """els => els.map(el => {
        const r = el.getBoundingClientRect();
        return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)];
    })""")


def cut_off(phone, selector: str) -> bool:
    """Whether the element's text is cut off by the room it has, across or down."""
    return phone.page.eval_on_selector(
        selector, "el => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight")


def test_the_bottom_bars_line_about_a_double_tap_is_read_whole_on_a_small_phone(new_phone, server_api):
    """A double tap on E's 10 on the smallest phone, Małgorzata to play next: the bottom bar says that one tap was
    recorded and what is asked above ("Małgorzata played 10 too?"), in Polish, English and Russian, wrapped within
    the two lines the bar keeps for it, nothing of it cut off; the bar's line and Undo stay where they were before
    anything was said."""
    match = server_api.post("/api/matches", {"game": "ogorek", "players": ["Małgorzata", "W", "N", "E"]})
    events = f"/api/matches/{match['id']}/events"
    server_api.post(events, {"type": "deal", "dealer": 0}, match["key"])
    phone = new_phone(locale="pl-PL", viewport=PHONES["360x740"])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    for seat, card in [(1, "K"), (2, "2")]:
        post_play(server_api, match, seat, card)
    phone.page.wait_for_selector('.seat[data-seat="2"] .in-front .card[data-card="2"]')
    phone.wait_turn(3)
    bar = bottom_bar(phone)
    finger_on(phone, '.action .keypad button[data-card="10"]')
    tap_twice(phone, "10", 80)  # quicker than a finger's bounce (taps.js: BOUNCE_MS)
    phone.page.locator(".verdict.question").wait_for()
    phone.settled()
    for lang in ("pl", "en", "ru"):
        if lang != "pl":
            phone.click(f'#langs button[data-lang="{lang}"]')
            phone.page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
            phone.calm()
        assert phone.text("#last-word") == f"{ASKED[lang]} {ALSO_TEN[lang]}"
        assert not cut_off(phone, "#last-word"), lang
        assert bottom_bar(phone) == bar, lang
        phone.screenshot(f"double-tap-bottom-line-360x740-{lang}", full_page=False)
    assert plays(server_api, match) == [(1, "K"), (2, "2"), (3, "10")]


def tabs_and_controls(phone) -> dict:
    """Where the tabs and the match's controls under the step (Penalty, Show hands, End) are on the page, and the
    ones whose words are cut off by the room they have."""
    return phone.page.evaluate("""() => {
        const box = (el) => {
            const r = el.getBoundingClientRect();
            return [el.id, Math.round(r.left), Math.round(r.top + window.scrollY),
                    Math.round(r.width), Math.round(r.height)];
        };
        const all = [...document.querySelectorAll('.tabs .tab, .controls button')];
        const cut = all.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent);
        return {boxes: all.map(box), cut};
    }""")


@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize(("game", "players"), [("ogorek", SEATS), ("oh_hell", ["Ala", "Bob", "Cyd"])])
def test_tabs_and_the_match_controls_keep_their_boxes_when_the_language_changes(new_phone, server_api, game, players,
                                                                                size):
    """The tabs, and the controls under the step (Ogórek's Penalty, Show hands, End the match; Oh Hell's Show hands
    and End), keep their place and size when the table switches between Polish, English and Russian, and when Show
    hands becomes Hide hands: each in one line, none of their words cut off, in every language."""
    match = server_api.post("/api/matches", {"game": game, "players": players})
    deal = {"type": "deal", "dealer": 0, **({"trump": "QS"} if game == "oh_hell" else {})}
    server_api.post(f"/api/matches/{match['id']}/events", deal, match["key"])
    phone = new_phone(locale="pl-PL", viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".controls #end")
    phone.calm()
    before = tabs_and_controls(phone)
    assert len(before["boxes"]) == 5 + (3 if game == "ogorek" else 2)
    assert len({height for *_, height in before["boxes"][5:]}) == 1  # the controls' rows: one line each
    for lang in ("ru", "en", "pl", "ru"):
        phone.language(lang)
        assert tabs_and_controls(phone) == {**before, "cut": []}, lang
        phone.page.eval_on_selector(".controls", "el => el.scrollIntoView({block: 'center'})")
        phone.calm()
        phone.screenshot(f"controls-{game}-{size}-{lang}", full_page=False)
        phone.page.evaluate("window.scrollTo(0, 0)")
        phone.calm()
        phone.screenshot(f"tabs-{game}-{size}-{lang}", full_page=False)
    phone.click("#show-hands")  # Hide hands, in Russian
    phone.page.wait_for_selector('#show-hands[aria-pressed="true"]')
    phone.calm()
    assert tabs_and_controls(phone) == {**before, "cut": []}
