"""The box's certificate authority and server certificate (`api.tls`), checked with Python's own TLS: a real
handshake on loopback against the authority, as a phone that trusts it makes one."""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import plistlib
import socket
import ssl
import threading
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from api import tls

NAMES = ["club.lan", "kibic-box"]
ADDRESSES = ["127.0.0.1", "192.168.1.20", "::1"]


@contextlib.contextmanager
def tls_server(cert_path: Path, key_path: Path):
    """A TLS server on a free loopback port that completes handshakes with this certificate: yields its port."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    done = threading.Event()

    def run():
        while not done.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            connection.settimeout(5)
            with contextlib.suppress(OSError), context.wrap_socket(connection, server_side=True) as wrapped:
                wrapped.recv(1)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        done.set()
        thread.join(5)
        listener.close()


def handshake(port: int, ca_path: Path, host: str) -> bool:
    """Whether a client trusting only the box's authority accepts the server as `host` (a name or address)."""
    context = ssl.create_default_context(cafile=str(ca_path))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw, \
                context.wrap_socket(raw, server_hostname=host) as wrapped:
            wrapped.send(b"x")
            return True
    except ssl.SSLCertVerificationError:
        return False


def load(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificates(path.read_bytes())[0]


def test_the_certificate_covers_the_names_and_addresses_asked_for_and_is_refused_for_others(tmp_path):
    cert, key, ca = tls.ensure_certificates(tmp_path / "tls", NAMES, ADDRESSES)
    with tls_server(cert, key) as port:
        for host in [*NAMES, *ADDRESSES]:
            assert handshake(port, ca, host), host
        for host in ["other.lan", "club.lan.example.org", "kibic", "192.168.1.21", "10.0.0.1", "::2"]:
            assert not handshake(port, ca, host), host
    names, addresses = tls.certificate_hosts(cert)
    assert sorted(names) == sorted(NAMES)
    assert sorted(map(str, addresses)) == sorted(ADDRESSES)


def test_the_authority_is_made_once_and_its_key_is_for_its_owner_only(tmp_path):
    folder = tmp_path / "tls"
    _, key, ca = tls.ensure_certificates(folder, NAMES, ADDRESSES)
    first = ca.read_bytes()
    (folder / tls.CA_KEY).chmod(0o644)  # loosened by hand: tightened again at the next start
    tls.ensure_certificates(folder, NAMES, ADDRESSES)
    assert ca.read_bytes() == first
    assert (folder / tls.CA_KEY).stat().st_mode & 0o777 == 0o600
    assert key.stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700
    authority = load(ca)
    assert authority.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert authority.not_valid_after_utc - authority.not_valid_before_utc > datetime.timedelta(days=3000)


def test_the_server_certificate_is_made_again_before_it_expires_and_not_sooner(tmp_path):
    folder = tmp_path / "tls"
    now = datetime.datetime.now(datetime.UTC)
    cert, _, ca = tls.ensure_certificates(folder, NAMES, ADDRESSES, now=now)
    made = load(cert)
    assert made.not_valid_after_utc - now <= datetime.timedelta(days=398)  # what browsers accept
    tls.ensure_certificates(folder, NAMES, ADDRESSES, now=now + datetime.timedelta(days=300))
    assert load(cert).serial_number == made.serial_number
    later = now + datetime.timedelta(days=tls.SERVER_DAYS - tls.RENEW_DAYS + 1)
    authority = ca.read_bytes()
    tls.ensure_certificates(folder, NAMES, ADDRESSES, now=later)
    renewed = load(cert)
    assert renewed.serial_number != made.serial_number
    assert renewed.not_valid_after_utc > made.not_valid_after_utc
    assert ca.read_bytes() == authority  # the phones keep trusting the same authority


def test_a_new_name_makes_the_certificate_again_and_keeps_the_old_ones(tmp_path):
    folder = tmp_path / "tls"
    cert, key, ca = tls.ensure_certificates(folder, ["club.lan"], ["192.168.1.20"])
    tls.ensure_certificates(folder, ["kibic.home.arpa"], ["10.1.2.3"])
    names, addresses = tls.certificate_hosts(cert)
    assert set(names) == {"club.lan", "kibic.home.arpa"}
    assert set(map(str, addresses)) == {"192.168.1.20", "10.1.2.3"}
    with tls_server(cert, key) as port:
        assert handshake(port, ca, "club.lan") and handshake(port, ca, "10.1.2.3")


def test_a_certificate_signed_by_another_authority_is_replaced(tmp_path):
    folder = tmp_path / "tls"
    cert, _, _ = tls.ensure_certificates(folder, NAMES, ADDRESSES)
    other_cert, other_key, _ = tls.ensure_certificates(tmp_path / "other", NAMES, ADDRESSES)
    cert.write_bytes(other_cert.read_bytes())
    (folder / tls.SERVER_KEY).write_bytes(other_key.read_bytes())
    cert, key, ca = tls.ensure_certificates(folder, NAMES, ADDRESSES)
    with tls_server(cert, key) as port:
        assert handshake(port, ca, "club.lan")


def test_the_authority_cannot_vouch_for_a_site_on_the_internet(tmp_path):
    """Even with its key in hand, a certificate the box's authority signs for a bank is refused by a phone that
    trusts the authority: its name constraints allow only local names and private addresses."""
    folder = tmp_path / "tls"
    tls.ensure_certificates(folder, NAMES, ADDRESSES)
    ca_key = serialization.load_pem_private_key((folder / tls.CA_KEY).read_bytes(), password=None)
    ca_cert = load(folder / tls.CA_CERT)
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    forged = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bank")]))
              .issuer_name(ca_cert.subject).public_key(key.public_key())
              .serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=30))
              .add_extension(x509.SubjectAlternativeName([x509.DNSName("bank.example.com"),
                                                          x509.IPAddress(ipaddress.ip_address("8.8.8.8"))]), False)
              .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), False)
              .sign(ca_key, hashes.SHA256()))
    forged_path, forged_key = tmp_path / "forged.crt", tmp_path / "forged.key"
    forged_path.write_bytes(forged.public_bytes(serialization.Encoding.PEM))
    forged_key.write_bytes(tls.key_pem(key))
    with tls_server(forged_path, forged_key) as port:
        assert not handshake(port, folder / tls.CA_CERT, "bank.example.com")
        assert not handshake(port, folder / tls.CA_CERT, "8.8.8.8")
    assert not tls.covered(folder / tls.CA_CERT, "bank.example.com")
    assert tls.covered(folder / tls.CA_CERT, "kibic-box") and tls.covered(folder / tls.CA_CERT, "x.club.lan")


