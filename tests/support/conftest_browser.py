"""Fixtures for the page's browser tests: a real gunicorn, Debian's headless Chromium driven by Playwright.

Chromium is `/usr/bin/chromium` (Playwright never downloads a browser of its own here). Without it the
browser tests are skipped, except when the environment variable `CI` is set: then they fail, so that CI
never passes by skipping them. Each test gets a fresh phone (a browser context 360 × 740 px) on the one
server of the session; a phone fails its test on any script error or refused resource (such as a
Content-Security-Policy violation).

A phone is a browser context of its own, lent by `Contexts` and kept between tests: making a context is most of what
a phone costs (its profile and its first renderer, about 0.7 s of CPU of a new phone's first page, measured). A
context given back is put back online, with one page of its own left open: the phone's page, taken to `about:blank`
(its scripts and streams stopped), when its test changed nothing of the page that outlasts a navigation (`LASTING`:
a listener, a route, an init script, emulated media, another viewport); otherwise a new page showing an icon of the
server's (no script), so that the context keeps a renderer process of the server's site. The next phone lent the
context opens its page in that tab: a tab that navigates keeps its renderer process, where a new tab starts one
(measured per phone, a page opened, drawn, shot whole and given back: ~0.45 s of CPU in a kept tab against ~0.6 s in
a new one). A phone lent a context clears everything the page keeps for the server (local storage, IndexedDB,
cookies) before its page opens, so that it is as new as a phone made for its test, but for the page's own files in
its caches (kept for good at their version, as by any phone that opened Kibic before: a page opens with no request
for them). Phones run as on the club's plain-HTTP network, where no service worker runs; the tests of the page
opening offline ask for one (`service_workers="allow"`): a phone with it is made new each time, as a service worker
and its caches outlive the pages it served.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from gunicorn_server import serve

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
PHONES = {"360x740": PHONE, "390x844": {"width": 390, "height": 844}}
LOCALES = {"pl": "pl-PL", "en": "en-US", "ru": "ru-RU"}  # the page's languages -> a phone's locale in each
FIRST = {"360x740": "pl", "390x844": "ru"}  # the language a walk on each phone size opens the page in (one a size)
CALM_SECONDS = 10  # a bound for `calm`: a page that is still moving then has a request or a redraw that never ends
HUMAN_SECONDS = 0.6  # a person taps one key twice no faster than this: quicker is a double tap, which asks
SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
I18N = Path(__file__).resolve().parents[2] / "webui" / "static" / "i18n"
# the page's module of taps (webui/static/js/taps.js), beside its main module: the one instance the page runs
TAPS = "import(new URL('taps.js', document.querySelector('script[type=module][src$=\"main.js\"]').src).href)"
# time passes on the clock of the page's checks of taps alone (taps.js `passes`): `ms`, or until no control settles
TAPS_PASS = "async (ms) => (await TAPS).passes(ms ?? undefined)".replace("TAPS", TAPS)
# the page's requests out (not its stream, which stays open), counted in the page (a listener of Playwright's for each
# request costs more CPU than the page's load: measured). A request is out until the page has read its answer's body
# and drawn what it says (the page's code after the read runs before a timer of the read's end), or has left the body
# unread for a task: a fetch resolves when the headers come, and the page reads the body after (api.js), then draws.
FETCHES = """(() => {
  if ("__fetchesOut" in window) return;
  const fetch = window.fetch;
  let out = 0;
  window.fetch = function (...args) {
    out += 1;
    let done = false;
    const finish = () => { if (!done) { done = true; out -= 1; } };
    return fetch.apply(this, args).then((response) => {
      let reading = false;
      for (const name of ["json", "text", "arrayBuffer", "blob", "formData"]) {
        const read = response[name];
        response[name] = function () {
          reading = true;
          return read.call(this).finally(() => setTimeout(finish, 0));
        };
      }
      setTimeout(() => { if (!reading) finish(); }, 0);
      return response;
    }, (error) => { finish(); throw error; });
  };
  Object.defineProperty(window, "__fetchesOut", { get: () => out });
})();"""
# whether the page stands still: none of its requests out but those held, and two frames drawn with nothing changed,
# every settling control waited out meanwhile
QUIET = """async (held) => {
  if (!("__fetchesOut" in window)) throw new Error("a phone's context counts its page's requests: new_context");
  if (window.__fetchesOut > held) return false;
  const { passes } = await TAPS;
  let changed = false;
  const watch = new MutationObserver(() => { changed = true; });
  watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  passes();
  watch.takeRecords();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  passes();
  changed ||= watch.takeRecords().length > 0;
  watch.disconnect();
  return !changed && window.__fetchesOut <= held;
}""".replace("TAPS", TAPS)
# what a test may do to a page that outlasts a navigation: its phone's tab is then not lent again (`Contexts`)
LASTING = ("on", "once", "add_init_script", "expose_function", "expose_binding", "route", "route_from_har",
           "route_web_socket", "emulate_media", "set_viewport_size", "set_extra_http_headers", "add_locator_handler")
EXPECTED_CONSOLE_ERRORS = re.compile(r"Failed to load resource: (the server responded with a status of (403|409|422)|"
                                     r"net::ERR_INTERNET_DISCONNECTED|net::ERR_FAILED)")


def missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: CI must run the browser tests (see .ci/run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """One gunicorn for the browser tests, on a database of its own."""
    with serve(tmp_path_factory.mktemp("page") / "referee.db") as base:
        yield base


@pytest.fixture(scope="session")
def playwright():
    """Playwright, started once in a test process (a second one would start inside the first's event loop)."""
    if not CHROMIUM.exists():
        missing(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python is not installed")
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def chromium(playwright):
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


def new_context(browser, options: dict):
    """A browser context whose pages count their requests out (`FETCHES`), for `Phone.calm`."""
    context = browser.new_context(**options)
    context.add_init_script(FETCHES)
    return context


class Contexts:
    """The browser contexts of one test process, lent to phones and kept between tests (see the module's doc)."""

    KEPT = 12  # contexts kept free, the least recently given back closed first
    KEEPER = "/icon.svg"  # what a new tab of a context given back shows: a small image, nothing that runs or asks

    def __init__(self, browser):
        self.browser = browser
        # (the options it was made with, the context, its one open page), oldest first
        self.free: list[tuple[tuple, object, object]] = []

    def lend(self, **options) -> tuple[object, object | None]:
        """A context made with these options and, if it was used before, the page it kept open, for the phone's own
        (the phone must clear what the context kept for the server); a new context and None otherwise."""
        key = self.key(options)
        for index, (made, context, page) in enumerate(self.free):
            if made == key:
                del self.free[index]
                return context, page
        return new_context(self.browser, options), None

    @staticmethod
    def key(options: dict) -> tuple:
        return tuple(sorted((name, json.dumps(value, sort_keys=True)) for name, value in options.items()))

    def give_back(self, context, options: dict, page=None) -> None:
        """Takes a phone's context back. `page`: the phone's page, which its test left as a new tab would be after a
        navigation; it is kept open, on `about:blank`. Without it, a new tab on the server is kept instead."""
        key = self.key(options)
        try:
            if page is not None:  # the test's page is gone, before the context is online again: nothing of it
                page.goto("about:blank")  # sends or stores anything any more
                context.set_offline(False)
            else:  # opened while the test's pages still hold the renderer process
                context.set_offline(False)
                page = context.new_page()
                page.goto(self.KEEPER)
            for other in context.pages:
                if other is not page:
                    other.close()
            context.clear_cookies()
            context.clear_permissions()
        except Exception:  # closed by its test, or left unable to navigate: made again next time
            try:
                context.close()
            except Exception:  # noqa: BLE001 - already closed
                pass
            return
        self.free.append((key, context, page))
        while len(self.free) > self.KEPT:
            self.free.pop(0)[1].close()

    def close(self) -> None:
        for _, context, _ in self.free:
            context.close()
        self.free.clear()


class Phone:
    """One phone at the table: a browser context on the live server, and what a test does with it. Made with
    `contexts`, its context is lent and given back by `close` (unless its test changed it for good: `keep_context`);
    without, made new and closed."""

    def __init__(self, browser, base: str, locale: str = "en-US", viewport: dict | None = None,
                 color_scheme: str = "light", service_workers: str = "block", contexts: Contexts | None = None):
        self.base = base
        self.viewport = viewport or PHONE
        self.options = dict(viewport=self.viewport, locale=locale, base_url=base, device_scale_factor=1,
                            color_scheme=color_scheme, service_workers=service_workers)
        # a service worker and its caches outlive the pages it served: a phone with one is always made new
        self.contexts = contexts if service_workers == "block" else None
        self.closed = False
        if self.contexts:
            self.context, kept = self.contexts.lend(**self.options)
        else:
            self.context, kept = new_context(browser, self.options), None
        self.last_tap: tuple[str, float] = ("", 0.0)
        self.page = kept or self.context.new_page()
        if kept:
            session = self.context.new_cdp_session(self.page)
            origin = re.match(r"https?://[^/]+", base).group(0)
            # the HTTP cache stays: it holds the page's files at their version, the same for every phone, as a phone
            # that opened Kibic before keeps them (the API's answers are never taken from it unasked: no-cache)
            session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            session.detach()
        self.page.set_default_timeout(5000)
        # loading the page (its scripts, styles, the service worker) is the slowest step on a busy machine: the
        # tests share the cores in two processes
        self.page.set_default_navigation_timeout(15000)
        self.problems: list[str] = []
        self.held = 0  # the page's requests its test holds back on purpose (a route): `calm` waits for none of them
        self.listeners = [("pageerror", lambda error: self.problems.append(f"script error: {error}")),
                          ("console", self.console),
                          ("dialog", lambda dialog: (self.problems.append(f"dialog: {dialog.message}"),
                                                     dialog.dismiss()))]
        for event, listener in self.listeners:
            self.page.on(event, listener)
        self.changed: list[str] = []  # what its test did to the page that a navigation keeps (`LASTING`)
        for name in LASTING:
            setattr(self.page, name, self.noting(name, getattr(type(self.page), name).__get__(self.page)))

    def noting(self, name: str, method):
        """`method` of the page, noting that the test called it (the page is not lent again)."""

        def noted(*args, **kwargs):
            self.changed.append(name)
            return method(*args, **kwargs)

        return noted

    def console(self, message) -> None:
        if message.type == "error" and not EXPECTED_CONSOLE_ERRORS.search(message.text):
            self.problems.append(f"console: {message.text}")

    # --- acting as the table ---------------------------------------------------------------------
    def open(self, path: str = "/") -> Phone:
        """Opens the page and waits until it has drawn the start form or the match."""
        self.page.goto(path)
        self.page.wait_for_selector("form.setup, .tab-panel")
        return self

    def start_match(self, players: list[str], game: str = "ogorek", stake: str = "", dealer: int | None = None,
                    options: dict | None = None) -> str:
        """Fills in the start form and starts; the match's id."""
        page = self.page
        self.open("/")
        page.check(f'input[name="game"][value="{game}"]')
        while page.locator(".player-row").count() > len(players):
            page.locator(".player-row").last.get_by_role("button", name=re.compile("Remove|Usuń|Убрать")).click()
        while page.locator(".player-row").count() < len(players):
            page.click("#add-player")
        for index, name in enumerate(players):
            page.fill(f"#player-{index}", name)
        for name, value in (options or {}).items():
            control = page.locator(f"#option-{name}")
            if isinstance(value, bool):
                control.set_checked(value)
            elif control.evaluate("el => el.tagName") == "SELECT":
                control.select_option(str(value))
            else:
                control.fill(str(value))
        if stake:
            page.fill("#stake", stake)
        if dealer is not None:
            page.check("#dealer-choose")
            page.select_option("#dealer-seat", str(dealer))
        page.click("#start")
        page.wait_for_url(re.compile(r"\?m="))
        page.wait_for_selector(".tab-panel")
        return re.search(r"\?m=([^&#]+)", page.url).group(1)

    def calm(self) -> None:
        """The table waits until nothing on the page moves: no request of the page's is out, and the page has drawn
        two frames unchanged, and no control is settling (the page ignores taps on a control for 350 ms after it
        appeared or moved, see webui/static/js/taps.js: that wait passes on the taps' own clock, `passes`, at once,
        and nothing else of the page moves on)."""
        deadline = time.monotonic() + CALM_SECONDS
        while time.monotonic() < deadline:
            if self.page.evaluate(QUIET, self.held):
                return
            self.page.wait_for_timeout(20)
        raise AssertionError("the page never stood still")

    def later(self, seconds: float) -> None:
        """The table waits `seconds` before its next tap (a person taps one control twice no sooner than that), on
        the taps' own clock."""
        if seconds > 0:
            self.page.evaluate(TAPS_PASS, seconds * 1000)

    def click(self, selector: str) -> None:
        """Taps like a person: on a page that has stopped moving, and one key twice not as a double tap."""
        self.calm()
        previous, at = self.last_tap
        if previous == selector and time.monotonic() - at < HUMAN_SECONDS:
            self.later(HUMAN_SECONDS - (time.monotonic() - at))
        self.page.click(selector)
        self.last_tap = (selector, time.monotonic())

    def tap_card(self, card: str) -> None:
        self.click(f'.action .keypad button[data-card="{card}"]')

    def settled(self) -> None:
        """Waits until nothing this phone entered is waiting to be sent."""
        self.page.wait_for_selector("#pending", state="detached")

    def wait_turn(self, seat: int) -> None:
        """Waits until every entry is recorded and the referee expects `seat` to act."""
        self.settled()
        self.page.wait_for_selector(f'.seat.to-act[data-seat="{seat}"]')
        self.calm()

    def play(self, seat: int, card: str) -> None:
        """Waits for the seat's turn (the referee's, after the last entry is recorded) and taps the card."""
        self.wait_turn(seat)
        self.tap_card(card)

    def tab(self, name: str) -> None:
        self.click(f"#tab-{name}")

    def language(self, lang: str) -> None:
        """Taps the table's language in the bar and waits until the page is drawn in its words: a test that looks at
        one screen in each language switches in place, as a table does, rather than opening the page again. A tap
        on a button that moved since the page last looked (the phone turned: `resize`) is ignored, as the page says,
        and tapped again, as a person would."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        label = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))["lang.label"]
        # the buttons are named in the new words just before the page draws itself anew, in the same task
        drawn = ("([lang, label]) => document.documentElement.lang === lang"
                 " && document.getElementById('langs').getAttribute('aria-label') === label")
        for attempt in range(3):
            if self.page.evaluate(drawn, [lang, label]):
                break
            self.click(f'#langs button[data-lang="{lang}"]')
            try:
                self.page.wait_for_function(drawn, arg=[lang, label], timeout=2000 if attempt < 2 else 5000)
            except PlaywrightTimeout:
                if attempt == 2:
                    raise
        self.calm()

    def languages(self, langs) -> Iterator[str]:
        """Each of `langs`, the page switched to it in place before it is yielded: the one the page shows first (a
        switch fewer), then the others in their order."""
        shown = self.page.evaluate("() => document.documentElement.lang")
        for lang in sorted(langs, key=lambda lang: lang != shown):
            self.language(lang)
            yield lang

    def resize(self, viewport: dict) -> None:
        """The same page on a phone of another size (`PHONES`), drawn again and still."""
        if self.page.viewport_size != viewport:
            self.page.set_viewport_size(viewport)
            self.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            self.calm()

    def text(self, selector: str) -> str:
        return self.page.locator(selector).inner_text()

    def screenshot(self, name: str, full_page: bool = True) -> None:
        SCREENSHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)

    def add_init_script(self, script: str) -> None:
        """A script run before the page's own on every page of this phone: the context is not lent again."""
        self.contexts = None
        self.context.add_init_script(script)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if not self.contexts:
            self.context.close()
            return
        kept = None
        if not self.changed and not self.page.is_closed():
            for event, listener in self.listeners:
                self.page.remove_listener(event, listener)
            for name in LASTING:
                delattr(self.page, name)
            kept = self.page
        self.contexts.give_back(self.context, self.options, kept)


@pytest.fixture(scope="session")
def contexts(chromium):
    """The contexts this test process lends to its phones (`Contexts`)."""
    kept = Contexts(chromium)
    yield kept
    kept.close()


@pytest.fixture
def new_phone(chromium, live_server, contexts):
    """Makes phones (`new_phone(locale="pl-PL")`); each fails the test on a script error or refused resource."""
    phones: list[Phone] = []

    def make(**kwargs) -> Phone:
        phone = Phone(chromium, live_server, contexts=contexts, **kwargs)
        phones.append(phone)
        return phone

    yield make
    problems = [problem for phone in phones for problem in phone.problems]
    for phone in phones:
        phone.close()
    assert not problems, problems


@pytest.fixture
def phone(new_phone) -> Phone:
    return new_phone()


class ServerApi:
    """The live server over HTTP, as any other client: `server_api("/api/matches/<id>")` reads."""

    def __init__(self, base: str):
        self.base = base

    def __call__(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict, key: str | None = None) -> dict:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), headers=headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


@pytest.fixture
def server_api(live_server) -> ServerApi:
    return ServerApi(live_server)
