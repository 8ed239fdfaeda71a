"""Random Ogurets matches, dealt from a shuffled deck and played by the rules, against an oracle of our own.

No legal play is refused or found; an illegal play slipped into a blind deal is always found by its end.
"""

import random
from decimal import Decimal

from hypothesis import event, given, settings
from hypothesis import strategies as st
from ogurets_table import STRENGTH, Deal, legal, play_legally, taker

from referee import Match, Rejected

NAMES = ["S", "W", "N", "E", "P", "R", "T"]
MAX_DEALS = 25


@st.composite
def matches(draw):
    players = draw(st.integers(2, 7))
    options = {
        "jokers": draw(st.sampled_from([0, 3])),
        "top_card_rule": draw(st.booleans()),
        "joker_overtakes_king": draw(st.booleans()),
        "threshold": draw(st.sampled_from([21, 21, 10, 40, 80, 120])),
        "lives": draw(st.integers(1, 3)),
    }
    stake = draw(st.sampled_from(["0", "1", "0.50", "0.07"]))
    return Match.create("ogurets", NAMES[:players], options, stake), random.Random(draw(st.integers(0, 2**32)))


@settings(max_examples=150, deadline=None)
@given(matches())
def test_random_legal_matches_raise_no_rejection_and_no_finding(setup):
    match, rng = setup
    options = match.options
    lives = {seat: options["lives"] for seat in range(len(match.players))}
    while match.view()["status"] == "playing" and match.state.deals_played < MAX_DEALS:
        in_before = [seat for seat in lives if lives[seat] > 0]
        known = {seat for seat in in_before if rng.random() < 0.4}
        deal = Deal(match, rng, known)
        for _ in range(7 * len(deal.order)):
            assert play_legally(match, deal, rng) == []
        losing = [seat for seat in in_before if deal.points[seat] >= options["threshold"]]
        for seat in losing:
            lives[seat] -= 1
        view = match.view()
        assert view["deal"]["result"]["points"] == {str(seat): deal.points[seat] for seat in deal.order}
        assert view["deal"]["result"]["lost_life"] == sorted(losing)
        assert [p["lives"] for p in view["players"]] == [lives[seat] for seat in sorted(lives)]
        assert [p["score"] for p in view["players"]] == [deal.points.get(seat, 0) for seat in sorted(lives)]
        assert all(p["out"] == (lives[p["seat"]] <= 0) for p in view["players"])
        if all(lives[seat] <= 0 for seat in in_before):  # everyone still in went out at once: placed by points
            fewer = {seat: sum(deal.points[other] < deal.points[seat] for other in in_before) for seat in in_before}
            assert {p["seat"]: p["place"] for p in view["players"] if p["seat"] in in_before} == {
                seat: 1 + fewer[seat] for seat in in_before}
    if match.view()["status"] == "playing":
        match.play({"type": "end"})
    event("deals played", match.state.deals_played)
    view = match.view()
    assert view["status"] == "finished" and view["findings"] == []
    if sum(lives[seat] > 0 for seat in lives) == 1:
        winner = next(seat for seat in lives if lives[seat] > 0)
        assert view["players"][winner]["place"] == 1
    money = view["settlement"]
    assert sum(Decimal(p["net"]) for p in money["players"]) == 0
    assert sum(Decimal(t["amount"]) for t in money["transfers"]) == sum(
        Decimal(p["net"]) for p in money["players"] if Decimal(p["net"]) > 0)
    assert Match.replay(match.header(), match.log).view() == view


@settings(max_examples=300, deadline=None)
@given(matches(), st.integers(0, 10**6))
def test_an_illegal_play_is_found_by_the_end_of_its_deal(setup, where):
    match, rng = setup
    known = {seat for seat in range(len(match.players)) if rng.random() < 0.3}
    deal = Deal(match, rng, known)
    inject_from = where % (6 * len(deal.order))  # somewhere in the first six tricks, where a choice is left
    bad = blind = None
    for step in range(7 * len(deal.order)):
        seat = deal.turn()
        illegal = sorted(set(deal.hands[seat]) - set(deal.legal(seat, match.options)), key=STRENGTH.get)
        if bad is not None or step < inject_from or not deal.table or not illegal:
            play_legally(match, deal, rng)
            continue
        card = rng.choice(illegal)
        command = {"type": "play", "seat": seat, "card": card}
        try:
            match.decide(command)
            refused = False  # blind, and what the table has seen does not prove it yet
        except Rejected as caught:
            assert caught.forceable and caught.code in ("must_play_higher", "must_play_lowest")
            command["force"] = refused = True
        assert refused or seat not in known
        played, _, findings = match.play(command)
        bad, blind = played["seq"], not refused
        assert [(f.seq, f.proof_seq) for f in findings] == ([] if blind else [(bad, bad)])
        deal.played(seat, card)
    findings = match.view()["findings"]
    event("illegal play", "none" if bad is None else "blind, found later" if blind else "refused, forced")
    if bad is None:
        assert findings == []
        return
    assert [(f["seq"], f["seat"]) for f in findings] == [(bad, match.log[bad - 1]["seat"])]
    proof = match.log[findings[0]["proof_seq"] - 1]
    assert proof["seq"] > bad if blind else proof["seq"] == bad


def test_the_oracle_agrees_with_the_rule_book_on_a_few_tables():
    on = {"jokers": 0, "top_card_rule": True}
    assert legal(["A", "2", "K"], ["3"], on) == ["K"]
    assert legal(["A", "2"], ["3"], on) == ["A"]
    assert legal(["A", "2", "K"], ["5", "K"], on) == ["A"]
    assert legal(["2", "K", "X"], ["K"], {"jokers": 3, "top_card_rule": True, "joker_overtakes_king": True}) == [
        "K", "X"]
    assert legal(["2", "K", "X"], ["K"], {"jokers": 3, "top_card_rule": True, "joker_overtakes_king": False}) == ["2"]
    assert legal(["2", "K", "X"], ["5", "X"], {"jokers": 3, "top_card_rule": True, "joker_overtakes_king": False}) == [
        "X"]
    assert legal(["2", "K"], ["K"], {"jokers": 0, "top_card_rule": False}) == ["K"]
    assert taker([(1, "9"), (2, "9"), (0, "3")]) == 2
