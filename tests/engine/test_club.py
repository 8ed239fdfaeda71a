"""A club across evenings (`referee.club`), hand-worked: figures, head to head, the season's table, the ledger.

The club's four members play two evenings and start a third:

- evening e1 (2025-03-07), stake 1 in each match:
  m1 Ogórek, S W N E = ann bob cid dan: the seed's deal played blind, W (bob) playing 6 in trick 5 "as the lowest"
     and 4 in trick 6 (a finding); E (dan) shows the highest last card, 9. Then penalties: bob 22 (out, 4th),
     cid 30 (out, 3rd), dan 20 (29 in all: out, 2nd); ann wins. Pool: dan 2, cid 4, bob 6; ann +12.
  m2 Oh Hell, ann bob cid, hands of 3 and 2: hand 1 everyone bids 1, ann takes 0, bob 1, cid 2; hand 2 cid 1, ann
     0, bob 1, each taking their bid. Points ann 0+10, bob 11+11, cid 0+11: bob 1st, cid 2nd, ann 3rd: bob +6,
     cid -2, ann -4.
  The evening: ann +8, bob 0, cid -6, dan -2: cid pays ann 6, dan pays ann 2.
- dan pays ann 2 (2025-03-08).
- evening e2 (2025-03-14):
  m3 Dureń, ann bob: ann wins a deal, one is drawn, ann wins the third; ended: ann +2, bob -2 (3 deals, bob lost 2).
  m4 Ogórek, cid bob ann: ann out with a penalty of 22, then the match ended: cid and bob share 1st: +2 each, ann -4.
  The evening: ann -2, bob 0, cid +2: ann pays cid 2. Netted with what cid still owes ann: cid pays ann 4.
- evening e3 (2025-03-21), being played: m5 Ogórek, ann dan cid, cid out with 22: as if stopped, ann +2, dan +2.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from ogorek_helpers import SEED_PLAYERS, SEED_TRICKS, play
from oh_hell_table import first_hand, play_first_hand, play_second_hand
from test_duren import DEAL_DRAWN, DEAL_ONE, play_rounds

from referee import InvalidInput, Match, Rejected
from referee.club import (
    check_payment,
    check_range,
    check_rule,
    evening_summary,
    figures,
    head_to_head,
    ledger,
    season_table,
    summarize,
)
from referee.evening import evening

E1, E2, E3 = "2025-03-07", "2025-03-14", "2025-03-21"


def penalties(match: Match, points: dict[int, int]) -> Match:
    for seat, given in points.items():
        match.play({"type": "penalty", "seat": seat, "points": given})
    return match


SEATED = dict(zip(SEED_PLAYERS, ["Ann", "Bob", "Cid", "Dan"], strict=True))  # the seed's seats S W N E


def m1() -> Match:
    match = Match.create("ogorek", list(SEATED.values()), None, "1")
    match.play({"type": "deal", "dealer": 0})
    tricks = [list(trick) for trick in SEED_TRICKS]
    tricks[4][3], tricks[5][3] = ("W", "6"), ("W", "4")
    for trick in tricks:
        for who, card in trick:
            play(match, SEATED[who], card)
    return penalties(match, {1: 22, 2: 30, 3: 20})


def m2() -> Match:
    match = Match.create("oh_hell", ["Ann", "Bob", "Cid"], {"sequence": [3, 2]}, "1")
    first_hand(match)
    play_first_hand(match)
    play_second_hand(match)
    return match


def m3() -> Match:
    match = Match.create("duren", ["Ala", "Bartek"], {"deck": 24}, "1")
    for number, (trump, deal) in enumerate((("10H", DEAL_ONE), ("9C", DEAL_DRAWN), ("10H", DEAL_ONE))):
        match.play({"type": "deal", "trump": trump, **({"dealer": 0} if number == 0 else {})})  # then the rule's
        play_rounds(match, deal)
    match.play({"type": "end"})
    return match


def m4() -> Match:
    match = penalties(Match.create("ogorek", ["C", "B", "A"], None, "1"), {2: 22})
    match.play({"type": "end"})
    return match


def m5() -> Match:
    return penalties(Match.create("ogorek", ["A", "D", "C"], None, "1"), {2: 22})


TABLES = {"m1": (m1, ["ann", "bob", "cid", "dan"], "e1", E1), "m2": (m2, ["ann", "bob", "cid"], "e1", E1),
          "m3": (m3, ["ann", "bob"], "e2", E2), "m4": (m4, ["cid", "bob", "ann"], "e2", E2),
          "m5": (m5, ["ann", "dan", "cid"], "e3", E3)}


@pytest.fixture(scope="module")
def club() -> dict:
    matches = {match_id: make() for match_id, (make, _, _, _) in TABLES.items()}
    summaries = [summarize(matches[match_id], members, match_id=match_id, evening=evening_id, date=day,
                           at=f"{day}T19:0{index}")
                 for index, (match_id, (_, members, evening_id, day)) in enumerate(TABLES.items())]
    return {"matches": matches, "summaries": summaries}


def test_the_matches_are_as_the_story_says(club):
    """What the summaries are made of, read back from the matches themselves."""
    summaries = {summary["match"]: summary for summary in club["summaries"]}
    assert [(p["member"], p["place"], p["net"]) for p in summaries["m1"]["players"]] == [
        ("ann", 1, "12.00"), ("bob", 4, "-6.00"), ("cid", 3, "-4.00"), ("dan", 2, "-2.00")]
    assert [(p["place"], p["net"]) for p in summaries["m2"]["players"]] == [(3, "-4.00"), (1, "6.00"), (2, "-2.00")]
    assert [(p["place"], p["net"]) for p in summaries["m3"]["players"]] == [(1, "2.00"), (2, "-2.00")]
    assert [(p["place"], p["net"]) for p in summaries["m4"]["players"]] == [(1, "2.00"), (1, "2.00"), (3, "-4.00")]
    assert [s["final"] for s in summaries.values()] == [True, True, True, True, False]
    assert summaries["m1"]["players"][1]["figures"] == {"deals": 1, "minus_points": 22, "illegal_found": 1,
                                                         "illegal_let_stand": 0}
    assert summaries["m3"]["players"][1]["figures"] == {"deals": 3, "deals_lost": 2, "illegal_found": 0,
                                                         "illegal_let_stand": 0}


def test_figures_per_member_and_game_over_every_evening(club):
    everyone = figures(club["summaries"])
    assert sorted(everyone) == ["ann", "bob", "cid", "dan"]
    ann, bob = everyone["ann"], everyone["bob"]
    assert ann["ogorek"] == {"matches": 2, "wins": 1, "places": {"1": 1, "3": 1}, "average_place": 2.0,
                             "deals": 1, "minus_points": 22, "illegal_found": 0, "illegal_let_stand": 0,
                             "minus_points_per_deal": 22.0}
    assert ann["oh_hell"] == {"matches": 1, "wins": 0, "places": {"3": 1}, "average_place": 3.0, "deals": 2,
                              "bids": 2, "exact_bids": 1, "illegal_found": 0, "illegal_let_stand": 0,
                              "exact_bids_pct": 50.0}
    assert ann["duren"] == {"matches": 1, "wins": 1, "places": {"1": 1}, "average_place": 1.0, "deals": 3,
                            "deals_lost": 0, "illegal_found": 0, "illegal_let_stand": 0}
    assert (bob["ogorek"]["places"], bob["ogorek"]["average_place"]) == ({"1": 1, "4": 1}, 2.5)
    assert (bob["ogorek"]["illegal_found"], bob["oh_hell"]["exact_bids_pct"]) == (1, 100.0)
    assert bob["duren"]["deals_lost"] == 2
    assert (everyone["cid"]["ogorek"]["minus_points"], everyone["cid"]["ogorek"]["minus_points_per_deal"]) == (30, 30.0)
    assert list(everyone["dan"]) == ["ogorek"] and everyone["dan"]["ogorek"]["minus_points"] == 29


def test_a_game_without_a_figure_has_none(club):
    """Lives are Ogurets' and Agurk's: nobody has lost one in Ogórek, Oh Hell or Dureń; bids are Oh Hell's."""
    everyone = figures(club["summaries"])
    kept = {game: set(mine) for games in everyone.values() for game, mine in games.items()}
    assert "lives_lost" not in kept["ogorek"] | kept["oh_hell"] | kept["duren"]
    assert "bids" not in kept["ogorek"] | kept["duren"] and "minus_points" not in kept["oh_hell"]


