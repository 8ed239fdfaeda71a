"""`kibic`: the one command, a thin layer over `api.admin` and gunicorn.

    kibic serve [--data FOLDER] [--host HOST] [--port PORT] [--workers N]
    kibic backup FILE | kibic restore FILE
    kibic check | kibic migrate
    kibic secret rotate | kibic secret prune
    kibic delete match ID | kibic delete evening ID
    kibic forget NAME [--as NEW]
    kibic --version

Every command takes `--data FOLDER` (the SQLite file `FOLDER/referee.db`); `KIBIC_DB` names another file or a
PostgreSQL address. A command that cannot do what it is asked says why and changes nothing (exit status 1); a bad
setting stops it, named (status 2).
"""

from __future__ import annotations

import argparse
import fcntl
import ipaddress
import os
import socket
import struct
import sys
from pathlib import Path

from . import admin, logs, settings
from .version import VERSION

OPTION_SETTINGS = {"data": "KIBIC_DATA", "host": "KIBIC_HOST", "port": "KIBIC_PORT", "workers": "KIBIC_WORKERS",
                   "https_port": "KIBIC_HTTPS_PORT"}  # the command's options, as the settings they stand for
SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(prog="kibic", description="Kibic: a rules referee and score keeper for card games "
                                   "played with a real deck at a real table.")
    made.add_argument("--version", action="version", version=f"kibic {VERSION}")
    data = argparse.ArgumentParser(add_help=False)
    data.add_argument("--data", metavar="FOLDER", help="the data folder (KIBIC_DATA; default ~/.local/share/kibic)")
    commands = made.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", parents=[data], help="serve the page and the API (gunicorn, gevent)")
    serve.add_argument("--host", help="the address to listen on (KIBIC_HOST; default 127.0.0.1, 0.0.0.0 for the "
                       "phones of the room)")
    serve.add_argument("--port", type=int, help="the port (KIBIC_PORT; default 8000)")
    serve.add_argument("--workers", type=int, help="worker processes (KIBIC_WORKERS; default 2)")
    serve.add_argument("--https", action="store_true", help="HTTPS on the club's own network: the box's own "
                       "certificate authority, and --port plain for its /ca page "
                       "(docs/operating.md: Phones at the table)")
    serve.add_argument("--https-port", type=int, help="the HTTPS port (KIBIC_HTTPS_PORT; default 8443)")
    serve.add_argument("--name", action="append", default=[], help="with --https: one more name the phones reach "
                       "the box by (its own names and addresses are found by themselves)")
    serve.add_argument("--check-every", type=float, metavar="SECONDS", help="with --https: how often to look "
                       "whether the server certificate is to be made again (an hour)")

    backup = commands.add_parser("backup", parents=[data], help="write a consistent copy of the database, online")
    backup.add_argument("file", type=Path)
    restore = commands.add_parser("restore", parents=[data], help="put a backup back in place, online")
    restore.add_argument("file", type=Path)
    commands.add_parser("check", parents=[data], help="say what is wrong: store, migrations, secret, permissions")
    commands.add_parser("migrate", parents=[data], help="apply pending migrations (before starting new servers)")
    secret = commands.add_parser("secret", parents=[data], help="the server secret the match keys come from")
    secret.add_argument("action", choices=["rotate", "prune"],
                        help="rotate: a new secret, the old kept 24 h for retries; prune: drop the retired ones")
    delete = commands.add_parser("delete", parents=[data], help="delete a match, or an evening with its matches")
    delete.add_argument("what", choices=["match", "evening"])
    delete.add_argument("id")
    forget = commands.add_parser("forget", parents=[data], help="replace a person's name everywhere")
    forget.add_argument("name")
    forget.add_argument("--as", dest="replacement", default=admin.FORGOTTEN, help="the name put in its place")
    return made


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    for option, name in OPTION_SETTINGS.items():
        value = getattr(args, option, None)
        if value is not None:
            os.environ[name] = str(Path(value).absolute()) if option == "data" else str(value)
    try:
        found = settings.load()
    except settings.BadSetting as exc:
        print(f"kibic: bad setting {exc}", file=sys.stderr)
        return 2
    logs.configure(found.log_format, found.log_level)
    try:
        return run(args, found)
    except admin.AdminError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return 1


