"""Every setting of Kibic, in one place: the `KIBIC_*` environment variables, each with its default, read and checked
at start (`load`). A bad value stops the start, naming the setting (`BadSetting`); the table of settings in
docs/operating.md is written from `SETTINGS` (`python -m api.settings` prints it, a test checks it is the guide's).

`REFEREE_DB`, the first name of `KIBIC_DB`, is still read when `KIBIC_DB` is not set.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

APP_NAME = "kibic"
DATABASE_FILE = "referee.db"
LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
HOST_NAME = re.compile(r"^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")


class BadSetting(ValueError):
    "A setting with a value Kibic cannot use: `name` is the variable, the message says what is wrong"

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.name = name


@dataclass(frozen=True)
class Setting:
    name: str
    default: str  # as the table shows it
    meaning: str
    parse: Callable[[str], object]
    aliases: tuple[str, ...] = ()


def default_data_folder() -> Path:
    """Outside any clone of the code, so that `git clean` never deletes the matches: `$XDG_DATA_HOME/kibic`, or
    `~/.local/share/kibic`."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / APP_NAME


def text(value: str) -> str:
    return value


def folder(value: str) -> Path:
    return Path(value).expanduser()


def whole_number(low: int, high: int) -> Callable[[str], int]:
    def parse(value: str) -> int:
        if not re.fullmatch(r"\d{1,6}", value.strip()) or not low <= int(value) <= high:
            raise ValueError(f"a whole number from {low} to {high}, not {value!r}")
        return int(value)

    return parse


def public_url(value: str) -> str | None:
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"an address such as https://kibic.example.org, not {value!r}")
    return value.rstrip("/")


def host_names(value: str) -> list[str] | None:
    """Comma-separated host names, compared without regard to case (Host: CLUB.LAN is club.lan)."""
    names = [name.strip().lower() for name in value.split(",") if name.strip()]
    for name in names:
        if not HOST_NAME.match(name.partition(":")[0].encode("idna").decode("ascii")):
            raise ValueError(f"host names separated by commas, and {name!r} is not one")
    return names or None


def creation_limit(value: str) -> str | None:
    """Windows such as "20 per minute; 200 per day" (`api.limits`), or none."""
    if value.strip().lower() in ("none", "off"):
        return None
    from limits import parse_many  # the library that counts them (`api.limits`) reads them

    try:
        parse_many(value)
    except ValueError:
        raise ValueError(f"windows such as \"20 per minute; 200 per day\", or none; not {value!r}") from None
    return value


def addresses(value: str) -> list[str]:
    """Comma-separated IP addresses."""
    found = [address.strip() for address in value.split(",") if address.strip()]
    for address in found:
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise ValueError(f"IP addresses separated by commas, and {address!r} is not one") from None
    return found


def one_of(choices: tuple[str, ...], fold: Callable[[str], str] = str.lower) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if fold(value) not in choices:
            raise ValueError(f"one of {', '.join(choices)}, not {value!r}")
        return fold(value)

    return parse


