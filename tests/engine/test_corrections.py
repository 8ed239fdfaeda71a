"""Corrections on the engine: an earlier entry changed, removed, or one inserted before it, in every game.

For every game of the registry, random matches (hands entered or not, illegal plays let stand now and then) get a
random correction of an earlier entry; the corrected match must be the match of its entries logged again from
scratch with that change (state, findings, figures, settlement, what a reader without the key sees), and the
correction refused exactly when that log is refused at some entry. Then the cases by hand.
"""

from __future__ import annotations

import random

import pytest
from correcting import outcome, random_correction, random_match, rebuilt, renumbered
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import GAMES, InvalidInput, Match, Rejected
from referee.corrections import command_of


def same_match(corrected: Match, again: Match, numbers: list[int]) -> None:
    """The corrected match is the match rebuilt from scratch, for the scorer and for a reader without the key."""
    view = corrected.view()
    expected = {**renumbered(again.view(), numbers), "seq": corrected.seq}
    assert view == expected
    # a reader without the key: the rebuilt match as it is read back from its log (a match kept in memory while its
    # plays were logged keeps what those plays showed then, before their deal's hands could show)
    fresh = Match.replay(again.header(), again.log)
    public = {**renumbered(fresh.public().view(), numbers), "seq": corrected.seq}
    assert corrected.public().view() == public
    assert corrected.settlement() == again.settlement()


def no_secret_shows(match: Match) -> None:
    """Nothing a reader without the key reads shows a hand still secret, nor a hand a correction replaced."""
    secret = set(match.secret)
    for event in match.events_view(hidden=True):
        entries = [event] + [event[key] for key in ("with", "was", "insert") if isinstance(event.get(key), dict)] + \
            event.get("changed", [])
        for entry in entries:
            if "hands" in entry:
                assert entry["seq"] not in secret, entry
                shown = {key: value for key, value in entry.items() if key not in ("undone_by", "corrected_by")}
                assert match.entries.current.get(entry["seq"]) == shown, entry


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(3, 160), force=st.booleans())
def test_a_random_correction_is_the_log_rebuilt_with_it(game, seed, length, force):
    rng = random.Random(seed)
    match = random_match(game, rng, length)
    command, kind, entry, put = random_correction(match, rng)
    if force:
        command = {**command, "force": True}
    expected, refusal = outcome(lambda: rebuilt(match, kind, entry, put, force))
    before = match.view()
    answer, refused = outcome(lambda: match.play(command))
    if refusal is not None:
        assert refused is not None, (command, refusal.code)
        assert match.view() == before  # nothing recorded
        if isinstance(refusal, InvalidInput) or refused.code not in ("correction_breaks_rule", "correction_breaks_log"):
            assert refused.code == refusal.code
        else:
            assert refused.details["code"] == refusal.code
            assert refused.forceable == (refusal.forceable and not force)
        return
    assert refused is None, (command, refused.code, refused.message)
    again, numbers = expected
    same_match(match, again, numbers)
    no_secret_shows(match)
    replayed = Match.replay(match.header(), match.log)
    assert replayed.view() == match.view()
    assert replayed.events_view(hidden=True) == match.events_view(hidden=True)
    assert replayed.events_view() == match.events_view()
    # undone, the match is what it was
    match.play({"type": "undo"})
    assert {**match.view(), "seq": before["seq"]} == before


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_corrections_of_corrections_and_play_after_them(game, seed):
    """Several corrections in a row, some of earlier corrections, the table going on between them: each time the
    match is its entries logged again from scratch."""
    rng = random.Random(seed)
    match = random_match(game, rng, rng.randint(20, 120))
    for _ in range(6):
        if rng.random() < 0.3 and any(e["type"] == "correct" for e in match.log):
            named = rng.choice([e for e in match.log if e["type"] == "correct"])
            command = {"type": "correct", "seq": named["seq"], "remove": True}
        else:
            command = random_correction(match, rng)[0]
        outcome(lambda command=command: match.play(command))
        commands = [command_of(value) for value in match.entries.values()]
        again = Match.from_header(match.header())
        for said in commands:
            again.play(said)
        numbers = [value["seq"] for value in match.entries.values()]
        same_match(match, again, numbers)
        no_secret_shows(match)
    assert Match.replay(match.header(), match.log).view() == match.view()


# --- by hand --------------------------------------------------------------------------------------

