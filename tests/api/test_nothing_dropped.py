"""Nothing the table sends is dropped unseen: a field the game does not read in an event is refused with 422
`unused_field`, and a hand given twice for one seat with 422 `bad_hands`."""

from __future__ import annotations

import pytest

from referee import GAMES, InvalidInput, Match

PLAYERS = {name: ["S", "W", "N"][:max(game.min_players, min(3, game.max_players))] for name, game in GAMES.items()}
WITHOUT_TRUMP = sorted(name for name, game in GAMES.items() if "trump" not in game.event_fields["deal"])


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda game: game.name)
def test_every_event_of_every_game_says_which_fields_it_reads(game):
    assert set(game.event_fields) == set(game.event_types)


@pytest.mark.parametrize("game", WITHOUT_TRUMP)
def test_a_trump_in_a_game_without_suits_is_refused(game):
    match = Match.create(game, PLAYERS[game])
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "dealer": 0, "trump": "9S"})
    assert caught.value.code == "unused_field"
    assert caught.value.details == {"type": "deal", "fields": ["trump"]}
    assert "trump" in caught.value.message and "dealer, hands" in caught.value.message
    assert match.seq == 0


@pytest.mark.parametrize("game", WITHOUT_TRUMP)
def test_a_trump_given_as_null_is_no_trump_at_all(game):
    match = Match.create(game, PLAYERS[game])
    event, _, _ = match.play({"type": "deal", "dealer": 0, "trump": None})
    assert event == {"type": "deal", "dealer": 0, "seq": 1, "format": 2}


@pytest.mark.parametrize(("game", "command"), [
    ("ogorek", {"type": "play", "seat": 1, "card": "K", "bid": 2}),
    ("oh_hell", {"type": "bid", "seat": 1, "bid": 0, "card": "KS"}),
    ("duren", {"type": "end", "seat": 0}),
    ("duren", {"type": "deal", "dealer": 0, "trump": "9S", "packets": 2}),
])
def test_any_field_the_event_does_not_read_is_refused(game, command):
    with pytest.raises(InvalidInput) as caught:
        Match.create(game, PLAYERS[game]).decide(command)
    assert caught.value.code == "unused_field"


def test_over_the_api_a_trump_in_an_ogorek_deal_is_422(table):
    match = table.new_match()
    refused = table.post_event(match, {"type": "deal", "dealer": 0, "trump": "QS"}, expect=422)
    assert refused["error"]["code"] == "unused_field"
    assert refused["error"]["message"] == "Ogórek: a deal event takes dealer, hands, not trump."
    assert table.state(match)["seq"] == 0


@pytest.mark.parametrize(("game", "deal"), [
    ("ogorek", {"hands": {"1": ["2", "3", "4", "5", "6", "7"], "01": ["8", "9", "10", "J", "Q", "K"]}}),
    ("oh_hell", {"trump": "9H", "hands": {"1": ["2S"], "01": ["3S"]}}),
    ("duren", {"trump": "9H", "hands": {"1": ["9S", "10S", "JS", "QS", "KS"], "01": ["9D", "10D", "JD", "QD", "KD"]}}),
])
def test_a_hand_given_twice_for_one_seat_is_refused(game, deal):
    match = Match.create(game, PLAYERS[game])
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "dealer": 0, **deal})
    assert (caught.value.code, caught.value.details) == ("bad_hands", {"seat": 1})
    assert caught.value.message == "W's hand is given twice."
