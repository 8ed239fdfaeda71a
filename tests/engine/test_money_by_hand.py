"""Settlements worked out by hand from RULES.md, for each game's money rule, through the engine and the API.

Each match is played twice: with `referee.Match`, and over HTTP (`GET /api/matches/{id}/settlement`).
The places, paid, received, net and transfers expected below are worked out in the comments from the rule
book alone: the elimination pool (§1: with N players and stake P, place p pays (p - 1)·2P, players sharing
places pay their average, the first place takes the pool and splits it, the odd cents to the earliest
seats), who goes out together and in what order (§1 `all_out: "lowest_total"`, §2), Oh Hell's places by
total (§4) and Dureń's stake per deal lost (§3). Transfers are the fewest that settle the nets; where
several lists are as short, the largest debtor pays the largest creditor, the lower seat first.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from api_match import ApiMatch
from test_duren import DEAL_DRAWN, DEAL_ONE

from referee import Match


@pytest.fixture(params=["engine", "api"])
def new_match(request):
    """Starts a match with `referee.Match`, or over the API (the state and settlement then come by HTTP)."""
    def new(game: str, players: list[str], options: dict, stake: str):
        if request.param == "engine":
            return Match.create(game, players, options, stake)
        return ApiMatch(request.getfixturevalue("table"), game, players, options=options, stake=stake)
    return new


def settled(match, pool: str, players: list[tuple], transfers: list[tuple]) -> None:
    """The final settlement is `pool`, `players` as (seat, place, paid, received, net) and `transfers` as
    (from, to, amount); the state shows the same places and the same settlement."""
    money = match.settlement()
    assert money["final"] is True
    assert money["pool"] == pool
    assert [(p["seat"], p["place"], p["paid"], p["received"], p["net"]) for p in money["players"]] == players
    assert [(t["from"], t["to"], t["amount"]) for t in money["transfers"]] == transfers
    assert sum(Decimal(p["net"]) for p in money["players"]) == 0
    state = match.view()
    assert state["status"] == "finished" and state["settlement"] == money
    assert [p["place"] for p in state["players"]] == [place for _, place, *_ in players]


def play_tricks(match, tricks: list[list[str]]) -> None:
    """Each trick's cards, in the order they are played, each by whoever's turn it is."""
    for trick in tricks:
        for card in trick:
            match.play({"type": "play", "seat": match.expected()["seat"], "card": card})


# --- Ogórek, all_out: "lowest_total": the others follow the winner by their totals (RULES.md §1) ----------

def ogorek_deal(match, penalties: dict[int, int], tricks: list[list[str]], last: dict[int, str]) -> None:
    """A deal (seat 0 deals) with penalties given during it, five tricks and each seat's last card; the
    penalties count when the deal is over, together with the last card's."""
    match.play({"type": "deal", "dealer": 0})
    for seat, points in penalties.items():
        match.play({"type": "penalty", "seat": seat, "points": points})
    play_tricks(match, tricks)
    for _ in last:
        seat = match.expected()["seat"]
        match.play({"type": "play", "seat": seat, "card": last[seat]})


def same_rank_tricks(players: int, ranks: str) -> list[list[str]]:
    """Tricks where everybody plays the same rank: every play is legal."""
    return [[rank] * players for rank in ranks.split()]


def test_ogorek_three_out_together_are_second_and_third_by_their_totals(new_match):
    match = new_match("ogorek", ["A", "B", "C"], {"all_out": "lowest_total"}, "0.50")
    # C's 4 is the highest last card: totals A 509, B 503, C 500 + 4 = 504, all over the limit of 21
    ogorek_deal(match, {0: 509, 1: 503, 2: 500}, same_rank_tricks(3, "5 6 7 8 9"), {0: "2", 1: "3", 2: "4"})
    assert [p["score"] for p in match.view()["players"]] == [509, 503, 504]
    # B 503 first, C 504 second, A 509 third; P = 0.50, N = 3:
    # place 1 pays 0, place 2 pays 1·2P = 1.00, place 3 pays 2·2P = 2.00; pool 3.00, all to B
    settled(match, "3.00",
            [(0, 3, "2.00", "0.00", "-2.00"), (1, 1, "0.00", "3.00", "3.00"), (2, 2, "1.00", "0.00", "-1.00")],
            [(0, 1, "2.00"), (2, 1, "1.00")])