def log_of(game: str, seed: int, until, known: float = 0.0) -> Match:
    """A random legal match of `game` (blind unless `known`) played until `until(match)`."""
    from game_tables import SIMULATORS

    spec = GAMES[game]
    match = Match.create(game, ["Ann", "Bob", "Cid", "Dan"][:max(spec.min_players, min(4, spec.max_players))], {}, "1")
    simulator = SIMULATORS[game](match, random.Random(seed), known=known)
    while not until(match):
        assert simulator.step() is not None
    return match


def logged(match: Match, commands: list[dict]) -> Match:
    again = Match.from_header(match.header())
    for command in commands:
        again.play(command)
    return again


def commands(match: Match) -> list[dict]:
    return [command_of(value) for value in match.entries.values()]


def trick_of(match: Match, seq: int) -> int | None:
    """The number of the trick (or round) the entry `seq` is in, in the deal being played."""
    deal = match.view()["deal"] or {}
    for trick in deal.get("tricks", []):
        if any(play["seq"] == seq for play in trick["plays"]):
            return trick["number"]
    for round_ in deal.get("rounds", []):
        if round_["seq"] == seq:
            return round_["number"]
    if "bouts" in deal:  # Durak's bouts: the entries since the deal, each `done` ending one
        entries = list(match.entries.values())
        since = max(n for n, entry in enumerate(entries) if entry["type"] == "deal")
        if entries[since]["seq"] < seq <= entries[-1]["seq"]:
            return 1 + sum(1 for entry in entries[since:] if entry["type"] == "done" and entry["seq"] < seq)
    return None


def in_trick_five(match: Match) -> bool:
    deal = match.view()["deal"]
    return deal is not None and (deal.get("trick") or len(deal.get("rounds", [])) or deal.get("bouts", 0) + 1) >= 5


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_mistyped_card_of_trick_two_noticed_in_trick_five(game):
    """The card of trick 2 was typed wrong, and the table played on; in trick 5 someone notices. The correction
    gives the match the table played, and the entries after it are not typed again."""
    for seed in range(40):
        right = log_of(game, seed, in_trick_five)
        said = commands(right)
        deal_at = max(n for n, c in enumerate(said) if c["type"] == "deal")
        early = [n for n, c in enumerate(said) if n > deal_at and c["type"] in ("play", "attack", "defend")
                 and trick_of(right, n + 1) == 2]
        for n in early:
            wrong = dict(said[n])
            field = "card" if "card" in wrong else "cards" if "cards" in wrong else "beats"
            rules = right.view()["rules"]
            deck = [rank + suit for rank in rules["ranks"] for suit in ("SHDC" if rules["suited"] else [""])]
            others = [other[field] for other in said[deal_at + 1:] if other.get("type") == wrong["type"]]
            for value in (deck if field == "card" else others):
                if value == wrong[field]:
                    continue
                typed = {**wrong, field: value}
                log = said[:n] + [typed] + said[n + 1:]
                mistyped, refused = outcome(lambda log=log, right=right: logged(right, log))
                if refused is not None:
                    continue
                event, warnings, findings = mistyped.play({"type": "correct", "seq": n + 1, "with": said[n]})
                assert event["corrects"] == n + 1 and event["was"]["seq"] == n + 1
                assert command_of(event["with"]) == said[n]
                assert {**mistyped.view(), "seq": right.seq} == right.view()
                shown = mistyped.events_view()
                assert shown[n]["corrected_by"] == event["seq"]
                as_typed = {key: value for key, value in command_of(shown[n]).items() if not key.endswith("_by")}
                assert as_typed == typed  # nothing deleted: the entry as typed, and its correction
                return
    pytest.fail(f"no {game} match of 40 had a card of trick 2 that could be mistyped")


