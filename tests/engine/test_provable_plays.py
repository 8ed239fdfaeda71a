"""Every illegal play is refused, or found, at the first event after which no hand consistent with what the table
has seen makes it legal; no legal play is ever refused or found (issue 29).

Random deals of every trick game of the registry (`referee.GAMES`; Dureń's refusals are about cards whose place
is known, tested in its own files), with random options, some hands entered, one mistake injected per deal. The
reference is brute force, written apart from the engine: after each event it enumerates every hand the player of
the mistake could still hold (every multiset of the unseen ranks of the right size in the climbing games; in Oh
Hell, whose legality depends only on the suits a hand holds, every count of cards per suit the unseen cards allow,
each with cards of the pool), completes it into the hand held at the mistake (the card played, the player's
later cards, that hand), checks that the rest of the unseen cards can fill the other hands not known, and asks
the game's own oracle (below, from RULES.md) whether the play was legal with it. The mistake is provable once no
such hand makes it legal; in Oh Hell the finding also names its rule, so it is due once every such hand breaks the
same rule (following suit before trumping, as a hand entered is judged).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from per_game import PerGame

from referee import GAMES, Match, Rejected
from referee.cards import RANKS, deck
from referee.games.tricks import TrickGame

TRICK_GAMES = sorted(name for name, game in GAMES.items() if isinstance(game, TrickGame))
RANK_ORDERS = PerGame("RANK_ORDERS in tests/engine/test_provable_plays.py", "its order of play (lowest first, from "
                      "RULES.md), and its own rules in `climbing_legal`",
                      {"ogorek": RANKS, "agurk": RANKS, "ogurets": ("A", *RANKS[:-1], "X")})
"""The oracle's order of play of each climbing game (a suited game is judged by `suit_verdict`)."""
NAMES = ["P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"]
LEGAL, FOLLOW, TRUMP, BROKEN = "legal", "must_follow_suit", "must_trump", "broken"


# --- the oracles: what RULES.md allows, by hand -----------------------------------------------------

def climbing_legal(game: str, options: dict, hand: list[str], table: list[str]) -> set[str]:
    """The ranks of `hand` that may be played onto the trick `table` (ranks in order of play)."""
    place = RANK_ORDERS[game].index
    cards = sorted(set(hand), key=place)
    if not table:
        return set(cards)
    top = max(table, key=place)
    locked = False
    if game == "ogurets" and options["top_card_rule"]:
        if options["jokers"] and options["joker_overtakes_king"]:
            locked = top == "X"
        else:  # a king that was the highest card on the table when played locks the trick
            locked = any(card == "K" and all(place(before) <= place("K") for before in table[:at])
                         for at, card in enumerate(table))
    if game == "agurk" and options["ace_led_lowest"] and table[0] == "A":
        locked = True
    if locked:
        return {cards[0]}
    return {card for card in cards if place(card) >= place(top)} or {cards[0]}


def suit_verdict(hand: list[str], card: str, led: str | None, trump: str | None, must_trump: bool) -> str:
    """Oh Hell: whether playing `card` from `hand` is legal, else the rule it breaks (follow suit first)."""
    suits = {held[-1] for held in hand}
    if led is None or card[-1] == led:
        return LEGAL
    if led in suits:
        return FOLLOW
    if must_trump and trump and trump in suits and card[-1] != trump:
        return TRUMP
    return LEGAL


# --- a deal as the table knows it -----------------------------------------------------------------