def test_figures_over_a_date_range_and_for_one_member(club):
    later = figures(club["summaries"], E2, None, members=["ann"])
    assert list(later) == ["ann"]
    assert later["ann"]["ogorek"] == {"matches": 1, "wins": 0, "places": {"3": 1}, "average_place": 3.0, "deals": 0,
                                      "minus_points": 22, "illegal_found": 0, "illegal_let_stand": 0,
                                      "minus_points_per_deal": None}  # no deal played: nothing to divide by
    assert sorted(later["ann"]) == ["duren", "ogorek"]
    assert figures(club["summaries"], None, "2025-03-13")["ann"].keys() == {"ogorek", "oh_hell"}
    assert figures(club["summaries"], E3, E3) == {}  # the match being played counts for nothing yet


def test_head_to_head_per_game_and_in_all(club):
    assert head_to_head(club["summaries"], "ann", "bob") == {
        "members": ["ann", "bob"],
        "games": {"duren": {"matches": 1, "ahead": {"ann": 1, "bob": 0}, "level": 0},
                  "ogorek": {"matches": 2, "ahead": {"ann": 1, "bob": 1}, "level": 0},
                  "oh_hell": {"matches": 1, "ahead": {"ann": 0, "bob": 1}, "level": 0}},
        "total": {"matches": 4, "ahead": {"ann": 2, "bob": 2}, "level": 0}}
    bob_cid = head_to_head(club["summaries"], "bob", "cid")
    assert bob_cid["games"]["ogorek"] == {"matches": 2, "ahead": {"bob": 0, "cid": 1}, "level": 1}  # m4: both 1st
    assert bob_cid["total"] == {"matches": 3, "ahead": {"bob": 1, "cid": 1}, "level": 1}
    assert head_to_head(club["summaries"], "bob", "dan", start=E2)["total"]["matches"] == 0


