"""The phones at the table over HTTPS on the club's own network: `python -m api.tls serve` (what `make serve
HTTPS=1` runs) started for real, two real gunicorns over real TLS on loopback, and Debian's Chromium reaching
them at a name that is not loopback (`club.lan`, mapped to 127.0.0.1 by `--host-resolver-rules`), as a phone on
the Wi-Fi reaches the box. The phone trusts the box's server key as if it trusted the box's authority
(`--ignore-certificate-errors-spki-list`: no certificate error, so the browser grants what a secure origin gets).
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest_browser import CHROMIUM, CHROMIUM_ARGS, LOCALES, PHONE, Phone
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from api import tls

pytestmark = [pytest.mark.server, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
NAME = "club.lan"
LISTENING = re.compile(r"Listening at: (https?)://127\.0\.0\.1:(\d+)")


class Club:
    """`kibic serve --https` on loopback: its plain and HTTPS addresses at `club.lan`, its data folder."""

    def __init__(self, folder: Path, *options: str):
        self.folder = folder
        kibic = str(Path(sys.executable).with_name("kibic"))
        command = [kibic, "serve", "--https", "--host", "127.0.0.1", "--port", "0", "--https-port", "0", "--name", NAME,
                   "--data", str(folder), "--workers", "1", *options]
        environ = {name: value for name, value in os.environ.items() if name not in ("REFEREE_DB", "KIBIC_DB")}
        self.process = subprocess.Popen(command, cwd=ROOT, env=environ,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        start_new_session=True)
        self.lines = lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in self.process.stdout], daemon=True).start()
        ports, booted, self.output = {}, 0, []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (len(ports) < 2 or booted < 2):
            with contextlib.suppress(queue.Empty):
                line = lines.get(timeout=1)
                self.output.append(line)
                if found := LISTENING.search(line):
                    ports[found.group(1)] = int(found.group(2))
                booted += "Booting worker" in line
            if self.process.poll() is not None:
                break
        if len(ports) < 2 or booted < 2:
            self.stop()
            raise RuntimeError("the club's server did not start:\n" + "".join(self.output))
        self.http_port, self.https_port = ports["http"], ports["https"]
        self.plain = f"http://{NAME}:{self.http_port}"
        self.secure = f"https://{NAME}:{self.https_port}"
        self.tls = folder / "tls"

    def said(self) -> str:
        """All the box's terminal said so far."""
        with contextlib.suppress(queue.Empty):
            while True:
                self.output.append(self.lines.get_nowait())
        return "".join(self.output)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    server = Club(tmp_path_factory.mktemp("club"))
    yield server
    server.stop()


def phone_args(club: Club) -> list[str]:
    """Chromium as a phone on the club's Wi-Fi that trusts the box: `club.lan` is the box, its key trusted."""
    spki = tls.spki_sha256(club.tls / tls.SERVER_CERT)
    return [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={spki}"]


@pytest.fixture(scope="module")
def browser(club, playwright):
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=phone_args(club))
    yield launched
    launched.close()


class Profile:
    """A browser on a profile of its own (not a private window's, where Chromium installs nothing): what `Phone`
    asks of a browser, with the one context it has."""

    def __init__(self, playwright, club: Club, folder: Path, lang: str):
        self.context = playwright.chromium.launch_persistent_context(
            str(folder), executable_path=str(CHROMIUM), args=phone_args(club), viewport=PHONE,
            locale=LOCALES[lang], base_url=club.secure, device_scale_factor=1)

    def new_context(self, **_):
        return self.context


@pytest.fixture
def phones(browser):
    made: list[Phone] = []

    def make(base: str, lang: str = "en") -> Phone:
        phone = Phone(browser, base, locale=LOCALES[lang], viewport=PHONE, service_workers="allow")
        made.append(phone)
        return phone

    yield make
    problems = [problem for phone in made for problem in phone.problems]
    for phone in made:
        phone.close()
    assert not problems, problems


def in_view(phone: Phone, selector: str) -> bool:
    box = phone.page.locator(selector).bounding_box()
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= phone.viewport["height"]


def test_over_https_at_the_clubs_name_the_page_keeps_the_screen_on_opens_offline_and_installs(club, playwright,
                                                                                              tmp_path):
    phone = Phone(Profile(playwright, club, tmp_path / "profile", "en"), club.secure)
    try:
        secure_phone(club, phone)
    finally:
        phone.close()
    assert not phone.problems, phone.problems


