"""The browser tests never pass silently by skipping in CI: a missing Chromium skips locally, fails with CI set."""

from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped
from conftest_browser import PHONE, missing


def test_a_missing_browser_skips_the_browser_tests_on_a_developers_machine(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(Skipped):
        missing("no Chromium at /usr/bin/chromium")


def test_a_missing_browser_fails_the_browser_tests_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed, match="CI must run the browser tests"):
        missing("no Chromium at /usr/bin/chromium")


@pytest.mark.browser
def test_a_phone_lent_a_used_context_is_as_new_as_a_phone_made_for_it(new_phone, server_api):
    """The context a phone gave back is lent to the next phone made with the same options, which finds nothing of
    the first: no local storage (a key, the language, the theme chosen), no cookie, and online; from its HTTP cache
    only the page's own files at their version (the same for every phone, as a phone that opened Kibic before keeps
    them), never an answer of the API."""
    first = new_phone(locale="pl-PL")
    match = first.start_match(["A", "B", "C", "D"], dealer=0)
    first.page.evaluate("() => { localStorage.setItem('left', 'behind'); document.cookie = 'left=behind'; }")
    assert first.page.evaluate("() => localStorage.length") > 1  # the match's key, the language...
    first.context.set_offline(True)
    context = first.context
    first.close()
    second = new_phone(locale="pl-PL")
    assert second.context is context, "the context given back is lent again"
    second.page.goto(f"/?m={match}")
    second.page.wait_for_selector(".tab-panel")
    assert second.page.evaluate("() => [localStorage.getItem('left'), document.cookie, navigator.onLine]") == [
        None, "", True]
    assert second.page.locator("#mode.scoring").count() == 0, "without the key it left behind, a follower"
    cached = second.page.evaluate("""() => performance.getEntriesByType('resource')
        .filter((e) => e.transferSize === 0).map((e) => new URL(e.name).pathname)""")
    assert any(path.endswith("/js/main.js") for path in cached), "the page's files kept"
    assert [path for path in cached if not path.startswith("/static/v/")] == [], "nothing else taken from the cache"
    other = new_phone(locale="ru-RU")
    assert other.context is not context


@pytest.mark.browser
def test_a_phone_lent_a_kept_tab_hears_nothing_of_the_phone_before(new_phone):
    """A phone whose test changed nothing lasting of its page gives its tab back with its context, on `about:blank`;
    the next phone opens its page in that tab, and nothing of the first phone listens there any more: a script's
    error on the second page is the second phone's alone."""
    first = new_phone()
    first.open("/")
    tab = first.page
    first.close()
    second = new_phone()
    assert second.page is tab and second.page.url == "about:blank", "the tab kept, its page gone"
    second.open("/")
    second.page.evaluate("() => console.error('a problem of the second page')")
    assert first.problems == []
    assert [problem for problem in second.problems if "second page" in problem], "the second phone hears its page"
    second.problems.clear()


TAB_CHANGES = {
    "a route": lambda page: page.route("**/api/**", lambda route: route.abort()),
    "a listener": lambda page: page.on("request", lambda request: None),
    "dark media": lambda page: page.emulate_media(color_scheme="dark"),
    "turned sideways": lambda page: page.set_viewport_size({"width": 740, "height": 360}),
    "an init script": lambda page: page.add_init_script("window.leftBehind = true"),
}


@pytest.mark.browser
@pytest.mark.parametrize("change", TAB_CHANGES)
def test_a_tab_its_test_changed_for_good_is_not_lent_again(new_phone, change):
    """What a test does to its page that outlasts a navigation (`LASTING`) closes the tab with the page: the next
    phone lent the context gets a new tab, as new as a phone made for its test."""
    first = new_phone()
    first.open("/")
    tab = first.page
    TAB_CHANGES[change](first.page)
    first.close()
    assert tab.is_closed()
    second = new_phone()
    assert second.context is first.context and second.page is not tab
    second.open("/")
    assert second.page.viewport_size == PHONE
    assert second.page.evaluate("""async () => [matchMedia('(prefers-color-scheme: dark)').matches,
        'leftBehind' in window, (await fetch('/api/games')).ok]""") == [False, False, True]


@pytest.mark.browser
def test_a_request_is_out_until_the_page_has_read_its_answer_and_drawn_it(phone):
    """`calm` waits for the page's requests out: a fetch resolves when the answer's headers come, and the page reads
    the body after, then draws what it says. The request counts as out until then, and a body left unread for a
    task no longer counts."""
    phone.open("/")
    phone.calm()  # none of the page's own requests out
    counted = phone.page.evaluate("""async () => {
        const seen = [];
        const response = await fetch('/api/games');
        seen.push(window.__fetchesOut);
        await response.json();
        seen.push(window.__fetchesOut);  // the page's own code after the read: still out while it draws
        await new Promise((done) => setTimeout(done, 0));
        seen.push(window.__fetchesOut);
        await fetch('/api/games');  // its body never read
        await new Promise((done) => setTimeout(done, 0));
        seen.push(window.__fetchesOut);
        return seen;
    }""")
    assert counted == [1, 1, 0, 0]