def rows(table: list[dict]) -> list[tuple]:
    return [(row["place"], row["member"], row["value"]) for row in table]


def test_the_default_table_gives_3_2_1_points_per_place_and_equals_share_their_place(club):
    table = season_table(club["summaries"])
    # ann 3+1+3+1 and bob 0+3+2+3: 8 points, 2 wins, average place 2.0 each: they share first place
    assert rows(table) == [(1, "ann", 8), (1, "bob", 8), (3, "cid", 6), (4, "dan", 2)]
    assert table[2] == {"place": 3, "member": "cid", "value": 6, "matches": 3, "wins": 1, "average_place": 2.0}


@pytest.mark.parametrize("start, game, expected", [
    # no points at all: more wins first (dan none), then the same for ann and cid (1 win, average 2.0), bob 2.5
    (None, "ogorek", [(1, "ann", 0), (1, "cid", 0), (3, "bob", 0), (4, "dan", 0)]),
    # from the second evening: one win each, so the better average place comes first: cid 1, bob 1.5, ann 2
    (E2, None, [(1, "cid", 0), (2, "bob", 0), (3, "ann", 0)]),
])
def test_ties_go_to_more_wins_then_the_better_average_place(club, start, game, expected):
    assert rows(season_table(club["summaries"], {"by": "points", "points": [0]}, start, None, game)) == expected


def test_a_table_by_net_money_and_one_by_rating(club):
    money = season_table(club["summaries"], {"by": "money"})
    assert rows(money) == [(1, "ann", "6.00"), (2, "bob", "0.00"), (3, "dan", "-2.00"), (4, "cid", "-4.00")]
    assert sum(Decimal(row["value"]) for row in money) == 0
    rated = season_table(club["summaries"], {"by": "rating"}, game="oh_hell", ratings={"ann": 5.0, "bob": 7.5})
    assert rows(rated) == [(1, "bob", 7.5), (2, "ann", 5.0), (3, "cid", None)]  # no rating: last