def test_a_name_the_authority_may_not_vouch_for_is_left_out_of_the_certificate(tmp_path):
    """An address the box gets after its authority was made, outside its constraints (a public one), would make
    phones refuse the whole certificate: it is left out, and the others still work."""
    folder = tmp_path / "tls"
    tls.ensure_certificates(folder, ["club.lan"], ["192.168.1.20"])
    cert, key, ca = tls.ensure_certificates(folder, ["club.lan", "kibic.example.org"], ["192.168.1.20", "203.0.113.9"])
    names, addresses = tls.certificate_hosts(cert)
    assert names == ["club.lan"] and list(map(str, addresses)) == ["192.168.1.20"]
    with tls_server(cert, key) as port:
        assert handshake(port, ca, "club.lan")


def test_a_public_address_the_box_has_when_its_authority_is_made_is_allowed(tmp_path):
    cert, key, ca = tls.ensure_certificates(tmp_path / "tls", ["kibic.example.org"], ["203.0.113.9"])
    with tls_server(cert, key) as port:
        assert handshake(port, ca, "203.0.113.9") and handshake(port, ca, "kibic.example.org")


def test_the_ios_profile_carries_the_authority(tmp_path):
    _, _, ca = tls.ensure_certificates(tmp_path / "tls", NAMES, ADDRESSES)
    profile = plistlib.loads(tls.mobileconfig(ca))
    assert profile["PayloadType"] == "Configuration"
    (payload,) = profile["PayloadContent"]
    assert payload["PayloadType"] == "com.apple.security.root"
    assert payload["PayloadContent"] == tls.ca_der(ca) == load(ca).public_bytes(serialization.Encoding.DER)
    assert plistlib.loads(tls.mobileconfig(ca))["PayloadUUID"] == profile["PayloadUUID"]  # installs over itself


def test_serve_args_makes_the_certificates_for_the_box_and_names_them_for_gunicorn(tmp_path):
    args = tls.serve_args(tmp_path, names=["club.lan"], addresses=["192.168.7.7"])
    folder = tmp_path / "tls"
    assert args == ["--certfile", str(folder / tls.SERVER_CERT), "--keyfile", str(folder / tls.SERVER_KEY)]
    names, addresses = tls.certificate_hosts(tmp_path / "tls" / tls.SERVER_CERT)
    assert {"club.lan", "localhost", *tls.box_names()} == set(names)
    assert {"192.168.7.7", "127.0.0.1"} <= set(map(str, addresses))


def test_the_box_lists_its_names_and_addresses():
    assert "localhost" in tls.box_names()
    assert socket.gethostname().lower() in tls.box_names()
    addresses = tls.box_addresses()
    assert ipaddress.ip_address("127.0.0.1") in addresses
    assert all(not (a.version == 6 and a.is_link_local) for a in addresses)
    assert addresses[-1].is_loopback  # the loopback ones come last: a phone cannot use them


@pytest.mark.parametrize("bad", ["club lan", "-x.lan", "x..lan", "ünï.lan", "a" * 64 + ".lan"])
def test_a_bad_name_is_refused_in_words(tmp_path, bad):
    with pytest.raises(ValueError, match="is not a host name"):
        tls.ensure_certificates(tmp_path / "tls", [bad], [])
    assert tls.main(["serve-args", "--folder", str(tmp_path), f"--name={bad.replace(' ', '_')}"]) == 2
