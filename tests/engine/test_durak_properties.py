"""Durak, random series of 2 to 6 players with random options: real shuffled deals played by the table simulator
(tests/support/durak_table.py, its own reading of the rules) through the public interface.

The referee sees only the public events (and the hands, when entered). It must refuse none of them, and after every
event its hand sizes, talon, discards, players out, attacker and durak must match the table's, and every card it
places in a hand must be there. A card it knows cannot be laid (discarded, on the table, under the talon, in another
hand) is refused even forced. The scores are the times each was the durak, the money sums to zero, and the log
replays to the same state.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from durak_table import Table
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import Match, Rejected

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


@st.composite
def tables(draw):
    players = draw(st.integers(2, 6))
    decks = [36, 52] if players > 4 else [24, 36, 52]
    options = {"deck": draw(st.sampled_from(decks)), "transfer": draw(st.booleans()),
               "throw_in": draw(st.sampled_from(["all", "neighbours"])), "lead_same_rank": draw(st.booleans()),
               "first_bout_five": draw(st.booleans()),
               "first_attack": draw(st.sampled_from(["left_of_durak", "durak"]))}
    return players, options, draw(st.sampled_from([0.0, 0.5, 1.0])), draw(st.integers(1, 3))


def impossible_card(view: dict, seat: int, rng: random.Random) -> str | None:
    """A card the referee knows `seat` cannot hold: discarded, on the table, under the talon or in another hand."""
    deal = view["deal"]
    gone = list(deal["discarded"])
    if deal["bout"]:
        gone += [a["card"] for a in deal["bout"]["attacks"]]
        gone += [a["beaten_by"] for a in deal["bout"]["attacks"] if a["beaten_by"]]
    if deal["trump_holder"] is None:
        gone.append(deal["trump"])
    gone += [card for other, cards in deal["known"].items() if int(other) != seat for card in cards]
    return rng.choice(gone) if gone else None


def try_impossible(match: Match, rng: random.Random) -> None:
    expected = match.expected()
    if expected["type"] == "attack":
        seat = expected["seat"]
    elif expected["throw_in"]:
        seat = rng.choice(expected["throw_in"])
    else:
        return
    card = impossible_card(match.view(), seat, rng)
    if card is None:
        return
    seq = match.seq
    with pytest.raises(Rejected) as caught:
        match.play({"type": "attack", "seat": seat, "cards": [card], "force": True})
    assert not caught.value.forceable and match.seq == seq, caught.value.code


@settings(max_examples=30, deadline=None)
@given(rng=st.randoms(use_true_random=False), setup=tables())
def test_random_series_are_refereed_without_a_false_refusal(rng, setup):
    players, options, known, deals = setup
    match = Match.create("durak", NAMES[:players], options, stake="2")
    table = Table(match, rng, known=known, deals=deals)
    duraks = [0] * players
    while True:
        if match.state.deal is not None and not match.state.deal.over and rng.random() < 0.2:
            try_impossible(match, rng)
        command = table.step()
        if command is None:
            break
        view = match.view()
        if view["deal"] is not None:
            table.check(view)
        if command["type"] == "done" and table.over and table.durak is not None:
            duraks[table.durak] += 1
        assert [player["score"] for player in view["players"]] == duraks
    view = match.view()
    assert view["status"] == "finished" and not view["findings"]
    money = match.settlement()
    assert sum(Decimal(p["net"]) for p in money["players"]) == 0
    assert [Decimal(p["paid"]) for p in money["players"]] == [Decimal(2 * d * (players - 1)) for d in duraks]
    assert Match.replay(match.header(), match.log).view() == view
