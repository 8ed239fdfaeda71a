"""The derivable parts of openapi.yaml are written from the engine, and a stale file is caught."""

from __future__ import annotations

import pytest

from api import contract


def test_the_committed_contract_is_what_the_engine_derives():
    contract.check()


def test_a_stale_catalogue_example_is_caught_with_the_difference(tmp_path):
    text = contract.SPEC.read_text(encoding="utf-8")
    stale = tmp_path / "openapi.yaml"
    stale.write_text(text.replace("max_players: 8", "max_players: 9", 1), encoding="utf-8")
    with pytest.raises(contract.StaleContract) as caught:
        contract.check(stale)
    assert "-                  max_players: 9" in str(caught.value)
    assert "+                  max_players: 8" in str(caught.value)


def test_write_then_check_leaves_nothing_to_write(tmp_path):
    text = contract.SPEC.read_text(encoding="utf-8")
    assert contract.derived(contract.derived(text)) == contract.derived(text)