def run(args: argparse.Namespace, found: settings.Settings) -> int:
    database = found.database
    if args.command == "serve" and args.https:
        return serve_https(found, args.https_port if args.https_port is not None else found.https_port or 8443,
                           args.name, args.check_every)
    if args.command == "serve":
        return serve(found)
    if args.command == "backup":
        made = admin.backup(database, args.file)
        print(f"backed up to {args.file}" + counted(made))
    elif args.command == "restore":
        made = admin.restore(database, args.file)
        print(f"restored {args.file}" + counted(made) + "; every server process serves it from its next request")
    elif args.command == "check":
        report = admin.check(database)
        for fact in report.facts:
            print(fact)
        for problem in report.problems:
            print(f"problem: {problem}")
        print("ok" if report.ok else f"{len(report.problems)} problem(s)")
        return 0 if report.ok else 1
    elif args.command == "migrate":
        applied = admin.migrate(database)
        print(f"applied: {', '.join(applied)}" if applied else "nothing to apply: the database is up to date")
    elif args.command == "secret" and args.action == "rotate":
        made = admin.rotate_secret(database)
        print(f"server secret number {made['secret']} made; {made['kept']} older kept for the retries of the next "
              f"24 hours, {made['dropped']} dropped")
    elif args.command == "secret":
        print(f"{admin.prune_secrets(database)} old server secret(s) dropped")
    elif args.command == "delete":
        made = (admin.delete_match if args.what == "match" else admin.delete_evening)(database, args.id)
        print("deleted" + counted(made))
    elif args.command == "forget":
        made = admin.forget(database, args.name, args.replacement)
        print(f"replaced by {args.replacement!r} in {made['matches']} match(es), {made['evenings']} evening "
              f"name(s) and {made['events']} event(s)")
    return 0


def counted(made: dict) -> str:
    parts = [f"{made[kind]} {kind}" for kind in ("matches", "events", "evenings") if kind in made]
    return f": {', '.join(parts)}" if parts else ""


# --- serving -------------------------------------------------------------------------------------

def serve(found: settings.Settings) -> int:
    """gunicorn with the packaged settings (`api.gunicorn_conf`) on the chosen address, after migrating the
    database and saying where it is and where the phones should point."""
    from .store import described, is_postgresql

    os.environ["KIBIC_DB"] = found.database  # the workers' apps read the same
    if not is_postgresql(found.database):
        admin.migrate(found.database)
    addresses = phone_addresses(found.host, found.port)
    print(f"Kibic {VERSION}")
    print(f"data: {described(found.database)}")
    for address in addresses:
        print(f"open: {address}")
    page = found.public_url or next((a for a in addresses if not loopback(a)), addresses[0])
    if all(loopback(a) for a in addresses) and not found.public_url:
        print("Only this machine can open it: `kibic serve --host 0.0.0.0` lets the phones of the room in "
              "(plain HTTP: see SECURITY.md).")
    print_qr(page)
    sys.stdout.flush()

    # gunicorn in this process's place, a fresh interpreter: its master never imports the app (its gevent workers
    # do, once patched), as with the tests' `gunicorn --config gunicorn.conf.py`
    os.execv(sys.executable, gunicorn_command(found))


def serve_https(found: settings.Settings, https_port: int, names: list[str], check_every: float | None) -> int:
    """HTTPS with the box's own certificate authority (`api.tls.serve`: two gunicorns, HTTPS and the plain port
    for the /ca page), after migrating the database."""
    from . import tls
    from .store import is_postgresql

    os.environ["KIBIC_DB"] = found.database
    if not is_postgresql(found.database):
        admin.migrate(found.database)
    print(f"Kibic {VERSION}")
    extra = ["--workers", str(found.workers), "--access-logfile", "-"]
    return tls.serve(found.host, found.port, https_port, found.data, names=names, extra=extra,
                     check_seconds=check_every or tls.CHECK_SECONDS)


def gunicorn_command(found: settings.Settings) -> list[str]:
    config = Path(__file__).resolve().with_name("gunicorn_conf.py")
    return [sys.executable, "-m", "gunicorn", "--config", str(config), "--bind", bind_address(found.host, found.port),
            "--workers", str(found.workers), "--access-logfile", "-", "api:create_app()"]


def bind_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def loopback(url: str) -> bool:
    host = url.split("//", 1)[1].rsplit(":", 1)[0].strip("[]")
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def phone_addresses(host: str, port: int) -> list[str]:
    """The addresses of the page: the host's own, or, listening on every address, each of this machine's."""
    if host in ("0.0.0.0", "::", ""):
        found = [address for address in interface_addresses() if not ipaddress.ip_address(address).is_loopback]
        hosts = found or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://[{h}]:{port}/" if ":" in h else f"http://{h}:{port}/" for h in hosts]


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses, asked of each network interface (nothing is sent anywhere)."""
    found: list[str] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        names = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in names:
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
            address = socket.inet_ntoa(answer[20:24])
            if address not in found:
                found.append(address)
    if not found:
        try:
            found = [a for a in socket.gethostbyname_ex(socket.gethostname())[2] if a not in found]
        except OSError:
            pass
    return found


def print_qr(url: str) -> None:
    import segno

    print(f"QR code of {url}:")
    segno.make(url, error="m").terminal(compact=True)


if __name__ == "__main__":
    sys.exit(main())