def test_the_penalty_two_deals_back():
    """Ogórek: 5 minus points were given in deal 1 where the table said 3; two deals later it is corrected, and
    the minus points, the places and the money are the match's with 3."""
    def two_deals_on(match: Match) -> bool:
        return match.state.deals_played >= 3
    right = log_of("ogorek", 3, lambda match: match.state.deals_played >= 1 and match.state.deal.over)
    said = commands(right)
    penalty = {"type": "penalty", "seat": 2, "points": 3, "reason": "cut the deck"}
    table = logged(right, said + [penalty])
    from game_tables import SIMULATORS
    simulator = SIMULATORS["ogorek"](table, random.Random(9))
    while not two_deals_on(table):
        simulator.step()
    truth = commands(table)
    at = truth.index(penalty)
    typed = logged(right, truth[:at] + [{**penalty, "points": 5}] + truth[at + 1:])
    assert typed.view()["players"][2]["score"] == table.view()["players"][2]["score"] + 2
    event, _, _ = typed.play({"type": "correct", "seq": at + 1, "with": penalty})
    assert event["was"]["points"] == 5 and event["with"]["points"] == 3
    assert {**typed.view(), "seq": table.seq} == table.view()
    assert typed.settlement() == table.settlement()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_stray_card_and_the_forgotten_card(game):
    """The stray card: a card typed that no one played, just before the players ended the match; removed, the
    match is the one played. The forgotten card: the last card played before the end was never typed; inserted
    before the end, the match is the one played."""
    right = log_of(game, 1, in_trick_five)
    said = commands(right)
    end = {"type": "end"}
    played = logged(right, said + [end])
    without_last = logged(right, said[:-1] + [end])
    event, _, _ = without_last.play({"type": "correct", "before": len(said), "insert": said[-1]})
    assert event["insert"]["seq"] == event["seq"] == len(said) + 1
    assert {**without_last.view(), "seq": played.seq} == renumbered(played.view(), [
        value["seq"] for value in without_last.entries.values()])
    assert without_last.view()["deal"] == renumbered(played.view(), [
        value["seq"] for value in without_last.entries.values()])["deal"]

    expected = right.expected()
    rules = right.view()["rules"]
    deck = [rank + suit for rank in rules["ranks"] for suit in ("SHDC" if rules["suited"] else [""])]
    candidates = ([{"type": "play", "seat": expected["seat"], "card": card} for card in deck]
                  if expected["type"] == "play" else [c for c in said if c["type"] == expected["type"]])
    if expected["type"] == "attack":  # else a lead of any card (Durak's bout: the cards typed before are gone)
        candidates += [{"type": "attack", "seat": expected["seat"], "cards": [card]} for card in deck]
    typed = next(match for match, refused in (outcome(lambda c=c: logged(right, said + [c, end])) for c in candidates)
                 if refused is None)
    event, _, _ = typed.play({"type": "correct", "seq": len(said) + 1, "remove": True})
    assert event["remove"] is True and event["was"]["seq"] == len(said) + 1
    assert {**typed.view(), "seq": played.seq} == {**played.view(), "seq": played.seq}
    assert typed.events_view()[len(said)]["corrected_by"] == event["seq"]


def test_a_correction_a_later_entry_no_longer_fits_is_refused_naming_it():
    """Ogórek: the first card of trick 1 removed leaves the next card played out of turn: refused, naming that
    card and why, and nothing is recorded."""
    right = log_of("ogorek", 2, in_trick_five)
    said = commands(right)
    first = next(n for n, c in enumerate(said) if c["type"] == "play")
    before = right.view()
    with pytest.raises(Rejected) as refused:
        right.play({"type": "correct", "seq": first + 1, "remove": True})
    assert refused.value.code == "correction_breaks_log" and not refused.value.forceable
    assert refused.value.details == {"seq": first + 2, "code": "not_your_turn",
                                     "details": {"turn": said[first]["seat"]}}
    assert refused.value.seat == said[first + 1]["seat"]
    assert refused.value.message.startswith(f"After this correction event {first + 2} no longer fits: It is ")
    assert right.view() == before and right.seq == len(said)