class Table:
    """The true hands, and what the referee was told: the hands entered, the cards played, the turned card."""

    def __init__(self, match: Match, rng: random.Random):
        self.match, self.rng = match, rng
        self.game = match.game.name
        self.suited = match.game.suited
        self.copies = Counter(str(card) for card in deck(match.game.deck_size(match.options), suited=self.suited))

    def deal(self, known_share: float) -> None:
        match, rng = self.match, self.rng
        expected = match.expected()
        number = expected["deal"]
        size = expected["cards"]
        cards = [card for card, count in self.copies.items() for _ in range(count)]
        rng.shuffle(cards)
        seats = [seat for seat in range(len(match.players)) if not match.state.out[seat]]
        self.hands = {seat: cards[at * size:(at + 1) * size] for at, seat in enumerate(seats)}
        rest = cards[len(seats) * size:]
        self.known = {seat for seat in seats if rng.random() < known_share}
        command = {"type": "deal", "dealer": expected["dealer"] if expected["dealer"] is not None else seats[0]}
        if self.known:
            command["hands"] = {str(seat): list(self.hands[seat]) for seat in self.known}
        self.turned = None
        if expected.get("turn_trump"):
            self.turned = rest[0]
            command["trump"] = self.turned
        match.play(command)
        self.number = number
        self.played: list[tuple[int, str]] = []  # (seat, card) in this deal
        while match.expected()["type"] == "bid":
            bidding = match.expected()
            seat = bidding["seat"] if bidding["seat"] is not None else bidding["seats"][0]
            match.play({"type": "bid", "seat": seat, "bid": rng.choice(bidding["allowed"])})

    def trick(self) -> list[str]:
        return [play["card"] for play in self.match.view()["deal"]["table"]]

    def legal(self, seat: int) -> set[str]:
        hand = self.hands[seat]
        table = self.trick()
        if not self.suited:
            return climbing_legal(self.game, self.match.options, hand, table)
        led = table[0][-1] if table else None
        trump = self.match.state.deal.trump
        return {card for card in hand
                if suit_verdict(hand, card, led, trump, self.match.options["must_trump"]) == LEGAL}

    def pool(self) -> Counter:
        """The unseen cards: neither played, nor in a hand entered, nor turned up."""
        unseen = Counter(self.copies)
        unseen.subtract(card for _, card in self.played)
        for seat in self.known:
            unseen.subtract(self.hands[seat])
        if self.turned:
            unseen[self.turned] -= 1
        assert all(count >= 0 for count in unseen.values())
        return +unseen


class Mistake:
    """An illegal play and what the reference needs to judge it again: the trick it met, its player's later
    cards."""

    def __init__(self, table: Table, seat: int, card: str, seq: int | None = None):
        self.table, self.seat, self.card, self.seq = table, seat, card, seq
        self.on = table.trick()
        deal = table.match.state.deal
        self.led = self.on[0][-1] if self.on and table.suited else None
        self.trump = getattr(deal, "trump", None)
        self.later: list[str] = []

    def verdict(self, hand: list[str]) -> str:
        """What the play was, had the player held `hand` (the card played, the later cards and the rest)."""
        table = self.table
        if not table.suited:
            return LEGAL if self.card in climbing_legal(table.game, table.match.options, hand, self.on) else BROKEN
        return suit_verdict(hand, self.card, self.led, self.trump, table.match.options["must_trump"])

    def proven(self) -> str | None:
        """The rule every hand consistent with what is seen now breaks, or None while some hand makes the play
        legal (or, in Oh Hell, while the hands left break different rules)."""
        table = self.table
        left = {seat: len(hand) for seat, hand in table.hands.items()}
        if self.seat in table.known:
            candidates = [list(table.hands[self.seat])]
        else:
            pool = table.pool()
            others = sum(count for seat, count in left.items() if seat not in table.known and seat != self.seat)
            assert sum(pool.values()) - left[self.seat] >= others, "the other hands can always be filled"
            candidates = hands_of(pool, left[self.seat], by_suit=table.suited)
        seen = set()
        for rest in candidates:
            seen.add(self.verdict([self.card, *self.later, *rest]))
            if LEGAL in seen or len(seen) > 1:
                return None
        (rule,) = seen
        return rule


def hands_of(pool: Counter, size: int, by_suit: bool):
    """Every hand of `size` cards the pool can hold: each multiset of its ranks; by suit, each count of cards per
    suit, with cards of the pool of those suits (in Oh Hell a play's legality depends on the suits held only)."""
    if by_suit:
        groups: dict[str, list[str]] = {}
        for card in sorted(pool):
            groups.setdefault(card[-1], []).extend([card] * pool[card])
        kinds = [(suit, len(cards)) for suit, cards in sorted(groups.items())]
    else:
        kinds = sorted(pool.items())

    def pick(at: int, need: int):
        if need == 0:
            yield []
            return
        if at == len(kinds):
            return
        kind, most = kinds[at]
        for take in range(min(most, need), -1, -1):
            for tail in pick(at + 1, need - take):
                yield ([*groups[kind][:take]] if by_suit else [kind] * take) + tail

    return pick(0, size)