def test_ogorek_four_out_together_with_equal_totals_behind_the_winner(new_match):
    match = new_match("ogorek", ["A", "B", "C", "D"], {"all_out": "lowest_total"}, "0.50")
    # D's 4 is the highest last card: totals A 25, B 22, C 25, D 26 + 4 = 30
    ogorek_deal(match, {0: 25, 1: 22, 2: 25, 3: 26}, same_rank_tricks(4, "5 6 7 8 9"),
                {0: "2", 1: "3", 2: "2", 3: "4"})
    assert [p["score"] for p in match.view()["players"]] == [25, 22, 25, 30]
    # B 22 first; A and C (25) share places 2 and 3; D 30 fourth. P = 0.50, N = 4:
    # A, C each pay the average of 1·2P and 2·2P = 3P = 1.50; D pays 3·2P = 3.00; pool 6.00, all to B
    settled(match, "6.00",
            [(0, 2, "1.50", "0.00", "-1.50"), (1, 1, "0.00", "6.00", "6.00"),
             (2, 2, "1.50", "0.00", "-1.50"), (3, 4, "3.00", "0.00", "-3.00")],
            [(0, 1, "1.50"), (2, 1, "1.50"), (3, 1, "3.00")])


def test_ogorek_four_out_together_after_one_out_before_them(new_match):
    match = new_match("ogorek", ["A", "B", "C", "D", "E"], {"all_out": "lowest_total"}, "1")
    match.play({"type": "penalty", "seat": 4, "points": 22})  # before any deal: E is out at once, fifth
    # D's 4 is the highest last card: totals A 22, B 25, C 25, D 19 + 4 = 23
    ogorek_deal(match, {0: 22, 1: 25, 2: 25, 3: 19}, same_rank_tricks(4, "5 6 7 8 9"),
                {0: "2", 1: "3", 2: "2", 3: "4"})
    # A 22 first, D 23 second, B and C (25) share places 3 and 4, E fifth. P = 1, N = 5:
    # D pays 1·2P = 2.00; B, C each the average of 2·2P and 3·2P = 5.00; E 4·2P = 8.00; pool 20.00, to A
    settled(match, "20.00",
            [(0, 1, "0.00", "20.00", "20.00"), (1, 3, "5.00", "0.00", "-5.00"), (2, 3, "5.00", "0.00", "-5.00"),
             (3, 2, "2.00", "0.00", "-2.00"), (4, 5, "8.00", "0.00", "-8.00")],
            [(1, 0, "5.00"), (2, 0, "5.00"), (3, 0, "2.00"), (4, 0, "8.00")])


def test_ogorek_five_out_together_three_share_the_win_and_a_pool_that_leaves_an_odd_cent(new_match):
    match = new_match("ogorek", ["A", "B", "C", "D", "E"], {"all_out": "lowest_total"}, "0.50")
    # five tricks climbing to their last card (each play legal), then E's 4 is the highest last card:
    # totals A 22, B 22, C 22, D 30, E 27 + 4 = 31
    tricks = [["5", "5", "5", "5", "6"], ["6", "6", "6", "7", "7"], ["7", "7", "8", "8", "8"],
              ["8", "9", "9", "9", "9"], ["10", "10", "10", "10", "J"]]
    ogorek_deal(match, {0: 22, 1: 22, 2: 22, 3: 30, 4: 27}, tricks, {0: "2", 1: "2", 2: "3", 3: "3", 4: "4"})
    assert [p["score"] for p in match.view()["players"]] == [22, 22, 22, 30, 31]
    # A, B, C share places 1 to 3; D 30 fourth; E 31 fifth. P = 0.50, N = 5:
    # A, B, C each pay the average of 0, 2P and 4P = 1.00; D 3·2P = 3.00; E 4·2P = 4.00; pool 10.00
    # 10.00 / 3 = 3.33 and one cent over: to the earliest seat, A 3.34, B 3.33, C 3.33
    # nets A +2.34, B +2.33, C +2.33, D -3.00, E -4.00; no part of them sums to zero: 4 transfers
    # E (4.00) pays A (2.34); D (3.00) pays B 2.33; E pays the rest, 1.66, to C; D the rest, 0.67, to C
    settled(match, "10.00",
            [(0, 1, "1.00", "3.34", "2.34"), (1, 1, "1.00", "3.33", "2.33"), (2, 1, "1.00", "3.33", "2.33"),
             (3, 4, "3.00", "0.00", "-3.00"), (4, 5, "4.00", "0.00", "-4.00")],
            [(3, 1, "2.33"), (3, 2, "0.67"), (4, 0, "2.34"), (4, 2, "1.66")])