def test_force_lets_a_later_play_stand_and_flags_it():
    """Oh Hell: a deal's hands corrected to one hand, with a card that a later play shows it did not hold: refused
    (`correction_breaks_rule`, forceable); with force it is recorded, the later play flagged, and the finding
    appears; undone, it goes."""
    right = log_of("oh_hell", 4, lambda match: match.state.deals_played >= 2 and bool(match.state.deal.tricks[0].plays),
                   known=1.0)
    said = commands(right)
    deal = max(n for n, c in enumerate(said) if c["type"] == "deal")
    hands = said[deal]["hands"]
    play = next(c for c in said[deal + 1:] if c["type"] == "play")
    seat, card = str(play["seat"]), play["card"]
    played = {c["card"] for c in said[deal + 1:] if c["type"] == "play"}
    swap = next(c for s, cards in hands.items() if s != seat for c in cards if c not in played)
    changed = {seat: [swap if c == card else c for c in hands[seat]]}  # only this hand entered, with a card wrong
    with pytest.raises(Rejected) as refused:
        right.play({"type": "correct", "seq": deal + 1, "with": {**said[deal], "hands": changed}})
    assert refused.value.code == "correction_breaks_rule" and refused.value.forceable
    assert refused.value.details["code"] in ("card_not_in_hand", "card_in_other_hand", "must_follow_suit",
                                             "must_trump")
    findings_before = right.view()["findings"]
    event, warnings, findings = right.play({"type": "correct", "seq": deal + 1, "force": True,
                                            "with": {**said[deal], "hands": changed}})
    assert event["flagged"] and all(n in [c["seq"] for c in event["changed"]] for n in event["flagged"])
    assert warnings and all(w["details"]["seq"] in event["flagged"] + [event["corrects"]] for w in warnings)
    assert findings and right.view()["findings"] != findings_before
    # the hands of the deal are secret: neither the hands as corrected nor as they were show without the key
    public = right.events_view(hidden=True)[-1]
    assert "hands" not in public["with"] and "hands" not in public["was"]
    right.play({"type": "undo"})
    assert right.view()["findings"] == findings_before


def test_what_cannot_be_corrected():
    match = log_of("ogorek", 5, in_trick_five)
    seq = match.seq
    match.play({"type": "undo"})
    for command, code, case in [
        ({"type": "correct", "seq": seq, "remove": True}, "not_correctable", "undone"),
        ({"type": "correct", "seq": seq + 1, "remove": True}, "not_correctable", "undo"),
        ({"type": "correct", "seq": 999, "remove": True}, "not_correctable", "unknown"),
    ]:
        with pytest.raises(Rejected) as refused:
            match.play(command)
        assert (refused.value.code, refused.value.details["case"]) == (code, case)
    for command in [{"type": "correct", "seq": 2}, {"type": "correct", "seq": 2, "remove": False},
                    {"type": "correct", "seq": 2, "with": {"type": "play"}, "remove": True},
                    {"type": "correct", "before": 2, "with": {"type": "end"}},
                    {"type": "correct", "seq": "2", "remove": True},
                    {"type": "correct", "seq": 2, "with": {"type": "undo"}},
                    {"type": "correct", "seq": 2, "with": {"type": "correct", "seq": 1, "remove": True}},
                    {"type": "correct", "seq": 2, "with": {"type": "play", "seat": 1, "card": "K", "bid": 2}}]:
        with pytest.raises(InvalidInput):
            match.play(command)
    assert match.seq == seq + 1


def test_a_removed_entry_is_put_back_by_removing_its_removal():
    match = log_of("ogurets", 6, in_trick_five)
    view = match.view()
    last = match.seq
    removal, _, _ = match.play({"type": "correct", "seq": last, "remove": True})
    with pytest.raises(Rejected) as refused:
        match.play({"type": "correct", "seq": last, "remove": True})
    assert refused.value.details["case"] == "removed"
    back, _, _ = match.play({"type": "correct", "seq": removal["seq"], "remove": True})
    assert back["amends"] == removal["seq"] and back["with"]["seq"] == last
    assert {**match.view(), "seq": view["seq"]} == view
    assert match.events_view()[last - 1]["corrected_by"] == back["seq"]
    assert match.events_view()[removal["seq"] - 1]["corrected_by"] == back["seq"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_early_correction_of_a_long_match_that_meets_it_again(game, monkeypatch):
    """A correction near the start of a long match folds the match as it was alongside and stops deciding once
    the two meet at the start of a deal: the match is still the log rebuilt with the change."""
    from referee import corrections

    met = []
    looked = corrections.standing

    def standing(game_, state):
        seen = looked(game_, state)
        met.append(seen)
        return seen

    monkeypatch.setattr(corrections, "standing", standing)
    rng = random.Random(sum(map(ord, game)))
    match = random_match(game, rng, 400)
    accepted = 0
    from correcting import random_command

    for value in list(match.entries.values())[1:30]:
        for put in (command_of(value), random_command(match, rng, value)):
            command = {"type": "correct", "seq": value["seq"], "with": put}
            expected, refusal = outcome(lambda put=put, value=value: rebuilt(match, "with", value["seq"], put))
            answer, refused = outcome(lambda command=command: match.play(command))
            assert (refusal is None) == (refused is None), (command, refusal, refused)
            if refused is None:
                accepted += 1
                same_match(match, *expected)
                match.play({"type": "undo"})
    assert accepted and met