# --- the property -----------------------------------------------------------------------------------

def random_options(game, rng: random.Random, players: int) -> dict:
    options = {}
    for option in game.options:
        if option.kind == "boolean":
            options[option.name] = rng.random() < 0.5
        elif option.kind == "sequence":
            top = 52 // players
            options[option.name] = [rng.choice([top, rng.randint(1, top)]) for _ in range(rng.randint(1, 2))]
        elif option.choices:
            options[option.name] = rng.choice(option.choices)
    return options


@pytest.mark.parametrize("game", [name for name in TRICK_GAMES if not GAMES[name].suited])
def test_the_oracle_knows_the_order_of_play_of_every_climbing_game(game):
    ranks = GAMES[game].rules({option.name: option.default for option in GAMES[game].options}, 2)["ranks"]
    assert [rank for rank in RANK_ORDERS[game] if rank in ranks] == ranks


@pytest.mark.parametrize("game", TRICK_GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mistake_is_refused_or_found_exactly_when_no_consistent_hand_makes_it_legal(game, data):
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    the_game = GAMES[game]
    players = data.draw(st.integers(the_game.min_players, the_game.max_players), label="players")
    match = Match.create(game, NAMES[:players], random_options(the_game, rng, players))
    table = Table(match, rng)
    for _ in range(2):
        if match.view()["status"] != "playing":
            break
        table.deal(rng.choice([0.0, 0.3, 0.7]))
        play_deal(table, rng)


def play_deal(table: Table, rng: random.Random) -> None:
    match = table.match
    steps = sum(len(hand) for hand in table.hands.values())
    inject_at = rng.randrange(steps)
    mistake: Mistake | None = None
    found_at: int | None = None
    for step in range(steps):
        expected = match.expected()
        seat = expected["seat"]
        legal = table.legal(seat)
        wrong = sorted(set(table.hands[seat]) - legal)
        if mistake is None and step >= inject_at and wrong:
            card = rng.choice(wrong)
            mistake = Mistake(table, seat, card)
            command = {"type": "play", "seat": seat, "card": card}
            table.hands[seat].remove(card)
            table.played.append((seat, card))
            due = mistake.proven()  # the reference at the moment of entry
            table.hands[seat].append(card)
            table.played.pop()
            try:
                match.decide(command)
                refused = None
            except Rejected as error:
                refused = error
            if due is None:
                assert refused is None, (refused.code, refused.message) if refused else None
            else:
                assert refused is not None, f"{card} by {seat} on {mistake.on} was provably illegal at entry"
                assert refused.forceable
                assert refused.code == due if table.suited else refused.code in ("must_play_higher",
                                                                                 "must_play_lowest")
                command["force"] = True
            played, _, findings = match.play(command)
            mistake.seq = played["seq"]
            if due is not None:
                found_at = played["seq"]
                assert [(f.seq, f.proof_seq) for f in findings] == [(played["seq"], played["seq"])]
            else:
                assert findings == []
            table.hands[seat].remove(card)
            table.played.append((seat, card))
            event("refused at entry" if due else "accepted blind")
            continue
        card = rng.choice(sorted(legal))
        played, warnings, findings = match.play({"type": "play", "seat": seat, "card": card})
        assert warnings == [], "a legal play is never refused"
        table.hands[seat].remove(card)
        table.played.append((seat, card))
        if mistake is not None and seat == mistake.seat:
            mistake.later.append(card)
        due = mistake.proven() if mistake is not None and found_at is None else None
        if due is not None:
            found_at = played["seq"]
            assert [(f.seq, f.code if table.suited else "climb") for f in findings] == [
                (mistake.seq, due if table.suited else "climb")], (mistake.card, mistake.on, findings)
            event("found later")
        else:
            assert findings == [], (findings, mistake and (mistake.card, mistake.on, mistake.later))
    if mistake is not None:
        assert found_at is not None, "every card is played by the end of the deal: the mistake is proven"
        codes = [finding["code"] for finding in match.view()["findings"] if finding["seq"] == mistake.seq]
        assert len(codes) == 1
    assert match.state.deal.over
