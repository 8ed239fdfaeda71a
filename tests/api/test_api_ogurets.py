"""A whole match of Ogurets over the API, dealt from a seeded shuffled deck and played by the rules.

Every answer is held to openapi.yaml by the test client. Along the way: a play out of turn and an
illegal play from a known hand are refused (409), the illegal play forced in stands as a finding, a play
is undone, and after every deal the points, tricks and lives the API shows match the table's own count.
"""

from __future__ import annotations

import random

import pytest
from api_match import ApiMatch, check_pool
from ogurets_table import Deal, play_legally

PLAYERS = ["S", "W", "N"]
W = 1


# (options, seed, how the match ends): the seeds give both endings of RULES.md §2
MATCHES = [
    ({}, 7, "everyone still in loses their last life in the same deal"),
    ({"threshold": 45}, 16, "one after the other, the last player in wins"),
]


@pytest.mark.parametrize(("options", "seed", "ending"), MATCHES, ids=["default options", "threshold 45"])
def test_a_match_of_ogurets_from_the_first_deal_to_the_settlement(table, options, seed, ending):
    rng = random.Random(seed)
    match = ApiMatch(table, "ogurets", PLAYERS, options=options, stake="1", currency="PLN")
    state = match.view()
    assert state["options"] == {"jokers": 0, "top_card_rule": True, "joker_overtakes_king": False, "threshold": 21,
                                "lives": 2, **options}
    threshold = state["options"]["threshold"]
    assert [(p["lives"], p["points"], p["tricks_taken"], p["place"]) for p in state["players"]] == [(2, 0, 0, None)] * 3
    assert state["expected"] == {"type": "deal", "dealer": None, "deal": 1, "cards": 7}

    lives = dict.fromkeys(range(3), 2)
    out_order: list[list[int]] = []
    forced = undone = None
    while match.view()["status"] == "playing":
        seats_in = [seat for seat in lives if lives[seat] > 0]
        known = {W} if forced is None and W in seats_in else set()
        deal = Deal(match, rng, known)
        state = match.view()
        assert state["deal"]["seats"] == deal.order and state["deal"]["known_hands"] == sorted(known)
        assert state["deal"]["cards_left"] == {str(seat): 7 for seat in deal.order}
        assert [p["points"] for p in state["players"]] == [0, 0, 0], "points count per deal"

        wrong_seat = deal.order[1]
        refused = match.rejection({"type": "play", "seat": wrong_seat, "card": deal.hands[wrong_seat][0]})
        assert (refused.code, refused.seat, refused.forceable) == ("not_your_turn", wrong_seat, False)

        for _ in range(7 * len(deal.order)):
            seat = deal.turn()
            illegal = sorted(set(deal.hands[seat]) - set(deal.legal(seat, match.options)))
            if seat in known and deal.table and illegal and forced is None:
                forced = force_an_illegal_play(match, deal, seat, illegal[0])
            elif undone is None and 0 < len(deal.table) < len(deal.order) - 1:  # a card in mid-trick
                undone = play_and_undo(match, deal, rng)
            else:
                assert play_legally(match, deal, rng) == []

        state = match.refresh()
        result = state["deal"]["result"]
        losing = sorted(seat for seat in deal.order if deal.points[seat] >= threshold)
        assert result["points"] == {str(seat): deal.points[seat] for seat in deal.order}
        assert result["lost_life"] == losing
        for seat in losing:
            lives[seat] -= 1
        gone = sorted(seat for seat in losing if lives[seat] == 0)
        if gone:
            out_order.append(gone)
        assert result["out"] == gone
        assert [p["lives"] for p in state["players"]] == [lives[seat] for seat in range(3)]
        assert [p["out"] for p in state["players"]] == [lives[seat] == 0 for seat in range(3)]
        for seat in deal.order:
            player, taken = state["players"][seat], state["deal"]["taken"][str(seat)]
            assert player["points"] == player["score"] == taken["points"] == deal.points[seat]
            assert player["tricks_taken"] == len(taken["tricks"]) == deal.tricks[seat]
        assert state["history"][-1] == {"deal": state["deal"]["number"], "dealer": state["deal"]["dealer"],
                                        "scores": [deal.points.get(seat, 0) for seat in range(3)],
                                        "lives": [lives[seat] for seat in range(3)]}

    assert forced is not None and undone is not None
    state = match.view()
    assert state["expected"] is None and state["settlement"]["final"] is True
    assert [f["seq"] for f in state["findings"]] == [forced]
    left = [seat for seat in lives if lives[seat] > 0]
    # the last player in wins, or, when everyone still in went out at once, they are placed by their points
    # in that deal, fewest first; then the others by when they went out, the latest first, sharing places
    # when they went out together
    assert bool(left) == ending.endswith("wins")
    groups = [left] if left else by_fewest_points(out_order.pop(), deal.points)
    groups += reversed(out_order)
    assert {p["seat"]: p["place"] for p in state["players"]} == places_of(groups)
    check_pool(match.settlement(), "1")
    assert match.settlement() == state["settlement"]