# --- Ogurets: everyone still in loses their last life in one deal: by that deal's points (RULES.md §2) ----
# In each trick every play is equal to or higher than the highest card on the table (no king, no ace), so
# every play is legal and the trick's last player takes it and leads the next: with seat 0 dealing, the
# takers go 0, N-1, N-2, ... round the table.

def test_ogurets_three_out_together_follow_their_points_in_that_deal(new_match):
    match = new_match("ogurets", ["S", "W", "N"], {"lives": 1}, "1")
    match.play({"type": "deal", "dealer": 0})
    play_tricks(match, same_rank_tricks(3, "2 5 7 3 6 8 4"))
    # takers 0, 2, 1, 0, 2, 1, 0: S 3·(2+3+4) = 27, W 3·(7+8) = 45, N 3·(5+6) = 33, all 21 or more
    assert [p["points"] for p in match.view()["players"]] == [27, 45, 33]
    # S 27 first, N 33 second, W 45 third. P = 1, N = 3: N pays 2.00, W 4.00; pool 6.00 to S
    settled(match, "6.00",
            [(0, 1, "0.00", "6.00", "6.00"), (1, 3, "4.00", "0.00", "-4.00"), (2, 2, "2.00", "0.00", "-2.00")],
            [(1, 0, "4.00"), (2, 0, "2.00")])


def test_ogurets_four_out_together_with_equal_points_behind_the_winner(new_match):
    match = new_match("ogurets", ["S", "W", "N", "E"], {"lives": 1}, "0.25")
    match.play({"type": "deal", "dealer": 0})
    play_tricks(match, same_rank_tricks(4, "2 3 5 10 4 7 6"))
    # takers 0, 3, 2, 1, 0, 3, 2: S 4·(2+4) = 24, W 4·10 = 40, N 4·(5+6) = 44, E 4·(3+7) = 40
    assert [p["points"] for p in match.view()["players"]] == [24, 40, 44, 40]
    # S first; W and E (40) share places 2 and 3; N 44 fourth. P = 0.25, N = 4:
    # W, E each pay the average of 2P and 4P = 3P = 0.75; N pays 3·2P = 1.50; pool 3.00 to S
    settled(match, "3.00",
            [(0, 1, "0.00", "3.00", "3.00"), (1, 2, "0.75", "0.00", "-0.75"),
             (2, 4, "1.50", "0.00", "-1.50"), (3, 2, "0.75", "0.00", "-0.75")],
            [(1, 0, "0.75"), (2, 0, "1.50"), (3, 0, "0.75")])


def test_ogurets_five_out_together_three_share_the_win_and_a_pool_that_leaves_odd_cents(new_match):
    match = new_match("ogurets", ["S", "W", "N", "E", "P"], {"lives": 1}, "1")
    match.play({"type": "deal", "dealer": 0})
    play_tricks(match, [
        ["2", "2", "3", "4", "Q"],   # 23 to S
        ["2", "2", "3", "4", "J"],   # 22 to P
        ["3", "4", "5", "7", "J"],   # 30 to E
        ["5", "5", "6", "6", "8"],   # 30 to N
        ["4", "6", "6", "7", "7"],   # 30 to W
        ["8", "8", "9", "9", "10"],  # 44 to S
        ["9", "9", "10", "10", "Q"],  # 50 to P
    ])
    assert [p["points"] for p in match.view()["players"]] == [67, 30, 30, 30, 72]
    # W, N, E (30) share places 1 to 3; S 67 fourth; P 72 fifth. P = 1, N = 5:
    # W, N, E each pay the average of 0, 2P and 4P = 2.00; S 3·2P = 6.00; P 4·2P = 8.00; pool 20.00
    # 20.00 / 3 = 6.66 and two cents over: W 6.67, N 6.67, E 6.66
    # nets S -6.00, W +4.67, N +4.67, E +4.66, P -8.00; no part sums to zero: 4 transfers
    # P (8.00) pays W 4.67; S (6.00) pays N 4.67; P pays the rest, 3.33, to E; S the rest, 1.33, to E
    settled(match, "20.00",
            [(0, 4, "6.00", "0.00", "-6.00"), (1, 1, "2.00", "6.67", "4.67"), (2, 1, "2.00", "6.67", "4.67"),
             (3, 1, "2.00", "6.66", "4.66"), (4, 5, "8.00", "0.00", "-8.00")],
            [(0, 2, "4.67"), (0, 3, "1.33"), (4, 1, "4.67"), (4, 3, "3.33")])


