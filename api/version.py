"""Kibic's version: the installed package's (pyproject.toml's `version`), in `kibic --version`, `GET /api/version`
and the log line of each start. CHANGELOG.md says what each version changed."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def version() -> str:
    """pyproject.toml's version in a clone (an editable install's metadata keeps the version it was installed at),
    else the installed package's."""
    try:
        project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
        if project["name"] == "kibic":
            return project["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    return metadata.version("kibic")


VERSION = version()
