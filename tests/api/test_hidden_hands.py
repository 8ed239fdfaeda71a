"""Hidden cards stay hidden (RULES.md, common ground): hands entered for the referee are the table's secret.

A reader without the match's key sees the match exactly as a table that entered no hands would see it: a
blind twin, fed the same events without the hands, must show the same state at every step. With the key
the hands are there. The log shows a deal's hands to everyone once every card of them is played.
"""

from __future__ import annotations

import random

import pytest
from duren_table import Table as DurenTable
from duren_table import play_deal
from game_tables import SIMULATORS
from hypothesis import given, settings
from hypothesis import strategies as st
from ogorek_helpers import SEED_HANDS, SEED_PLAYERS, SEED_TRICKS
from ogorek_table import Table as OgorekTable
from oh_hell_table import SimTable

from referee import GAMES, Match
from referee.match import without_hands

pytestmark = pytest.mark.both_stores

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
HANDS = {str(SEED_PLAYERS.index(name)): cards for name, cards in SEED_HANDS.items()}


def twinned(match: Match, hands_for=None, while_secret: bool = False) -> Match:
    """A blind twin of `match`: every command logged on `match` is logged on the twin without its hands, and
    after each one the keyless view of `match` must equal the twin's view (`while_secret`: while a deal's hands
    are secret; once they show, a play let stand shows the verdict the hands gave). `hands_for(command)` adds
    hands to a deal that the table logs blind (Dureń's simulated table)."""
    twin = Match.from_header(match.header())
    play = match.play

    def both(command: dict, lot=None):
        if command["type"] == "deal" and hands_for is not None:
            command = {**command, "hands": hands_for()}
        answer = play(command, lot)
        blind = {key: value for key, value in command.items() if key != "hands"}
        if command["type"] == "deal":
            blind["dealer"] = answer[0]["dealer"]
        twin.play(blind, lot)
        if while_secret and match.dealt is None:
            return answer
        public, blind_view = match.public().view(), twin.view()
        if match.dealt is None and public["deal"] and blind_view["deal"]:  # no secret now: who gave a hand may show
            public["deal"].pop("known_hands", None), blind_view["deal"].pop("known_hands", None)
        if while_secret:  # the deals played before this one may show what their hands proved
            for view in (public, blind_view):
                view["findings"] = [f for f in view["findings"] if f["seq"] > match.dealt]
        assert public == blind_view
        if while_secret:
            shown, blind_log = match.events_view(hidden=True), twin.events_view()
            assert [without_hands(e) for e in shown[-1:]] == [without_hands(e) for e in blind_log[-1:]]
        for event in match.events_view(hidden=True):
            if "hands" in event:
                assert event["seq"] not in match.secret
        return answer

    match.play = both
    return twin


@settings(max_examples=15, deadline=None)
@given(rng=st.randoms(use_true_random=False), players=st.integers(2, 6))
def test_ogorek_read_without_the_key_is_the_blind_match(rng, players):
    table = OgorekTable(rng, players, {}, "0", known=True)
    twinned(table.match)
    for _ in range(3):
        table.play_deal()
        if table.match.state.finished:
            break
    assert not table.match.secret  # every card of every deal was played: the hands may show


@settings(max_examples=15, deadline=None)
@given(rng=st.randoms(use_true_random=False), players=st.integers(3, 5))
def test_oh_hell_read_without_the_key_is_the_blind_match(rng, players):
    match = Match.create("oh_hell", [f"P{i}" for i in range(players)], {"sequence": [3, 2, 1]})
    table = SimTable(match, rng, known=0.6)
    twinned(match)
    table.play_out()


@settings(max_examples=15, deadline=None)
@given(rng=st.randoms(use_true_random=False), first=st.integers(0, 1))
def test_duren_read_without_the_key_is_the_blind_match_and_its_hands_stay_secret(rng, first):
    match = Match.create("duren", ["Ala", "Bartek"])
    tables = []
    twinned(match, hands_for=lambda: {str(seat): [str(card) for card in tables[-1].hands[seat]] for seat in (0, 1)})
    dealer = first
    for _ in range(2):
        tables.append(DurenTable(rng, 24, dealer))
        play_deal(match, tables[-1])
        winner = tables[-1].winner()
        dealer = 1 - dealer if winner is None else 1 - winner
    assert all("hands" not in event for event in match.events_view(hidden=True))  # the loser kept cards


