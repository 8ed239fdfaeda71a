"""The browser tests never pass silently by skipping in CI: a missing Chromium skips locally, fails with CI set."""

from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped
from conftest_browser import missing


def test_a_missing_browser_skips_the_browser_tests_on_a_developers_machine(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(Skipped):
        missing("no Chromium at /usr/bin/chromium")


def test_a_missing_browser_fails_the_browser_tests_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed, match="CI must run the browser tests"):
        missing("no Chromium at /usr/bin/chromium")
