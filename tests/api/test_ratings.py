"""A club's ratings (`api.ratings`): openskill's Plackett-Luce model over the club's finished matches, in order.

The expected ratings come from the library's own calls on the same sequence, made here by hand."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from api.ratings import Ratings, ordinals, ratings
from referee.club import season_table


def match(match_id: str, day: str, places: dict[str, int], game: str = "ogorek", final: bool = True) -> dict:
    """A match's summary (`referee.club.summarize`), the members in seat order with their places."""
    return {"match": match_id, "evening": None, "game": game, "date": day, "at": f"{day}T20:00", "final": final,
            "players": [{"member": member, "place": place, "net": "0.00", "figures": {}}
                        for member, place in places.items()]}


SEQUENCE = [
    match("a", "2025-03-07", {"ann": 1, "bob": 2, "cid": 3}),
    match("b", "2025-03-07", {"bob": 1, "cid": 1, "dan": 3}),  # bob and cid share first place
    match("c", "2025-03-14", {"dan": 1, "ann": 2}),
    match("d", "2025-03-14", {"ann": 2, "bob": 1, "cid": 2, "dan": 2}),  # three share second place
    match("e", "2025-03-14", {"ann": 1, "bob": 2}, game="oh_hell"),  # another game: rated apart
    match("f", "2025-03-21", {"cid": 1, "dan": 2}, final=False),  # being played: not rated
]


def by_hand() -> dict:
    """The same sequence through openskill's own calls."""
    model = PlackettLuce()
    ann, bob, cid, dan = (model.rating() for _ in range(4))
    [ann], [bob], [cid] = model.rate([[ann], [bob], [cid]], ranks=[1, 2, 3])
    [bob], [cid], [dan] = model.rate([[bob], [cid], [dan]], ranks=[1, 1, 3])
    [dan], [ann] = model.rate([[dan], [ann]], ranks=[1, 2])
    [ann], [bob], [cid], [dan] = model.rate([[ann], [bob], [cid], [dan]], ranks=[2, 1, 2, 2])
    other_ann, other_bob = model.rating(), model.rating()
    [other_ann], [other_bob] = model.rate([[other_ann], [other_bob]], ranks=[1, 2])
    return {"ogorek": {"ann": ann, "bob": bob, "cid": cid, "dan": dan}, "oh_hell": {"ann": other_ann, "bob": other_bob}}


def test_the_ratings_are_openskills_own_on_the_same_sequence():
    expected = by_hand()
    shown = ratings(SEQUENCE)
    assert sorted(shown) == ["ann", "bob", "cid", "dan"]
    for game, members in expected.items():
        for member, rating in members.items():
            assert shown[member][game]["mu"] == rating.mu and shown[member][game]["sigma"] == rating.sigma
            assert shown[member][game]["ordinal"] == rating.ordinal() == rating.mu - 3 * rating.sigma
    assert {member: {game: r["matches"] for game, r in games.items()} for member, games in shown.items()} == {
        "ann": {"ogorek": 3, "oh_hell": 1}, "bob": {"ogorek": 3, "oh_hell": 1}, "cid": {"ogorek": 3},
        "dan": {"ogorek": 3}}
    assert "oh_hell" not in shown["cid"]


def test_the_uncertainty_shrinks_as_a_member_plays_and_a_shared_place_is_a_tie():
    shown = ratings(SEQUENCE)
    model = PlackettLuce()
    assert all(r["sigma"] < model.sigma for games in shown.values() for r in games.values())
    two = ratings([match("x", "2025-01-01", {"ann": 1, "bob": 1})])
    assert two["ann"]["ogorek"] == two["bob"]["ogorek"]  # equal ranks: a draw between equals moves neither apart


def test_the_order_is_the_days_not_the_order_given():
    shuffled = list(SEQUENCE)
    random.Random(5).shuffle(shuffled)
    assert ratings(shuffled) == ratings(SEQUENCE)


def test_a_correction_or_a_deletion_of_an_early_match_changes_the_ratings_after_it():
    before = ratings(SEQUENCE)
    corrected = [match("a", "2025-03-07", {"ann": 3, "bob": 2, "cid": 1}), *SEQUENCE[1:]]
    after = ratings(corrected)
    assert after["dan"]["ogorek"]["mu"] != before["dan"]["ogorek"]["mu"]  # dan never met ann in match a
    deleted = ratings(SEQUENCE[1:])
    assert deleted["ann"]["ogorek"]["matches"] == 2 and deleted != before


def test_one_match_more_at_the_end_is_the_same_as_rating_them_all_again():
    book = Ratings()
    for summary in SEQUENCE[:5]:
        book.add(summary)
    late = match("g", "2025-03-28", {"dan": 1, "cid": 2, "bob": 3})
    book.add(late)
    assert book.shown() == ratings([*SEQUENCE, late])
    with pytest.raises(ValueError):
        book.add(match("h", "2025-03-01", {"ann": 1, "bob": 2}))  # earlier than the latest: rate them all again
    with pytest.raises(ValueError):
        book.add(SEQUENCE[5])  # not finished


def test_a_season_starts_afresh_and_its_table_ranks_by_the_ordinal():
    season = ratings(SEQUENCE, start="2025-03-14")
    assert season["cid"]["ogorek"]["matches"] == 1
    model = PlackettLuce()
    ann, bob, cid, dan = (model.rating() for _ in range(4))
    [dan], [ann] = model.rate([[dan], [ann]], ranks=[1, 2])
    [ann], [bob], [cid], [dan] = model.rate([[ann], [bob], [cid], [dan]], ranks=[2, 1, 2, 2])
    assert season["dan"]["ogorek"]["ordinal"] == dan.ordinal()
    table = season_table(SEQUENCE, {"by": "rating"}, start="2025-03-14", game="ogorek",
                         ratings=ordinals(season, "ogorek"))
    expected = sorted({"ann": ann, "bob": bob, "cid": cid, "dan": dan}.items(), key=lambda item: -item[1].ordinal())
    assert [(row["member"], row["value"]) for row in table] == [(member, r.ordinal()) for member, r in expected]