SETTINGS = [
    Setting("KIBIC_DATA", "`~/.local/share/kibic`", "the folder of the SQLite file (`kibic serve --data FOLDER`), "
            "made for the service's user alone (0700); `$XDG_DATA_HOME/kibic` when that is set", folder),
    Setting("KIBIC_DB", "`$KIBIC_DATA/referee.db`", "the SQLite file, or a `postgresql://` address: the PostgreSQL "
            "store, for several app servers", text, aliases=("REFEREE_DB",)),
    Setting("KIBIC_HOST", "`127.0.0.1`", "the address `kibic serve` listens on (`--host`); `0.0.0.0` for the phones "
            "of the room", text),
    Setting("KIBIC_PORT", "`8000`", "the port `kibic serve` listens on (`--port`; 0: one the system picks)",
            whole_number(0, 65535)),
    Setting("KIBIC_WORKERS", "`2`", "gunicorn's gevent worker processes (`--workers`); each holds up to 11 "
            "PostgreSQL connections", whole_number(1, 64)),
    Setting("KIBIC_PG_POOL_SIZE", "`10`", "PostgreSQL connections each worker process opens at most (1 to 100; see "
            "\"Deployment\" for the sum that must fit `max_connections`)", whole_number(1, 100)),
    Setting("KIBIC_PUBLIC_URL", "none", "the address phones reach the service at (`https://kibic.example.org`): "
            "follow links and their QR codes are built from it, never from the request's Host", public_url),
    Setting("KIBIC_TRUSTED_HOSTS", "none: any", "comma-separated host names the service answers to (any other Host "
            "gets 400), without regard to case", host_names),
    Setting("KIBIC_CREATION_LIMIT", "`20 per minute; 200 per day`", "new matches and evenings one client address "
            "may start, in each worker process (`429 too_many_creations` past it); `none` lifts it", creation_limit),
    Setting("KIBIC_TRUSTED_PROXIES", "none", "comma-separated addresses of the reverse proxies in front: from them "
            "the client's address is taken from `X-Forwarded-For` (for the creation limit), and their connections "
            "are not counted against `KIBIC_MAX_CONNECTIONS_PER_CLIENT`", addresses),
    Setting("KIBIC_MAX_CONNECTIONS_PER_CLIENT", "`100`", "connections one client address (IPv6: its /64) may hold "
            "in each worker process: streams, requests on their way, kept-alive ones; one more is answered `429 "
            "too_many_connections` and closed; `0` lifts it", whole_number(0, 100000)),
    Setting("KIBIC_HTTPS_PORT", "`8443` with `--https`", "the HTTPS port of `kibic serve --https` (`--https-port`); "
            "its plain port (`KIBIC_PORT`) serves the /ca page for the phones to trust the box",
            whole_number(0, 65535)),
    Setting("KIBIC_HTTP_PORT", "set by `kibic serve --https`", "the plain HTTP port the servers tell the phones of "
            "(on the /ca page)", whole_number(1, 65535)),
    Setting("KIBIC_TLS_DIR", "`$KIBIC_DATA/tls`", "the box's certificate authority and server certificate (`kibic "
            "serve --https` makes them there once, the authority's key 0600)", folder),
    Setting("KIBIC_LOG_FORMAT", "`text`", "`text`: one line per record; `json`: one JSON object per line",
            one_of(LOG_FORMATS)),
    Setting("KIBIC_LOG_LEVEL", "`INFO`", "the least level logged: DEBUG, INFO, WARNING or ERROR",
            one_of(LOG_LEVELS, str.upper)),
]
DEFAULTS = {"KIBIC_HOST": "127.0.0.1", "KIBIC_PORT": "8000", "KIBIC_WORKERS": "2", "KIBIC_PUBLIC_URL": "",
            "KIBIC_CREATION_LIMIT": "20 per minute; 200 per day", "KIBIC_TRUSTED_PROXIES": "",
            "KIBIC_MAX_CONNECTIONS_PER_CLIENT": "100",
            "KIBIC_TRUSTED_HOSTS": "", "KIBIC_LOG_FORMAT": "text", "KIBIC_LOG_LEVEL": "INFO"}


@dataclass(frozen=True)
class Settings:
    data: Path
    database: str
    host: str
    port: int
    workers: int
    public_url: str | None
    trusted_hosts: list[str] | None
    creation_limit: str | None
    trusted_proxies: list[str]
    https_port: int | None
    http_port: int | None
    tls_dir: Path | None
    max_connections_per_client: int
    log_format: str
    log_level: str


def raw(environ: Mapping[str, str], setting: Setting) -> str | None:
    for name in (setting.name, *setting.aliases):
        if environ.get(name):
            return environ[name]
    return None


def load(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings from `environ` (the process's environment by default), checked; raises `BadSetting`."""
    environ = os.environ if environ is None else environ
    values: dict[str, object] = {}
    for setting in SETTINGS:
        value = raw(environ, setting)
        if value is None:
            value = DEFAULTS.get(setting.name)
        if value is None:
            values[setting.name] = None
            continue
        try:
            values[setting.name] = setting.parse(value)
        except ValueError as exc:
            raise BadSetting(setting.name, str(exc)) from None
    data = values["KIBIC_DATA"] or default_data_folder()
    database = values["KIBIC_DB"] or str(data / DATABASE_FILE)
    return Settings(data=data, database=database, host=values["KIBIC_HOST"], port=values["KIBIC_PORT"],
                    workers=values["KIBIC_WORKERS"], public_url=values["KIBIC_PUBLIC_URL"],
                    trusted_hosts=values["KIBIC_TRUSTED_HOSTS"], creation_limit=values["KIBIC_CREATION_LIMIT"],
                    trusted_proxies=values["KIBIC_TRUSTED_PROXIES"], https_port=values["KIBIC_HTTPS_PORT"],
                    http_port=values["KIBIC_HTTP_PORT"], tls_dir=values["KIBIC_TLS_DIR"],
                    max_connections_per_client=values["KIBIC_MAX_CONNECTIONS_PER_CLIENT"],
                    log_format=values["KIBIC_LOG_FORMAT"],
                    log_level=values["KIBIC_LOG_LEVEL"])


def table() -> str:
    """The table of settings in docs/operating.md."""
    lines = ["| setting | default | what it is |", "| --- | --- | --- |"]
    for setting in SETTINGS:
        names = " (or ".join(f"`{name}`" for name in (setting.name, *setting.aliases)) + ")" * len(setting.aliases)
        lines.append(f"| {names} | {setting.default} | {setting.meaning} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(table(), end="")