def test_an_undone_deal_never_shows_its_hands_without_the_key():
    match = Match.create("ogorek", SEED_PLAYERS)
    match.play({"type": "deal", "dealer": 0, "hands": HANDS})
    match.play({"type": "undo"})
    match.play({"type": "deal", "dealer": 0})
    for trick in SEED_TRICKS:
        for name, card in trick:
            match.play({"type": "play", "seat": SEED_PLAYERS.index(name), "card": card})
    assert [("hands" in event) for event in match.events_view(hidden=True)] == [False] + [False] * 26
    assert match.events_view()[0]["hands"] == HANDS


# --- over the API ----------------------------------------------------------------------------------------

def seed_deal(table) -> dict:
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0, "hands": HANDS})
    return match


def play_seed(table, match, tricks) -> None:
    for trick in tricks:
        for name, card in trick:
            table.play(match, name, card)


def test_a_reader_without_the_key_sees_no_entered_hand(table):
    match = seed_deal(table)
    play_seed(table, match, SEED_TRICKS[:2])
    follower, scorer = table.state(match), table.state(match, keyed=True)
    assert "legal" not in follower["expected"] and scorer["expected"]["legal"]
    assert follower["deal"]["known_hands"] == [] and scorer["deal"]["known_hands"] == [0, 1, 2, 3]
    assert "hands" not in table.events(match)[0]
    assert table.events(match, keyed=True)[0]["hands"] == HANDS


def test_the_state_answering_the_scorer_is_never_the_followers(table):
    """The state built for the scorer's play (with the hands) is kept for the next readers of that event: a
    reader without the key right after it still gets the state without them."""
    match = seed_deal(table)
    play_seed(table, match, SEED_TRICKS[:1])
    name, card = SEED_TRICKS[1][0]
    answer = table.play(match, name, card)
    follower = table.state(match)
    assert follower["seq"] == answer["state"]["seq"]
    assert answer["state"]["expected"]["legal"] and "legal" not in follower["expected"]
    assert answer["state"]["deal"]["known_hands"] == [0, 1, 2, 3] and follower["deal"]["known_hands"] == []
    assert table.state(match, keyed=True) == answer["state"]


def test_once_every_card_is_played_the_log_shows_the_hands(table):
    match = seed_deal(table)
    play_seed(table, match, SEED_TRICKS[:5])
    assert "hands" not in table.events(match)[0]
    play_seed(table, match, SEED_TRICKS[5:])
    assert table.events(match)[0]["hands"] == HANDS


def test_a_duren_deal_keeps_its_hands_from_readers_without_the_key(table):
    hands = {"0": ["9S", "10S", "JS", "QS", "KS"], "1": ["9H", "10H", "JH", "QH", "KH"]}
    match = table.new_match(players=["Ala", "Bartek"], game="duren")
    table.post_event(match, {"type": "deal", "dealer": 0, "trump": "AD", "hands": hands})
    follower, scorer = table.state(match), table.state(match, keyed=True)
    assert follower["deal"]["known"] == {"0": [], "1": []}
    assert sorted(scorer["deal"]["known"]["0"]) == sorted(hands["0"])
    assert "hands" not in table.events(match)[0]


@pytest.mark.parametrize("path", ["", "/events", "/settlement"])
def test_a_read_checks_the_key_it_is_sent(table, path):
    match = seed_deal(table)
    url = f"/api/matches/{match['id']}{path}"
    wrong = table.client.get(url, headers={"Authorization": "Bearer " + "x" * 43})
    assert (wrong.status_code, wrong.get_json()["error"]["code"]) == (403, "wrong_key")
    malformed = table.client.get(url, headers={"Authorization": f"Basic {match['key']}"})
    assert (malformed.status_code, malformed.get_json()["error"]["code"]) == (401, "key_required")
    right = table.client.get(url, headers={"Authorization": f"Bearer {match['key']}"})
    assert right.status_code == 200
    assert right.headers["Cache-Control"] == "private, no-cache" and "Authorization" in right.headers["Vary"]
    keyless = table.client.get(url)
    assert keyless.headers["Cache-Control"] == "no-cache" and "Authorization" in keyless.headers["Vary"]


def test_the_scorer_and_a_follower_get_different_versions_of_the_state(table):
    match = seed_deal(table)
    follower = table.client.get(f"/api/matches/{match['id']}")
    scorer = table.client.get(f"/api/matches/{match['id']}", headers={"Authorization": f"Bearer {match['key']}"})
    assert follower.headers["ETag"] != scorer.headers["ETag"]
    again = table.client.get(f"/api/matches/{match['id']}", headers={"If-None-Match": scorer.headers["ETag"]})
    assert again.status_code == 200 and "legal" not in again.get_json()["expected"]