@pytest.mark.parametrize("rule", [
    None, "points", {"by": "elo"}, {"by": "points"}, {"by": "points", "points": []}, {"by": "points", "points": [1, 2]},
    {"by": "points", "points": [3, -1]}, {"by": "points", "points": [True]}, {"by": "points", "points": [1] * 9},
    {"by": "money", "points": [1]}, {"by": "money", "extra": 1},
])
def test_a_rule_the_table_cannot_follow_is_refused_saying_what_it_takes(rule):
    with pytest.raises(InvalidInput) as refused:
        check_rule(rule)
    assert refused.value.code == "bad_club_rule"


@pytest.mark.parametrize("start, end", [("2025-3-7", None), ("2025-02-30", None), (None, "20250307"),
                                        ("2025-03-08", "2025-03-07"), (20250307, None), ("2025-W10-5", None)])
def test_a_range_is_two_real_days_in_order(start, end):
    with pytest.raises(InvalidInput) as refused:
        check_range(start, end)
    assert refused.value.code == "bad_date"


def test_an_evening_is_settled_as_the_evening_itself_settles_it(club):
    """The club's evening is `referee.evening`'s, its people being members: the same nets and transfers."""
    ids = [match_id for match_id, table in TABLES.items() if table[2] == "e1"]
    mine = evening_summary("e1", E1, "", [s for s in club["summaries"] if s["evening"] == "e1"])
    assert mine["final"] is True
    assert mine["nets"] == {"ann": "8.00", "bob": "0.00", "cid": "-6.00", "dan": "-2.00"}
    assert mine["transfers"] == [{"from": "cid", "to": "ann", "amount": "6.00"},
                                 {"from": "dan", "to": "ann", "amount": "2.00"}]
    theirs = evening([(match_id, club["matches"][match_id]) for match_id in ids])  # people by name: Ann is ann
    assert [{**t, "from": t["from"].lower(), "to": t["to"].lower()} for t in theirs["transfers"]] == mine["transfers"]
    assert {p["name"].lower(): p["net"] for p in theirs["people"]} == mine["nets"]


def evenings(club) -> list[dict]:
    return [evening_summary(e, day, f"{day}T23:00", [s for s in club["summaries"] if s["evening"] == e])
            for e, day in (("e1", E1), ("e2", E2), ("e3", E3))]


PAID = {"id": "p1", "at": "2025-03-08T10:00", "from": "dan", "to": "ann", "amount": "2.00", "by": "dan"}


def test_unpaid_debts_carry_over_and_net_with_the_next_evening(club):
    books = ledger(evenings(club), [PAID])
    # e1: cid owes ann 6, dan owes ann 2 (paid); e2: ann owes cid 2. Netted: cid pays ann 4, one transfer, not two
    assert books["transfers"] == [{"from": "cid", "to": "ann", "amount": "4.00"}]
    assert books["balances"] == {"ann": "4.00", "bob": "0.00", "cid": "-4.00", "dan": "0.00"}
    assert sum(Decimal(net) for net in books["balances"].values()) == 0
    assert [(entry["type"], entry.get("evening") or entry["id"]) for entry in books["history"]] == [
        ("evening", "e1"), ("paid", "p1"), ("evening", "e2")]
    assert books["history"][2]["transfers"] == [{"from": "ann", "to": "cid", "amount": "2.00"}]
    assert books["history"][2]["nets"] == {"ann": "-2.00", "bob": "0.00", "cid": "2.00"}
    # the evening being played owes nothing yet: it is shown as it stands
    assert [(entry["evening"], entry["transfers"]) for entry in books["open"]] == [
        ("e3", [{"from": "cid", "to": "ann", "amount": "2.00"}, {"from": "cid", "to": "dan", "amount": "2.00"}])]


def test_without_the_payment_dan_still_owes_and_the_fewest_transfers_say_so(club):
    books = ledger(evenings(club))
    assert books["transfers"] == [{"from": "cid", "to": "ann", "amount": "4.00"},
                                  {"from": "dan", "to": "ann", "amount": "2.00"}]