def test_a_fifth_king_is_refused_and_the_players_may_end_the_match_mid_deal(table):
    match = ApiMatch(table, "ogurets", PLAYERS, stake="0.50")
    match.play({"type": "deal", "dealer": 0})
    # the latest of equal kings takes the trick: S leads the second one (a king on a king is the lowest card only
    # of a hand of kings, which two kings left cannot make: refused, and let stand here)
    for seat, force in ((1, False), (2, True), (0, True), (0, False)):
        match.play({"type": "play", "seat": seat, "card": "K", "force": force})
    assert match.view()["deal"]["taken"]["0"] == {"tricks": [1], "cards": ["K", "K", "K"], "points": 39}
    assert match.view()["expected"]["exhausted"] == ["K"]
    refused = match.rejection({"type": "play", "seat": 1, "card": "K", "force": True})
    assert (refused.code, refused.forceable) == ("card_already_played", False)

    event, _, _ = match.play({"type": "end"})
    state = match.view()
    assert event == {"type": "end", "seq": 6, "format": 2}
    assert state["status"] == "finished" and state["expected"] is None
    assert [(p["lives"], p["place"]) for p in state["players"]] == [(2, 1)] * 3, "those still in share the places"
    assert [p["net"] for p in state["settlement"]["players"]] == ["0.00"] * 3


def force_an_illegal_play(match: ApiMatch, deal: Deal, seat: int, card: str) -> int:
    """W's hand is known: the illegal card is refused, then let stand with force, and found at once."""
    where = (match.view()["deal"]["number"], match.view()["deal"]["trick"])
    refused = match.rejection({"type": "play", "seat": seat, "card": card})
    assert refused.code in ("must_play_higher", "must_play_lowest") and refused.forceable and refused.seat == seat
    event, warnings, findings = match.play({"type": "play", "seat": seat, "card": card, "force": True})
    assert event["illegal"]["code"] == refused.code and [w["code"] for w in warnings] == [refused.code]
    [finding] = findings
    assert (finding["seq"], finding["proof_seq"], finding["seat"], finding["code"]) == (
        event["seq"], event["seq"], seat, refused.code)
    assert (finding["deal"], finding["trick"]) == where
    deal.played(seat, card)
    return event["seq"]


def play_and_undo(match: ApiMatch, deal: Deal, rng: random.Random) -> int:
    """A card logged by mistake and undone: the state is as before, and the log keeps both events; then
    the card really played."""
    before = match.view()
    seat = deal.turn()
    card = deal.legal(seat, match.options)[0]
    played, _, _ = match.play({"type": "play", "seat": seat, "card": card})
    assert match.view()["deal"]["table"][-1] == {"seat": seat, "card": card, "seq": played["seq"]}
    undo = match.undo()
    assert undo == {"type": "undo", "undoes": played["seq"], "seq": played["seq"] + 1, "format": 2}
    after = match.refresh()
    assert {**after, "seq": before["seq"]} == before
    assert match.events()[-2]["undone_by"] == undo["seq"]
    assert play_legally(match, deal, rng) == []
    return played["seq"]


def by_fewest_points(seats: list[int], points: dict[int, int]) -> list[list[int]]:
    """Everyone still in out in the same deal: the fewest points first, equal points in one group."""
    return [[seat for seat in seats if points[seat] == value] for value in sorted({points[seat] for seat in seats})]


def places_of(groups: list[list[int]]) -> dict[int, int]:
    """Each seat's place: a group shares the places it occupies and shows the first of them."""
    places, place = {}, 1
    for group in groups:
        places.update(dict.fromkeys(group, place))
        place += len(group)
    return places
