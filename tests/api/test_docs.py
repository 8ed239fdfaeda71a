"""The documents: a short README that says the two commands and the suite's time, and links between the documents
(README.md, docs/, SECURITY.md, CHANGELOG.md, bench/results.md) that lead to a file, and to a heading in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", ROOT / "SECURITY.md", ROOT / "CHANGELOG.md", ROOT / "bench" / "results.md",
             *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def prose(path: Path) -> str:
    """The document without its code: a link is only a link outside code blocks and `code`."""
    return CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file: lower case, spaces as hyphens, no punctuation."""
    headings = re.findall(r"^#+ (.+)$", FENCE.sub("", path.read_text(encoding="utf-8")), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_the_readme_is_short_and_says_the_two_commands_and_the_suites_time():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    assert "```sh\nmake serve\nmake test\n```" in readme
    assert re.search(r"`make test` takes about \d+ minutes on a 2-core machine", readme)
    [screenshot] = re.findall(r"!\[[^]]+\]\(([^)]+\.png)\)", readme)
    assert (ROOT / screenshot).is_file()


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_a_heading_in_it(document):
    broken = []
    for target in LINK.findall(prose(document)):
        if re.match(r"[a-z]+:", target):
            continue  # an address elsewhere
        name, _, anchor = target.partition("#")
        path = (document.parent / name).resolve() if name else document
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no such heading")
    assert not broken, broken


def test_a_run_of_the_benchmarks_keeps_the_history_written_under_the_results():
    from bench.report import HISTORY, written

    results = (ROOT / "bench" / "results.md").read_text(encoding="utf-8")
    assert results.count(HISTORY) == 1
    history = results[results.index(HISTORY):]
    new_run = "# Kibic's benchmarks\n\nthe new run's tables\n"
    assert written(new_run, results) == new_run + history
    assert written(new_run, "# Kibic's benchmarks\n\nan old run without a history\n") == new_run
