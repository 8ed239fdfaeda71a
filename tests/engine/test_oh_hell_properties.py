"""Random Oh Hell matches: legal play is never rejected nor found; every injected revoke is found in its hand.

Matches are kept short (one to three hands of any legal size) so the file runs in seconds.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oh_hell_table import SimTable

from referee import Match, Rejected, parse_card
from referee.cards import card_order

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOOLEAN_OPTIONS = ("no_trump_last_hand", "hook", "simultaneous_bids", "must_trump", "miss_scores_tricks",
                   "zero_bid_bonus")


@st.composite
def matches(draw) -> tuple[Match, SimTable]:
    players = draw(st.integers(3, 7))
    sequence = draw(st.lists(st.integers(1, 52 // players), min_size=1, max_size=3))
    options = {"sequence": sequence, **{name: draw(st.booleans()) for name in BOOLEAN_OPTIONS}}
    match = Match.create("oh_hell", NAMES[:players], options)
    known = draw(st.sampled_from([0.0, 0.5, 1.0]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return match, SimTable(match, rng, known=known, first_dealer=draw(st.integers(0, players - 1)))


def sorted_cards(cards) -> list[str]:
    return [str(card) for card in sorted((parse_card(card, suited=True) for card in cards), key=card_order)]


@SETTINGS
@given(matches())
def test_legal_matches_are_never_rejected_nor_found(game):
    match, table = game
    while (expected := match.expected()) is not None:
        if expected["type"] == "play" and expected["seat"] in table.told:
            seat, cards = table.choices()
            assert expected["legal"] == sorted_cards(cards)
        before = len(match.view()["history"])
        table.step()
        history = match.view()["history"]
        if len(history) > before:
            assert history[-1]["scores"] == table.totals
            deal = match.view()["deal"]
            assert sum(deal["taken"]) == deal["cards"]
            if match.options["hook"] and not match.options["simultaneous_bids"]:
                assert sum(deal["bids"]) != deal["cards"], "the hook keeps the bids off the hand size"
        assert match.view()["findings"] == []
    view = match.view()
    assert view["status"] == "finished"
    best = max(table.totals)
    assert {p["seat"] for p in view["players"] if p["place"] == 1} == {
        seat for seat, total in enumerate(table.totals) if total == best}
    replayed = Match.replay(match.header(), match.log)
    assert replayed.view() == view


@SETTINGS
@given(matches(), st.floats(0.1, 0.6))
def test_every_injected_revoke_is_found_by_the_end_of_its_hand(game, rate):
    match, table = game
    rng = table.rng
    injected: list[int] = []  # the illegal blind plays (seqs) of the hand being played
    every_injected: set[int] = set()
    forced_seqs: set[int] = set()
    while (expected := match.expected()) is not None:
        if expected["type"] == "deal":
            injected = []
        if expected["type"] != "play":
            table.step()
            continue
        seat, wrong = table.illegal_choices()
        if not wrong or rng.random() > rate:
            table.play()
        elif seat in table.told:
            card = rng.choice(wrong)
            try:
                match.play({"type": "play", "seat": seat, "card": card})
            except Rejected as error:
                assert error.forceable and error.code in ("must_follow_suit", "must_trump")
            else:
                raise AssertionError(f"{card} from a known hand was accepted")
            table.play()
        else:
            card = rng.choice(wrong)
            try:  # blind: refused only when what the table has seen already proves it
                match.decide({"type": "play", "seat": seat, "card": card})
                forced = False
            except Rejected as error:
                assert error.forceable and error.code in ("must_follow_suit", "must_trump")
                forced = True
            event = table.play(card, force=forced)
            injected.append(event["seq"])
            every_injected.add(event["seq"])
            if forced:
                forced_seqs.add(event["seq"])
        findings = match.view()["findings"]
        for finding in findings:
            assert finding["seq"] in every_injected
            assert finding["code"] in ("must_follow_suit", "must_trump")
            if finding["seq"] in forced_seqs:
                assert finding["proof_seq"] == finding["seq"]
            else:
                assert finding["proof_seq"] > finding["seq"]
        if match.expected() is None or match.expected()["type"] == "deal":
            assert set(injected) <= {finding["seq"] for finding in findings}, "found by the end of its hand"
    assert {finding["seq"] for finding in match.view()["findings"]} == every_injected
