"""Dureń, random series: real shuffled deals played with random legal attacks and defences from the real hands.

The referee sees only the public events. It must reject none of them, and at every step its hand sizes,
stock, discards and turn must match the simulated table, and every card it places in a hand must be there.
Cards it knows cannot be played (discarded, in the other hand, under the stock) must be refused.
"""

from __future__ import annotations

from duren_table import Table, play_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import Match


@settings(max_examples=150, deadline=None)
@given(rng=st.randoms(use_true_random=False), size=st.sampled_from([24, 36]), deals=st.integers(1, 4),
       first=st.integers(0, 1))
def test_random_series_are_refereed_without_a_false_rejection(rng, size, deals, first):
    match = Match.create("duren", ["Ala", "Bartek"], {"deck": size})
    dealer = first
    points = [0, 0]
    for _ in range(deals):
        table = Table(rng, size, dealer)
        play_deal(match, table)
        winner = table.winner()
        if winner is None:
            dealer = 1 - dealer
        else:
            points[winner] += 1
            dealer = 1 - winner
        assert match.expected()["dealer"] == dealer
        assert [player["points"] for player in match.view()["players"]] == points
    assert not match.view()["findings"]
    replayed = Match.replay(match.header(), match.log)
    assert replayed.view() == match.view()