def test_a_refusal_with_a_known_hand_names_only_the_card_played(table):
    match = seed_deal(table)
    play_seed(table, match, SEED_TRICKS[:4])
    play_seed(table, match, [[("N", "10"), ("E", "8"), ("S", "6")]])
    refused = table.play(match, "W", "6", expect=409)["error"]  # W holds 6 and 4, and must play the 4
    assert refused["message"] == "W cannot reach 10, so must play their lowest card, and 6 is not it."
    assert refused["details"] == {"card": "6", "top": "10", "case": "cannot_reach", "seat": 1, "forceable": True}
    forced = table.play(match, "W", "6", force=True)
    [finding] = table.state(match, keyed=True)["findings"]
    assert finding["message"] == forced["findings"][0]["message"] == refused["message"]
    [event] = [e for e in table.events(match, keyed=True) if e["seq"] == forced["event"]["seq"]]
    assert event["illegal"]["message"] == refused["message"] and event["warnings"][0]["details"]["card"] == "6"


def test_a_play_let_stand_on_a_known_hand_tells_a_follower_nothing_until_the_hands_show(table):
    """"W cannot reach 10" tells a follower that W holds nothing from 10 up: while the hands are secret, the
    state, the log, the figures and the stream's state show the play as the blind referee saw it."""
    match = seed_deal(table)
    play_seed(table, match, SEED_TRICKS[:4])
    play_seed(table, match, [[("N", "10"), ("E", "8"), ("S", "6")]])
    forced = table.play(match, "W", "6", force=True)
    assert forced["warnings"] and forced["findings"]  # the scorer is told at once
    follower = table.state(match)
    assert follower["findings"] == []
    [event] = [e for e in table.events(match) if e["seq"] == forced["event"]["seq"]]
    assert {"illegal", "warnings", "force", "public"}.isdisjoint(event)
    figures = table.client.get(f"/api/matches/{match['id']}/figures").get_json()
    assert "reach" not in str(figures) and "reach" not in str(table.events(match)) + str(follower)
    assert all(p["figures"]["illegal_let_stand"] == 0 for p in figures["players"])
    assert "public" not in str(table.events(match, keyed=True))
    for trick in SEED_TRICKS[5:]:  # W holds the 4 the seed's W played in trick 5
        play_seed(table, match, [[(name, "4" if (name, card) == ("W", "6") else card) for name, card in trick]])
    assert table.state(match)["findings"] == table.state(match, keyed=True)["findings"] != []


def test_random_known_hand_refusals_name_no_other_card_of_the_hand():
    rng = random.Random(7)
    refusals = 0
    for _ in range(40):
        table = OgorekTable(rng, 4, {}, "0", known=True)
        table.deal()
        while not table.over:
            seat = table.turn()
            hand = table.hands[seat]
            wrong = [card for card in set(hand) if card not in set(legal_now(table, seat))]
            if wrong:
                card = rng.choice(wrong)
                try:
                    table.match.play({"type": "play", "seat": seat, "card": card})
                except Exception as refusal:  # noqa: BLE001 - a Rejected, checked below
                    refusals += 1
                    others = set(hand) - {card} - set(table.on_table)
                    words = set(str(refusal).replace(".", " ").replace(",", " ").split())
                    assert not others & words, (str(refusal), hand)
                    assert not others & {str(value) for value in refusal.details.values()}
            table.play_legal()
    assert refusals > 20


def legal_now(table, seat):
    from ogorek_table import legal

    return legal(table.hands[seat], table.on_table)


# --- plays let stand ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_play_let_stand_tells_a_reader_without_the_key_only_what_the_blind_match_tells(game):
    """A careless table lets wrong plays stand (`force`) while hands are entered: while a deal's hands are
    secret a reader without the key sees what the blind twin sees (a refusal the hands proved shows nothing:
    "Cid holds spades and must follow suit" would tell a follower Cid's hand); once they may show, what the
    scorer sees."""
    rules, forced = GAMES[game], []
    for seed in range(6):
        rng = random.Random(seed)
        players = rng.randint(rules.min_players, min(rules.max_players, 5))
        match = Match.create(game, NAMES[:players])
        table = SIMULATORS[game](match, rng, known=0.8)
        table.careless = 0.3
        twin = twinned(match, while_secret=True)
        for _ in range(300):
            if table.step() is None:
                break
            if match.log[-1].get("force"):
                forced.append(match.log[-1])
            if match.dealt is None and not match.secret:  # no secret now: the follower sees what the scorer sees
                assert match.public().view() == match.view()
        assert twin.seq == match.seq
    assert forced, "the careless tables let no play stand"