def test_a_transfer_is_marked_paid_in_full_or_in_part_by_the_payer_or_the_payee(club):
    books = ledger(evenings(club), [PAID])
    assert check_payment(books, {"from": "cid", "to": "ann", "by": "cid"}) == {
        "from": "cid", "to": "ann", "amount": "4.00", "by": "cid"}
    part = check_payment(books, {"from": "cid", "to": "ann", "amount": "1.5", "by": "ann"})
    assert part == {"from": "cid", "to": "ann", "amount": "1.50", "by": "ann"}
    after = ledger(evenings(club), [PAID, {**part, "id": "p2", "at": "2025-03-15T12:00"}])
    assert after["transfers"] == [{"from": "cid", "to": "ann", "amount": "2.50"}]
    assert [entry.get("id") for entry in after["history"]] == [None, "p1", None, "p2"]  # the history is kept


@pytest.mark.parametrize("payment, code", [
    ({"from": "ann", "to": "cid", "by": "ann"}, "not_owed"),  # the debt runs the other way now
    ({"from": "dan", "to": "ann", "by": "dan"}, "not_owed"),  # paid already
    ({"from": "cid", "to": "ann", "amount": "4.01", "by": "cid"}, "not_owed"),
    ({"from": "cid", "to": "ann", "by": "bob"}, "not_payer_or_payee"),
    ({"from": "cid", "to": "ann", "amount": "-1", "by": "cid"}, "bad_payment"),
    ({"from": "cid", "to": "ann", "amount": "0", "by": "cid"}, "bad_payment"),
    ({"from": "cid", "to": "ann", "amount": 4, "by": "cid"}, "bad_payment"),
    ({"from": "cid", "to": "ann", "amount": "4E0", "by": "cid"}, "bad_payment"),
    ({"from": "cid", "to": "ann"}, "bad_payment"),
    (["cid", "ann"], "bad_payment"),
])
def test_a_mark_that_fits_no_debt_is_refused_and_changes_nothing(club, payment, code):
    books = ledger(evenings(club), [PAID])
    with pytest.raises((InvalidInput, Rejected)) as refused:
        check_payment(books, payment)
    assert refused.value.code == code
    assert ledger(evenings(club), [PAID]) == books


def test_a_payment_stays_paid_when_the_debt_is_gone_and_the_payee_owes_it_back():
    """Money that changed hands stays paid: a correction of the evening may wipe the debt it paid."""
    books = ledger([evening_summary("e", E1, "", [])], [{**PAID, "amount": "2.00"}])
    assert books["transfers"] == [{"from": "ann", "to": "dan", "amount": "2.00"}]


def test_what_only_entered_hands_prove_counts_once_they_may_show():
    """A play let stand against a hand entered for the referee is the table's secret until the deal is over."""
    match = Match.create("ogorek", SEED_PLAYERS)
    match.play({"type": "deal", "dealer": 0, "hands": {"1": ["K", "K", "7", "6", "4", "3"]}})
    tricks = [list(trick) for trick in SEED_TRICKS]
    tricks[4][3], tricks[5][3] = ("W", "6"), ("W", "4")
    for trick in tricks[:4]:
        for who, card in trick:
            play(match, who, card)
    for who, card in tricks[4]:
        play(match, who, card, force=who == "W")
    members = ["ann", "bob", "cid", "dan"]
    during = summarize(match, members, match_id="m", date=E1)["players"][1]["figures"]
    assert (during["illegal_found"], during["illegal_let_stand"]) == (0, 0)
    for who, card in tricks[5]:
        play(match, who, card)
    after = summarize(match, members, match_id="m", date=E1)["players"][1]["figures"]
    assert (after["illegal_found"], after["illegal_let_stand"]) == (0, 1)


def test_a_summary_needs_one_member_per_seat():
    with pytest.raises(ValueError):
        summarize(m5(), ["ann", "ann", "cid"], match_id="m", date=E1)
    with pytest.raises(ValueError):
        summarize(m5(), ["ann", "cid"], match_id="m", date=E1)
