"""Recording an event applies that event alone: only an undo folds the log again, and a replay folds it once.

The cost of a play must not grow with the match, so these tests count the events the game applies.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ogorek_table import Table

from referee import Match


def played_log(seed: int, players: int = 4) -> tuple[dict, list[dict]]:
    """The header and log of a random legal Ogórek match (penalties included)."""
    match = Table(random.Random(seed), players, {"limit": 30}, "1", known=False).play_match()
    return match.header(), match.log


def as_command(event: dict) -> dict:
    return {key: value for key, value in event.items() if key != "seq"}


def without_seqs(view: object) -> object:
    """A view with every event number left out: the same plays logged later carry other numbers."""
    if isinstance(view, dict):
        return {key: without_seqs(value) for key, value in view.items() if key != "seq"}
    if isinstance(view, list):
        return [without_seqs(item) for item in view]
    return view


@pytest.fixture
def evolved(monkeypatch):
    """Counts the events the games apply to their state (`evolve`), for every game."""
    from referee.games import GAMES

    applied: list[dict] = []
    for game in GAMES.values():
        original = game.evolve

        def counting(state, event, original=original):
            applied.append(event)
            return original(state, event)

        monkeypatch.setattr(game, "evolve", counting)
    return applied


def test_a_play_late_in_a_long_match_applies_one_event(evolved):
    header, log = played_log(seed=7)
    match = Match.replay(header, log[:-1])
    evolved.clear()

    match.record(as_command(log[-1]))

    assert evolved == [log[-1]]


def test_a_replay_applies_each_live_event_once(evolved):
    header, log = played_log(seed=11)
    match = Match.replay(header, log[:5])
    match.play({"type": "undo"})
    match.play({"type": "undo"})
    evolved.clear()

    again = Match.replay(header, match.log)

    assert evolved == log[:3]
    assert again.view() == match.view()


def test_undo_folds_the_live_events_again(evolved):
    header, log = played_log(seed=3)
    match = Match.replay(header, log[:10])
    evolved.clear()

    match.play({"type": "undo"})

    assert evolved == log[:9]


def test_a_log_whose_undo_retracts_an_earlier_event_is_refused():
    header, log = played_log(seed=5)
    bad = log[:3] + [{"type": "undo", "undoes": 2, "seq": 4}]
    with pytest.raises(ValueError, match="not the latest live event"):
        Match.replay(header, bad)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6), st.floats(0, 0.3))
def test_undo_and_redo_anywhere_comes_to_the_same_match(seed, players, rate):
    header, log = played_log(seed, players)
    rng = random.Random(seed)
    match = Match.from_header(header)
    for event in log:
        match.record(as_command(event))
        if rng.random() < rate:
            back = rng.randint(1, min(3, len(match.live)))
            retracted = [match.log[seq - 1] for seq in match.live[-back:]]
            for _ in range(back):
                match.play({"type": "undo"})
            for again in retracted:
                match.record(as_command(again))

    plain = Match.replay(header, log).view()
    assert without_seqs(match.view()) == without_seqs(plain)
    assert Match.replay(match.header(), match.log).view() == match.view()