def secure_phone(club: Club, phone: Phone) -> None:
    phone.start_match(["S", "W", "N", "E"], dealer=0)
    page = phone.page
    assert page.evaluate("() => [window.isSecureContext, location.protocol, 'wakeLock' in navigator]") == [
        True, "https:", True]
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 1
    assert page.locator("#to-ca").count() == 0  # nothing lost, nothing said

    session = phone.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    manifest = session.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"] == f"{club.secure}/static/manifest.webmanifest"

    phone.click("#log-deal")
    phone.wait_turn(1)
    phone.context.set_offline(True)
    page.reload()
    page.wait_for_selector(".tab-panel")
    page.wait_for_selector("#offline")
    phone.wait_turn(1)
    assert page.evaluate("() => window.isSecureContext")
    phone.context.set_offline(False)


def test_the_manifest_names_the_page_and_its_icons(club, phones):
    phone = phones(club.secure)
    phone.open("/")
    page = phone.page
    assert page.locator('meta[name="theme-color"]').get_attribute("content") == "#0b5d3b"
    apple = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    manifest = page.evaluate("async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()")
    assert manifest["display"] == "standalone" and manifest["name"] and manifest["short_name"]
    assert manifest["theme_color"] == "#0b5d3b" and manifest["background_color"]
    sizes = {}
    for icon in manifest["icons"]:
        size = page.evaluate("""async (src) => {
            const image = new Image(); image.src = new URL(src, new URL('static/manifest.webmanifest', location)).href;
            await image.decode(); return [image.naturalWidth, image.naturalHeight]; }""", icon["src"])
        assert icon["type"] == "image/png" and icon["sizes"] == f"{size[0]}x{size[1]}", icon
        sizes[(icon["purpose"], size[0])] = True
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= set(sizes)
    width = "async (src) => { const i = new Image(); i.src = src; await i.decode(); return i.naturalWidth; }"
    assert page.evaluate(width, apple) == 180


@pytest.mark.parametrize("lang", list(LOCALES))
def test_over_plain_http_the_scorer_is_told_once_what_the_page_lost_and_followers_are_not(club, phones, lang):
    scorer = phones(club.plain, lang)
    scorer.open("/")
    page = scorer.page
    assert page.evaluate("() => [window.isSecureContext, 'wakeLock' in navigator, 'serviceWorker' in navigator]") == [
        False, False, False]
    notice = page.locator(".verdict.notice", has=page.locator("#to-ca"))
    notice.wait_for()
    scorer.screenshot(f"https-notice-{lang}-360x740", full_page=False)
    assert in_view(scorer, ".verdict.notice")
    assert page.locator("#to-ca").evaluate("a => a.href") == f"{club.plain}/ca"
    assert page.evaluate("() => document.documentElement.lang") == lang
    expected = {"pl": "ekran może zgasnąć", "en": "the screen may go dark", "ru": "экран может погаснуть"}[lang]
    assert expected in notice.inner_text()

    match_id = scorer.start_match(["S", "W", "N", "E"], dealer=0)
    page.wait_for_timeout(300)
    assert page.locator("#to-ca").count() == 0  # once on this phone
    key = page.evaluate("(id) => JSON.parse(localStorage.getItem(`kibic.key.${id}`))", match_id)

    follower = phones(club.plain, lang)
    follower.open(f"/?m={match_id}")
    follower.page.wait_for_timeout(300)
    assert follower.page.locator("#to-ca").count() == 0

    second = phones(club.plain, lang)  # a scorer who came by the scorer link, never seeing the start form
    second.open(f"/?m={match_id}#key={key}")
    second.page.wait_for_selector("#to-ca")
    second.calm()
    second.screenshot(f"https-notice-scorer-link-{lang}-360x740", full_page=False)
    assert in_view(second, ".verdict.notice")
    second.click("#to-ca")
    second.page.wait_for_url(f"{club.plain}/ca")
    second.page.wait_for_selector("#ca-crt")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_ca_page_offers_the_boxs_authority_the_steps_and_the_secure_address(club, phones, lang):
    phone = phones(club.plain, lang)
    page = phone.page
    page.goto("/ca")
    page.wait_for_selector("#ca-crt")
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert page.locator("#ca-https").get_attribute("href") == f"{club.secure}/"
    assert page.locator("#ca-plain").get_attribute("href") == f"{club.plain}/ca"
    assert page.locator("#ca-android li").count() == 4 and page.locator("#ca-ios li").count() == 4
    for image in page.locator("img.qr").all():
        assert image.evaluate("img => img.decode().then(() => img.naturalWidth)") > 100
    ca = club.tls / tls.CA_CERT
    for link, body, kind in (("#ca-crt", tls.ca_der(ca), "application/x-x509-ca-cert"),
                             ("#ca-pem", ca.read_bytes(), "application/x-pem-file"),
                             ("#ca-profile", tls.mobileconfig(ca), "application/x-apple-aspen-config")):
        got = download(phone, link)
        assert got == [200, kind, body.hex()], link
    fingerprint = page.locator("#ca-fingerprint").inner_text()
    assert fingerprint == tls.fingerprint(club.tls / tls.CA_CERT)
    assert fingerprint in "".join(club.output)  # what the box's terminal said at start
    phone.screenshot(f"https-ca-{lang}-360x740")