# --- Oh Hell: the elimination pool over the places by total, highest first (RULES.md §4) -----------------

def test_oh_hell_equal_totals_share_places_at_the_top_and_the_bottom_and_the_odd_cents(new_match):
    match = new_match("oh_hell", ["Ann", "Bob", "Cid", "Dan", "Eve"], {"sequence": [1]}, "1")
    match.play({"type": "deal", "dealer": 0})  # one card each, the last hand: no trump
    for seat, tricks in [(1, 0), (2, 0), (3, 0), (4, 1), (0, 0)]:
        match.play({"type": "bid", "seat": seat, "bid": tricks})
    play_tricks(match, [["2S", "3S", "4S", "5S", "AS"]])  # Bob leads; Ann's ace takes the trick
    # Bob, Cid, Dan bid 0 and took none: 10 each; Ann bid 0 and took 1, Eve bid 1 and took 0: 0 each
    assert [p["score"] for p in match.view()["players"]] == [0, 10, 10, 10, 0]
    # Bob, Cid, Dan share places 1 to 3, Ann and Eve places 4 and 5. P = 1, N = 5:
    # Bob, Cid, Dan each pay the average of 0, 2P and 4P = 2.00; Ann, Eve the average of 6P and 8P = 7.00
    # pool 20.00; 20.00 / 3: Bob 6.67, Cid 6.67, Dan 6.66; nets Ann -7.00, Bob +4.67, Cid +4.67,
    # Dan +4.66, Eve -7.00. Ann (7.00, the lower seat of two) pays Bob 4.67; Eve pays Cid 4.67;
    # Ann pays her last 2.33 to Dan, and so does Eve
    settled(match, "20.00",
            [(0, 4, "7.00", "0.00", "-7.00"), (1, 1, "2.00", "6.67", "4.67"), (2, 1, "2.00", "6.67", "4.67"),
             (3, 1, "2.00", "6.66", "4.66"), (4, 4, "7.00", "0.00", "-7.00")],
            [(0, 1, "4.67"), (0, 3, "2.33"), (4, 2, "4.67"), (4, 3, "2.33")])


# --- Dureń: each deal lost pays the stake to its winner, a draw nothing (RULES.md §3) ---------------------

def test_duren_each_deal_lost_pays_the_stake_and_a_draw_pays_nothing(new_match):
    match = new_match("duren", ["Ala", "Bartek"], {}, "0.35")
    mirrored = [(1 - seat, cards, beaten) for seat, cards, beaten in DEAL_ONE]
    for dealer, trump, rounds in [
        (0, "10H", DEAL_ONE),     # Ala wins; the loser, Bartek, deals next
        (1, "9C", DEAL_DRAWN),    # a draw; Ala, who did not deal it, deals next
        (0, "10H", DEAL_ONE),     # Ala wins
        (1, "10H", mirrored),     # Bartek wins
    ]:
        match.play({"type": "deal", "dealer": dealer, "trump": trump})
        for seat, cards, beaten in rounds:
            match.play({"type": "attack", "seat": seat, "cards": cards.split()})
            match.play({"type": "defend", "seat": 1 - seat,
                        "beats": [{"card": card, "with": other} for card, other in beaten.items()]})
    match.play({"type": "end"})
    assert [p["points"] for p in match.view()["players"]] == [2, 1]
    # P = 0.35: Ala lost 1 deal and pays 0.35, won 2 and receives 0.70; Bartek pays 0.70, receives 0.35;
    # what changed hands is 1.05; net Ala +0.35, Bartek -0.35
    settled(match, "1.05",
            [(0, 1, "0.35", "0.70", "0.35"), (1, 2, "0.70", "0.35", "-0.35")],
            [(1, 0, "0.35")])
