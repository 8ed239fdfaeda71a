"""Player names: control characters are refused; any other Unicode, and HTML, is kept exactly as given."""

from __future__ import annotations

import pytest

from referee import InvalidInput, Match


@pytest.mark.parametrize("name", ["Ala\nOla", "Ala\tOla", "Ala\rOla", "A\x00", "A\x07la", "Ala\x7f", "Ala\x85Ola",
                                  "\x1b[31mAla"])
def test_a_name_with_a_control_character_is_refused(name):
    with pytest.raises(InvalidInput) as caught:
        Match.create("ogorek", [name, "Ela"])
    assert caught.value.code == "bad_players"
    assert "control characters" in caught.value.message
    assert caught.value.details == {"name": name, "case": "control"}


@pytest.mark.parametrize("name", ["Żaneta", "Алёша", "Ο Γιώργος", "אבי", "李雷", "Zoë 🂡", "<b>Ala</b>",
                                  "O'Brien & \"Co\"", "<script>alert(1)</script>", "Ala\u200dOla", "Ala\u00a0Ola"])
def test_any_other_name_is_kept_as_given(name):
    assert Match.create("ogurets", [name, "Ela"]).players == [name, "Ela"]


def test_whitespace_around_a_name_is_trimmed_line_breaks_included():
    assert Match.create("ogorek", [" Ala\n", "\tEla "]).players == ["Ala", "Ela"]


def test_over_the_api_a_name_with_a_line_break_is_422_and_html_comes_back_as_given(table):
    refused = table.new_match(players=["Ala\nOla", "Ela"], expect=422)
    assert refused["error"]["code"] == "bad_players"
    assert refused["error"]["details"] == {"name": "Ala\nOla", "case": "control"}

    match = table.new_match(players=["<i>Ala</i>", "Ela & Ola"])
    assert [player["name"] for player in table.state(match)["players"]] == ["<i>Ala</i>", "Ela & Ola"]