def download(phone: Phone, link: str) -> list:
    """What the browser gets for the link (through Chromium, which knows where club.lan is)."""
    return phone.page.locator(link).evaluate("""async (a) => {
        const answer = await fetch(a.href);
        const bytes = new Uint8Array(await answer.arrayBuffer());
        return [answer.status, answer.headers.get("content-type"),
                Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")];
    }""")


def test_the_ca_page_over_https_says_the_phone_trusts_the_box(club, phones):
    phone = phones(club.secure)
    phone.page.goto("/ca")
    phone.page.wait_for_selector("#ca-state.ca-ok")


def test_the_box_is_refused_for_names_and_addresses_it_was_not_given(club):
    """Python's TLS against the real gunicorn, trusting only the box's authority."""
    context = ssl.create_default_context(cafile=str(club.tls / tls.CA_CERT))

    def get(host: str) -> bytes:
        with socket.create_connection(("127.0.0.1", club.https_port), timeout=10) as raw, \
                context.wrap_socket(raw, server_hostname=host) as wrapped:
            wrapped.sendall(f"GET /api/games HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            return wrapped.recv(12)

    for host in [NAME, "localhost", "127.0.0.1", *tls.box_names()]:
        assert get(host) == b"HTTP/1.1 200", host
    for host in ["other.lan", "kibic.example.org", "10.9.8.7"]:
        with pytest.raises(ssl.SSLCertVerificationError):
            get(host)


def test_the_terminal_says_where_the_phones_go(club):
    said = "".join(club.output)
    assert f"https://127.0.0.1:{club.https_port}/" in said
    assert f"http://127.0.0.1:{club.http_port}/ca" in said
    assert "▀" in said or "█" in said  # the QR code of the first phone's address


def test_the_notice_and_the_ca_page_pass_axe(club, phones):
    """axe-core (WCAG 2 A and AA, as tests/page/test_page_axe.py) over the notice and the /ca page."""
    from accessibility import Axe
    from test_page_axe import OPTIONS

    axe, found = Axe(), []

    def check(phone: Phone, screen: str) -> None:
        for violation in axe.run(phone.page, options=OPTIONS).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                found.append(f"{screen}: {violation['id']} ({violation['impact']})")

    for lang in LOCALES:
        phone = phones(club.plain, lang)
        phone.open("/")
        phone.page.wait_for_selector("#to-ca")
        check(phone, f"notice {lang}")
        phone.page.goto("/ca")
        phone.page.wait_for_selector("#ca-crt")
        check(phone, f"/ca {lang}")
    assert not found, found


def served_certificate(port: int, ca: Path) -> bytes:
    context = ssl.create_default_context(cafile=str(ca))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname=NAME) as wrapped:
        return wrapped.getpeercert(binary_form=True)


def processes(club: Club) -> str:
    """The box's processes as they are (the launcher, each gunicorn master and its workers): what a failure says."""
    import psutil

    def said(process) -> str:
        with contextlib.suppress(psutil.Error):
            return f"{process.pid} {process.status()} {' '.join(process.cmdline()[1:3])}"
        return f"{process.pid} gone"

    with contextlib.suppress(psutil.Error):
        launcher = psutil.Process(club.process.pid)
        return "\n".join(said(process) for process in [launcher, *launcher.children(recursive=True)])
    return "the box is gone"


@pytest.mark.timed  # the certificate made again is served within 45 s: alone
def test_a_certificate_made_again_while_serving_is_served_without_a_restart(tmp_path):
    """The running box looks at its certificate (here every second, not every hour): one to be made again (here
    one gone) is made and served by new workers, trusted as before, and the server never stopped answering. The old
    workers serve until the new ones are ready, at most gunicorn's `timeout` (30 s): the new certificate is served
    within that and a new worker's start."""
    club = Club(tmp_path, "--check-every", "1")
    try:
        ca = club.tls / tls.CA_CERT
        first = served_certificate(club.https_port, ca)
        (club.tls / tls.SERVER_CERT).unlink()
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline and served_certificate(club.https_port, ca) == first:
            time.sleep(0.5)
        again = served_certificate(club.https_port, ca)
        assert again != first, club.said() + processes(club)
        made = x509.load_pem_x509_certificates((club.tls / tls.SERVER_CERT).read_bytes())[0]
        assert again == made.public_bytes(serialization.Encoding.DER), club.said() + processes(club)
        assert club.process.poll() is None, club.said()
    finally:
        club.stop()
