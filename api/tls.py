"""HTTPS on a club's own network, with no internet and no domain: a small certificate authority for this box.

A phone keeps its screen on (Wake Lock), opens the page without network (a service worker) and can install it
only on a secure origin, and a key travels in clear text over plain HTTP. A club's box has no domain a public
authority could vouch for, so the box is its own: `ensure_certificates` creates once, under the data folder, a
certificate authority for this box (its key 0600, in a folder 0700) and, signed by it, a server certificate for
the box's names and addresses, made again before it expires or when a name or address is missing from it. Each
phone trusts the authority once (the `/ca` page, over plain HTTP, says how); gunicorn serves TLS itself with the
server certificate (`--certfile`/`--keyfile` work with the gevent workers).

The authority may vouch only for local names (`.lan`, `.local`, `.home.arpa`, `.internal`, the box's own names)
and private or loopback addresses (an X.509 name constraint, which phones and browsers check): a copy of its
key taken off the box cannot make a phone that trusts it accept a certificate for a bank or any other site.

The certificates are made with `cryptography` (the Python Cryptographic Authority's library, maintained with
OpenSSL's security fixes, whose X.509 builder writes every field and extension): no ASN.1 written by hand here,
and no `openssl` command line (absent on some boxes, its options different across versions).

`python -m api.tls serve` (what `make serve HTTPS=1` runs) makes the certificates, prints the addresses and a
QR code of the `/ca` page, and serves Kibic twice with the project's gunicorn settings: over HTTPS, and over
plain HTTP for the phones that do not trust the box yet (they get the page, which says what it lost, and `/ca`).
`python -m api.tls serve-args` only makes the certificates and prints the arguments that make a gunicorn
started by other means serve them.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import datetime
import hashlib
import ipaddress
import os
import plistlib
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterable
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

__all__ = ["ensure_certificates", "box_names", "box_addresses", "covered", "certificate_hosts", "spki_sha256", "ca_der",
           "mobileconfig", "fingerprint", "serve_args", "serve", "main"]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

CA_DAYS = 3650  # the authority the phones trust: ten years, so that nobody has to trust a new one every season
SERVER_DAYS = 397  # browsers refuse a server certificate valid longer than 398 days
RENEW_DAYS = 30  # a server certificate with fewer days left is made again
CHECK_SECONDS = 3600  # how often `serve` looks at the server certificate while it runs
CA_KEY, CA_CERT, SERVER_KEY, SERVER_CERT = "ca.key", "ca.crt", "server.key", "server.crt"
# What the authority may vouch for, besides the names and addresses the box had when it was made.
LOCAL_SUFFIXES = ("lan", "local", "home.arpa", "internal", "localhost")
LOCAL_NETWORKS = tuple(ipaddress.ip_network(net) for net in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16", "100.64.0.0/10",
    "fc00::/7", "::1/128"))
DNS_NAME = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$")
GUNICORN_CONFIG = Path(__file__).resolve().with_name("gunicorn_conf.py")  # the packaged settings (`kibic serve`)
APP = "api:create_app()"


# --- the box's names and addresses ---------------------------------------------------------------------

def box_names() -> list[str]:
    """The names phones may reach this box by: its host name, the same in `.local` (mDNS, where the box announces
    itself), its full name when it has a domain, and `localhost`."""
    names = []
    host = socket.gethostname().strip().lower().rstrip(".")
    if DNS_NAME.match(host):
        names.append(host)
        if "." not in host:
            names.append(f"{host}.local")
    with contextlib.suppress(OSError):
        full = socket.getfqdn().strip().lower().rstrip(".")
        if "." in full and DNS_NAME.match(full) and not full.startswith("localhost"):
            names.append(full)
    names.append("localhost")
    return list(dict.fromkeys(names))


def box_addresses() -> list[Address]:
    """This box's IP addresses on every interface, loopback included; the others first, IPv4 before IPv6. An IPv6
    link-local address is left out (a browser's address bar cannot take one)."""
    import psutil  # here: only what lists addresses needs it

    found: list[Address] = [ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")]
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            if entry.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            with contextlib.suppress(ValueError):
                address = ipaddress.ip_address(entry.address.split("%")[0])
                if not address.is_link_local or address.version == 4:
                    found.append(address)
    return sorted(set(found), key=lambda a: (a.is_loopback, a.version, a.is_link_local, int(a)))


def phone_addresses(names: Iterable[str], addresses: Iterable[Address]) -> list[str]:
    """The hosts worth showing a phone at the table, as they go in an address: the box's non-loopback IPv4
    addresses (what a phone on the Wi-Fi surely reaches), then its names other than localhost."""
    hosts = [str(a) for a in addresses if a.version == 4 and not a.is_loopback and not a.is_link_local]
    hosts += [name for name in names if name != "localhost"]
    return list(dict.fromkeys(hosts))


# --- the certificates --------------------------------------------------------------------------------------

def ensure_certificates(folder: str | os.PathLike, names: Iterable[str], addresses: Iterable[str | Address],
                        now: datetime.datetime | None = None) -> tuple[Path, Path, Path]:
    """The box's server certificate (with the authority's after it), its key, and the authority's certificate:
    `(cert_path, key_path, ca_path)` in `folder`.

    The authority is made once (its key 0600, `folder` 0700); the server certificate is made again when it is
    missing, not the authority's, due to expire within RENEW_DAYS, or lacks a name or address asked for (it keeps
    those it had, so that no phone loses an address it used). `now` stands for the clock in tests.
    """
    now = now or datetime.datetime.now(datetime.UTC)
    folder = Path(folder)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(PermissionError):
        folder.chmod(0o700)
    wanted_names = [checked_name(name) for name in names]
    wanted_addresses = [ipaddress.ip_address(str(a).strip("[]")) for a in addresses]
    ca_key, ca_cert = authority(folder, wanted_names, wanted_addresses, now)
    # a phone refuses the whole certificate if one of its names is outside the authority's constraints
    wanted_names = [name for name in wanted_names if permits(ca_cert, name)]
    wanted_addresses = [address for address in wanted_addresses if permits(ca_cert, str(address))]
    cert_path, key_path = folder / SERVER_CERT, folder / SERVER_KEY
    current = read_server(cert_path, key_path, ca_cert)
    if current is not None:
        have_names, have_addresses = sans(current)
        fresh = current.not_valid_after_utc - now > datetime.timedelta(days=RENEW_DAYS)
        if fresh and set(wanted_names) <= set(have_names) and set(wanted_addresses) <= set(have_addresses):
            return cert_path, key_path, folder / CA_CERT
        wanted_names = list(dict.fromkeys([*wanted_names, *have_names]))
        wanted_addresses = list(dict.fromkeys([*wanted_addresses, *have_addresses]))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = server_certificate(key, ca_key, ca_cert, wanted_names, wanted_addresses, now)
    write(key_path, key_pem(key), private=True)
    write(cert_path, cert.public_bytes(serialization.Encoding.PEM) + ca_cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path, folder / CA_CERT


def checked_name(name: str) -> str:
    name = name.strip().lower().rstrip(".")
    if not DNS_NAME.match(name):
        raise ValueError(f"{name!r} is not a host name (letters, digits, hyphens and dots)")
    return name


def authority(folder: Path, names: list[str], addresses: list[Address],
              now: datetime.datetime) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """The box's authority: read, or made when missing or about to expire."""
    key_path, cert_path = folder / CA_KEY, folder / CA_CERT
    with contextlib.suppress(FileNotFoundError, ValueError):
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        if (cert.public_key().public_numbers() == key.public_key().public_numbers()
                and cert.not_valid_after_utc - now > datetime.timedelta(days=RENEW_DAYS)):
            if key_path.stat().st_mode & 0o077:
                key_path.chmod(0o600)
            return key, cert
    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname() or "box"
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Kibic on {host} {secrets.token_hex(4)}"),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Kibic")])
    dns = [*LOCAL_SUFFIXES, *(name for name in names if not is_local_name(name))]
    nets = [*LOCAL_NETWORKS, *(ipaddress.ip_network(a) for a in addresses if not is_local_address(a))]
    constraints = x509.NameConstraints(
        permitted_subtrees=[*(x509.DNSName(name) for name in dict.fromkeys(dns)),
                            *(x509.IPAddress(net) for net in dict.fromkeys(nets))],
        excluded_subtrees=None)
    cert = (x509.CertificateBuilder()
            .subject_name(subject).issuer_name(subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(constraints, critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    write(key_path, key_pem(key), private=True)
    write(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    (folder / SERVER_CERT).unlink(missing_ok=True)  # signed by the authority just replaced
    return key, cert


def server_certificate(key, ca_key, ca_cert: x509.Certificate, names: list[str], addresses: list[Address],
                       now: datetime.datetime) -> x509.Certificate:
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Kibic on {socket.gethostname() or 'box'}")])
    return (x509.CertificateBuilder()
            .subject_name(subject).issuer_name(ca_cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
            .add_extension(x509.SubjectAlternativeName([*(x509.DNSName(n) for n in names),
                                                        *(x509.IPAddress(a) for a in addresses)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))


def read_server(cert_path: Path, key_path: Path, ca_cert: x509.Certificate) -> x509.Certificate | None:
    """The server certificate in place, if it is whole, matches its key and was signed by this authority."""
    try:
        cert = x509.load_pem_x509_certificates(cert_path.read_bytes())[0]
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        ca_cert.public_key().verify(cert.signature, cert.tbs_certificate_bytes, ec.ECDSA(cert.signature_hash_algorithm))
    except (FileNotFoundError, ValueError, IndexError, InvalidSignature, TypeError):
        return None
    if cert.public_key().public_numbers() != key.public_key().public_numbers():
        return None
    return cert


def sans(cert: x509.Certificate) -> tuple[list[str], list[Address]]:
    try:
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return [], []
    return alt.get_values_for_type(x509.DNSName), alt.get_values_for_type(x509.IPAddress)


def certificate_hosts(cert_path: str | os.PathLike) -> tuple[list[str], list[Address]]:
    """The names and addresses the (first) certificate in `cert_path` is for."""
    return sans(x509.load_pem_x509_certificates(Path(cert_path).read_bytes())[0])


def is_local_name(name: str) -> bool:
    return any(name == suffix or name.endswith(f".{suffix}") for suffix in LOCAL_SUFFIXES)


def is_local_address(address: Address) -> bool:
    return any(address in net for net in LOCAL_NETWORKS)


def covered(ca_path: str | os.PathLike, host: str) -> bool:
    """Whether the authority may vouch for `host` (a name or an address): a phone refuses a certificate with a
    name the authority's constraints leave out, even one it signed, so `ensure_certificates` leaves such a name
    out of the server certificate (`serve` says so)."""
    return permits(x509.load_pem_x509_certificate(Path(ca_path).read_bytes()), host)


def permits(ca_cert: x509.Certificate, host: str) -> bool:
    try:
        permitted = ca_cert.extensions.get_extension_for_class(x509.NameConstraints).value.permitted_subtrees
    except x509.ExtensionNotFound:
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        name = host.lower().rstrip(".")
        return any(name == p.value or name.endswith(f".{p.value}") for p in permitted if isinstance(p, x509.DNSName))
    return any(address in p.value for p in permitted if isinstance(p, x509.IPAddress))


def key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def write(path: Path, data: bytes, private: bool = False) -> None:
    """Writes the file whole or not at all (a new file moved into place); a key readable by its owner only."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


# --- what a phone downloads ----------------------------------------------------------------------------------

def ca_der(ca_path: str | os.PathLike) -> bytes:
    """The authority's certificate in DER, the `.crt` Android's settings install."""
    return x509.load_pem_x509_certificate(Path(ca_path).read_bytes()).public_bytes(serialization.Encoding.DER)


def mobileconfig(ca_path: str | os.PathLike) -> bytes:
    """An iOS configuration profile that installs the authority's certificate (a root certificate payload). It is
    not signed: iOS shows it as "not verified", and the steps on `/ca` say so."""
    cert = x509.load_pem_x509_certificate(Path(ca_path).read_bytes())
    der = cert.public_bytes(serialization.Encoding.DER)
    digest = hashlib.sha256(der).hexdigest()
    name = cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value
    profile = {
        "PayloadType": "Configuration", "PayloadVersion": 1, "PayloadDisplayName": name,
        "PayloadDescription": "Lets this phone open Kibic on the club's box over HTTPS.",
        "PayloadIdentifier": f"kibic.ca.{digest[:16]}",
        "PayloadUUID": str(uuid.uuid5(uuid.NAMESPACE_URL, f"kibic-ca:{digest}")).upper(),
        "PayloadContent": [{
            "PayloadType": "com.apple.security.root", "PayloadVersion": 1, "PayloadDisplayName": name,
            "PayloadIdentifier": f"kibic.ca.{digest[:16]}.root",
            "PayloadUUID": str(uuid.uuid5(uuid.NAMESPACE_URL, f"kibic-ca-root:{digest}")).upper(),
            "PayloadCertificateFileName": "kibic-ca.crt", "PayloadContent": der,
        }],
    }
    return plistlib.dumps(profile)


def spki_sha256(cert_path: str | os.PathLike) -> str:
    """The base64 SHA-256 of the first certificate's public key (SPKI), as Chromium's
    `--ignore-certificate-errors-spki-list` and HTTP public key pins name a key."""
    cert = x509.load_pem_x509_certificates(Path(cert_path).read_bytes())[0]
    spki = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


# --- serving -------------------------------------------------------------------------------------------------

def data_folder() -> Path:
    """Where the box keeps its files: the folder of the SQLite database (`KIBIC_DB`), else the data folder
    (`KIBIC_DATA`, `api.settings`)."""
    from . import settings

    found = settings.load()
    if not found.database.startswith(("postgresql:", "postgres:")):
        return Path(found.database).resolve().parent
    return found.data.resolve()


def serve_args(folder: str | os.PathLike, names: Iterable[str] = (), addresses: Iterable[str] = ()) -> list[str]:
    """The certificates made (see `ensure_certificates`) for the box's names and addresses and those given, and the
    gunicorn arguments that serve them."""
    cert, key, _ = ensure_certificates(Path(folder) / "tls", [*box_names(), *names], [*box_addresses(), *addresses])
    return ["--certfile", str(cert), "--keyfile", str(key)]


def listen(host: str, port: int) -> socket.socket:
    """A listening socket for a gunicorn to take over (`--bind fd://N`): its port is known before either starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def fingerprint(ca_path: str | os.PathLike) -> str:
    """The authority's SHA-256 fingerprint as phones' settings show it (`AB:CD:...`)."""
    digest = hashlib.sha256(ca_der(ca_path)).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def banner(hosts: list[str], http_port: int, https_port: int, ca_fingerprint: str) -> str:
    """What the terminal says at start: where phones go, and a QR code of the first phone's address."""
    import io

    import segno

    first = f"http://{url_host(hosts[0])}:{http_port}/ca" if hosts else ""
    lines = ["", "Kibic serves the phones at the table at:"]
    lines += [f"  https://{url_host(host)}:{https_port}/" for host in hosts]
    lines += ["A phone that does not trust this box yet opens its plain address and follows the steps there",
              "(it can score at the plain address meanwhile, without the screen kept on or the page offline):"]
    lines += [f"  http://{url_host(host)}:{http_port}/ca" for host in hosts]
    lines += [f"The box's certificate authority, SHA-256: {ca_fingerprint}", ""]
    text = "\n".join(lines)
    if first:
        out = io.StringIO()
        segno.make(first, error="m").terminal(out=out, compact=True)
        text += f"\nThe first phone: {first}\n{out.getvalue()}"
    return text


def gunicorn_settings() -> set[str]:
    from gunicorn.config import KNOWN_SETTINGS

    return {setting.name for setting in KNOWN_SETTINGS}


def renew(cert: Path, folder: Path, names: list[str], addresses: list[str], out) -> bool:
    """Whether the server certificate was made again (for the box's names and addresses now, and those given);
    a failure is said and leaves the one being served in place."""
    try:
        before = cert.read_bytes()
    except OSError:
        before = b""
    try:
        ensure_certificates(folder, [*box_names(), *names], [*box_addresses(), *addresses])
        return cert.read_bytes() != before
    except (OSError, ValueError) as error:
        print(f"The server certificate could not be made again: {error}", file=out, flush=True)
        return False


def serve(host: str, http_port: int, https_port: int, folder: str | os.PathLike, names: Iterable[str] = (),
          addresses: Iterable[str] = (), extra: Iterable[str] = (), out=None,
          check_seconds: float = CHECK_SECONDS) -> int:
    """Kibic over HTTPS on `https_port` and over plain HTTP on `http_port`, two gunicorns with the project's
    settings on one database, until either stops or this process is told to stop (it tells them). The server
    certificate is looked at every hour and made again before it expires, or when the box has a new address; the
    HTTPS gunicorn then takes it up with new workers (SIGHUP), without dropping a connection."""
    out = out or sys.stdout
    given_names, given_addresses = list(names), list(addresses)
    names, addresses = [*box_names(), *given_names], [*box_addresses(), *given_addresses]
    tls_folder = Path(folder) / "tls"
    cert, key, ca = ensure_certificates(tls_folder, names, addresses)
    left_out = [str(h) for h in [*names, *addresses] if not covered(ca, str(h))]
    plain, secure = listen(host, http_port), listen(host, https_port)
    http_port, https_port = plain.getsockname()[1], secure.getsockname()[1]
    env = {**os.environ, "KIBIC_TLS_DIR": str(tls_folder), "KIBIC_HTTP_PORT": str(http_port),
           "KIBIC_HTTPS_PORT": str(https_port)}
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    common = ["--config", str(GUNICORN_CONFIG)] if GUNICORN_CONFIG.exists() else []
    if "control_socket_disable" in gunicorn_settings():
        common.append("--no-control-socket")  # the two would share one (~/.gunicorn/gunicorn.ctl), each its own user's
    commands = {
        "https": [gunicorn, *common, "--bind", f"fd://{secure.fileno()}", "--certfile", str(cert), "--keyfile",
                  str(key), *extra, APP],
        "http": [gunicorn, *common, "--bind", f"fd://{plain.fileno()}", *extra, APP],
    }
    hosts = phone_addresses(names, [ipaddress.ip_address(str(a)) for a in addresses])
    if host not in ("0.0.0.0", "::", ""):
        hosts = [host.strip("[]")]  # bound to one address only: the phones reach it there
    hosts = [h for h in hosts if h not in left_out]
    print(banner(hosts, http_port, https_port, fingerprint(ca)), file=out, flush=True)
    if left_out:
        print(f"Left out of the certificate: {', '.join(left_out)}: the box's certificate authority, made before, may"
              f" not vouch for them. To make a new one, stop Kibic and remove {tls_folder / CA_KEY} and"
              f" {tls_folder / CA_CERT}: every phone then trusts the new one again.", file=out, flush=True)
    children = {}
    for name, command in commands.items():
        children[name] = subprocess.Popen(command, env=env, pass_fds=(plain.fileno(), secure.fileno()),
                                          start_new_session=True)
    plain.close()
    secure.close()
    stopping = []

    def stop(signum, frame):
        stopping.append(signum)
        for child in children.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGTERM)  # a graceful stop, Ctrl-C included (streams end at once)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    checked = time.monotonic()
    try:
        while all(child.poll() is None for child in children.values()):
            time.sleep(0.5)
            if time.monotonic() - checked > check_seconds:  # due to expire, or the box has a new address
                checked = time.monotonic()
                if renew(cert, tls_folder, given_names, given_addresses, out):
                    os.kill(children["https"].pid, signal.SIGHUP)
        if not stopping:
            stop(signal.SIGTERM, None)
    finally:
        for child in children.values():
            try:
                child.wait(timeout=30)  # gunicorn's graceful_timeout (20 s) for the requests on their way
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    codes = [child.returncode for child in children.values()]
    return 0 if stopping and all(code in (0, -signal.SIGTERM, -signal.SIGINT) for code in codes) else (max(codes) or 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m api.tls", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    both = argparse.ArgumentParser(add_help=False)
    both.add_argument("--folder", type=Path, default=None,
                      help="the data folder (its tls/ holds the certificates); default: REFEREE_DB's folder or ./data")
    both.add_argument("--name", action="append", default=[], help="one more name phones reach the box by")
    both.add_argument("--address", action="append", default=[], help="one more address phones reach the box at")
    commands.add_parser("serve-args", parents=[both], help="make the certificates, print gunicorn's TLS arguments")
    run = commands.add_parser("serve", parents=[both], help="serve Kibic over HTTPS and plain HTTP")
    run.add_argument("--host", default="0.0.0.0")
    run.add_argument("--port", type=int, default=8000, help="the plain HTTP port (the /ca page)")
    run.add_argument("--https-port", type=int, default=8443)
    run.add_argument("--check-every", type=float, default=CHECK_SECONDS, metavar="SECONDS",
                     help="how often to look whether the server certificate is to be made again")
    run.add_argument("gunicorn", nargs="*", help="more gunicorn arguments, after --")
    args = parser.parse_args(argv)
    folder = args.folder or data_folder()
    names = [name for value in args.name for name in value.replace(",", " ").split()]
    addresses = [a for value in args.address for a in value.replace(",", " ").split()]
    try:
        if args.command == "serve-args":
            print(shlex.join(serve_args(folder, names, addresses)))
            return 0
        return serve(args.host, args.port, args.https_port, folder, names, addresses, args.gunicorn,
                     check_seconds=args.check_every)
    except ValueError as error:
        print(f"kibic: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
