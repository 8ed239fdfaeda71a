"""Random Ogurets matches, dealt from a shuffled deck and played by the rules, against an oracle of our own.

No legal play is refused or found; an illegal play slipped into a blind deal is always found by its end.
"""

import random
from decimal import Decimal

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from referee import Match, Rejected
from referee.cards import deck

ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]
STRENGTH = {rank: i for i, rank in enumerate(ORDER)}
POINTS = {**{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14, "X": 15}
NAMES = ["S", "W", "N", "E", "P", "R", "T"]
MAX_DEALS = 25


def legal(hand: list[str], table: list[str], options: dict) -> list[str]:
    """The cards the rules allow from `hand` onto the cards of the trick so far, lowest first."""
    cards = sorted(set(hand), key=STRENGTH.get)
    if not table:
        return cards
    top = max(table, key=STRENGTH.get)
    locking = ("X" if options["jokers"] else "K") if options["top_card_rule"] else None
    if top == locking:
        return cards[:1]
    return [card for card in cards if STRENGTH[card] >= STRENGTH[top]] or cards[:1]


def taker(plays: list[tuple[int, str]]) -> int:
    """The seat of the highest card; among equal ones, the latest."""
    best = plays[0]
    for play in plays[1:]:
        if STRENGTH[play[1]] >= STRENGTH[best[1]]:
            best = play
    return best[0]


class Deal:
    """One deal as the players see it: the hands, whose turn it is, the tricks taken."""

    def __init__(self, match: Match, rng: random.Random, known: set[int]):
        view = match.view()
        out = [p["out"] for p in view["players"]]
        self.seats = [p["seat"] for p in view["players"] if not p["out"]]
        cards = [str(card) for card in deck(55 if match.options["jokers"] else 52, suited=False)]
        rng.shuffle(cards)
        self.hands = {seat: cards[7 * i:7 * i + 7] for i, seat in enumerate(self.seats)}
        command = {"type": "deal", "hands": {str(seat): list(self.hands[seat]) for seat in sorted(known)}}
        if view["dealer"] is None:
            command["dealer"] = rng.choice(self.seats)
        event, _, _ = match.play(command)
        dealer, n = event["dealer"], len(out)
        self.order = [seat for seat in ((dealer + step) % n for step in range(1, n + 1)) if not out[seat]]
        self.known = known
        self.lead = self.order[0]
        self.table: list[tuple[int, str]] = []
        self.points = dict.fromkeys(self.seats, 0)

    def turn(self) -> int:
        start = self.order.index(self.lead)
        return self.order[(start + len(self.table)) % len(self.order)]

    def legal(self, seat: int, options: dict) -> list[str]:
        return legal(self.hands[seat], [card for _, card in self.table], options)

    def played(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.table.append((seat, card))
        if len(self.table) == len(self.order):
            self.lead = taker(self.table)
            self.points[self.lead] += sum(POINTS[card] for _, card in self.table)
            self.table = []


def play_legally(match: Match, deal: Deal, rng: random.Random) -> list:
    """Play a card the rules allow, as the oracle sees it; returns the findings it raised."""
    seat = deal.turn()
    expected = match.expected()
    assert (expected["type"], expected["seat"]) == ("play", seat)
    allowed = deal.legal(seat, match.options)
    if seat in deal.known:
        assert expected["legal"] == allowed
    card = rng.choice(allowed)
    _, warnings, findings = match.play({"type": "play", "seat": seat, "card": card})
    assert warnings == []
    deal.played(seat, card)
    return findings


@st.composite
def matches(draw):
    players = draw(st.integers(2, 7))
    options = {
        "jokers": draw(st.sampled_from([0, 3])),
        "top_card_rule": draw(st.booleans()),
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
        if all(lives[seat] <= 0 for seat in in_before):  # everyone still in went out at once
            fewest = min(deal.points[seat] for seat in in_before)
            winners = {seat for seat in in_before if deal.points[seat] == fewest}
            assert {p["seat"]: p["place"] for p in view["players"] if p["seat"] in in_before} == {
                seat: 1 if seat in winners else 1 + len(winners) for seat in in_before}
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
        if seat in known:
            with pytest.raises(Rejected) as caught:
                match.decide(command)
            assert caught.value.forceable and caught.value.code in ("must_play_higher", "must_play_lowest")
            command["force"] = True
        played, _, findings = match.play(command)
        bad, blind = played["seq"], seat not in known
        assert [(f.seq, f.proof_seq) for f in findings] == ([] if blind else [(bad, bad)])
        deal.played(seat, card)
    findings = match.view()["findings"]
    event("illegal play", "none" if bad is None else "blind" if blind else "known hand, forced")
    if bad is None:
        assert findings == []
        return
    assert [(f["seq"], f["seat"]) for f in findings] == [(bad, match.log[bad - 1]["seat"])]
    proof = match.log[findings[0]["proof_seq"] - 1]
    assert proof["seat"] == findings[0]["seat"]
    assert proof["seq"] > bad if blind else proof["seq"] == bad


def test_the_oracle_agrees_with_the_rule_book_on_a_few_tables():
    on = {"jokers": 0, "top_card_rule": True}
    assert legal(["A", "2", "K"], ["3"], on) == ["K"]
    assert legal(["A", "2"], ["3"], on) == ["A"]
    assert legal(["A", "2", "K"], ["5", "K"], on) == ["A"]
    assert legal(["2", "K", "X"], ["K"], {"jokers": 3, "top_card_rule": True}) == ["K", "X"]
    assert legal(["2", "K"], ["K"], {"jokers": 0, "top_card_rule": False}) == ["K"]
    assert taker([(1, "9"), (2, "9"), (0, "3")]) == 2
