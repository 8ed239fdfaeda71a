"""Random Ogórek at a real table: shuffled decks, real hands, every play through `Match.play`.

The table (`ogorek_table.py`) keeps its own hands and its own reading of RULES.md §1 (legal cards, the last trick's
penalty), independent of the engine, and holds the engine's verdicts, scores and money against it.
"""

import random
from decimal import Decimal

from hypothesis import assume, given, settings
from hypothesis import event as count
from hypothesis import strategies as st
from ogorek_table import ORDER, Table, illegal, legal

from referee import Match, Rejected

options = st.fixed_dictionaries({
    "packets": st.sampled_from([2, 3]),
    "ace_penalty": st.sampled_from([21, 1]),
    "limit": st.integers(1, 40),
    "cut_penalty": st.integers(1, 30),
    "all_out": st.sampled_from(["share", "lowest_total"]),
})
stakes = st.decimals(min_value=0, max_value=100, places=2).map(str)
seeds = st.integers(0, 2**64)  # the table's shuffles and choices


def last_places_by_the_rules(match, scores):
    """The places of the players still in, or of those who went out last, from the minus points alone."""
    limit = match.options["limit"]
    in_play = [seat for seat, score in enumerate(scores) if score <= limit]
    if in_play:
        return dict.fromkeys(in_play, 1)
    gone_earlier = {seat for group in match.state.eliminated for seat in group}
    last = [seat for seat in match.state.seats if seat not in gone_earlier]
    if match.options["all_out"] == "share":
        return dict.fromkeys(last, 1)
    # lowest_total: by their totals, the lowest first, equal totals sharing their places
    return {seat: 1 + sum(scores[other] < scores[seat] for other in last) for seat in last}


@settings(max_examples=400, deadline=None)  # 800 whole matches; the suite's slowest test, within its 10 minutes
@given(st.integers(2, 8), options, stakes, seeds)
def test_random_legal_matches_blind_and_with_known_hands(players, chosen, stake, seed):
    results = []
    for known in (False, True):
        table = Table(random.Random(seed), players, chosen, stake, known)
        match = table.play_match()
        view = match.view()
        assert view["findings"] == []
        assert view["status"] == "finished" and view["expected"] is None
        assert match.state.scores == table.scores
        winners = [p["seat"] for p in view["players"] if p["place"] == 1]
        last = last_places_by_the_rules(match, table.scores)
        assert {p["seat"]: p["place"] for p in view["players"] if p["seat"] in last} == last
        assert match.game.ranking(match.state)[0] == winners
        money = view["settlement"]
        nets = [Decimal(p["net"]) for p in money["players"]]
        assert sum(nets) == 0
        assert sum(Decimal(p["paid"]) for p in money["players"]) == Decimal(money["pool"])
        assert Decimal(stake) == 0 or all(Decimal(p["paid"]) % Decimal(stake) == 0 for p in money["players"])
        assert Match.replay(match.header(), match.log).view() == view
        results.append((view["players"], view["history"], money))
    count(f"{len(winners)} winners")
    count("some out ex aequo" if any(len(group) > 1 for group in match.state.eliminated) else "out one by one")
    assert results[0] == results[1], "blind and known hands must come to the same result"


@settings(max_examples=1000, deadline=None)
@given(st.integers(2, 8), seeds, st.integers(0, 2), st.floats(0, 0.95), st.floats(0, 0.5))
def test_an_illegal_blind_play_is_found_by_the_end_of_the_deal(players, seed, deals_before, start, more):
    rng = random.Random(seed)
    table = Table(rng, players, {}, "1", known=False)
    for _ in range(deals_before):
        if not table.match.state.finished:
            table.play_deal()
    assume(not table.match.state.finished)
    table.deal()
    number = table.deals
    start = int(start * 6 * len(table.seats))
    injected = {}
    plays = 0
    while not table.over:
        seat = table.turn()
        wrong = illegal(table.hands[seat], table.on_table)
        if wrong and plays >= start and (not injected or rng.random() < more):
            trick = 7 - table.tricks_left
            card = rng.choice(wrong)
            try:
                table.match.decide({"type": "play", "seat": seat, "card": card})
                forced = {}  # what the table has seen does not prove it yet
            except Rejected as refused:  # already proven by what the table has seen: refused, let stand here
                assert refused.forceable and refused.code in ("must_play_higher", "must_play_lowest")
                forced = {"force": True}
            event, warnings, findings = table.play(card, seat, **forced)
            assert bool(warnings) == bool(forced)
            assert all(f.seq in injected and f.proof_seq == event["seq"] or f.seq == f.proof_seq == event["seq"]
                       for f in findings)
            injected[event["seq"]] = (seat, trick, bool(forced))
        else:
            event, warnings, findings = table.play(rng.choice(legal(table.hands[seat], table.on_table)), seat)
            assert warnings == []
            assert all(f.seq in injected and f.proof_seq == event["seq"] for f in findings)
        plays += 1
    assume(injected)
    count(f"{len(injected)} illegal plays")
    found = table.match.view()["findings"]
    assert sorted(f["seq"] for f in found) == sorted(injected)
    for finding in found:
        seat, trick, forced = injected[finding["seq"]]
        assert (finding["seat"], finding["trick"]) == (seat, trick)
        assert finding["deal"] == number
        assert finding["proof_seq"] == finding["seq"] if forced else finding["proof_seq"] > finding["seq"]
        assert finding["code"] in ("must_play_higher", "must_play_lowest")


@settings(max_examples=500, deadline=None)
@given(st.integers(2, 8), seeds, st.floats(0, 0.95))
def test_an_illegal_play_with_known_hands_is_rejected_at_once(players, seed, start):
    rng = random.Random(seed)
    table = Table(rng, players, {}, "1", known=True)
    table.deal()
    start = int(start * 6 * len(table.seats))
    plays = forced = 0
    while not table.over:
        seat = table.turn()
        wrong = illegal(table.hands[seat], table.on_table)
        if wrong and plays >= start:
            card = rng.choice(wrong)
            before = table.match.seq
            try:
                table.match.play({"type": "play", "seat": seat, "card": card})
            except Rejected as rejected:
                top = max(map(ORDER.get, table.on_table))
                can_reach = any(ORDER[held] >= top for held in table.hands[seat])
                code = "must_play_higher" if can_reach else "must_play_lowest"
                assert (rejected.code, rejected.forceable, rejected.seat) == (code, True, seat)
            else:
                raise AssertionError(f"{card} on {table.on_table} from {table.hands[seat]} was accepted")
            assert table.match.seq == before
            if rng.random() < 0.3:
                event, warnings, findings = table.play(card, seat, force=True)
                assert [w["code"] for w in warnings] == [code]
                assert [(f.seq, f.proof_seq) for f in findings] == [(event["seq"], event["seq"])]
                forced += 1
                plays += 1
                continue
        table.play_legal()
        plays += 1
    assert len(table.match.view()["findings"]) == forced
