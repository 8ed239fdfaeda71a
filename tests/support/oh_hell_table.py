"""Oh Hell at a table, for the tests: a hand-worked match of three, and a simulated table.

The simulated table deals a real shuffled deck and bids and plays legally (unless told otherwise). It
knows every hand (the referee does only when told) and keeps its own count of tricks and points, worked
out independently of the engine, so tests can hold the engine's figures against it.
"""

from __future__ import annotations

import random

import pytest

from referee import Match, Rejected

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]

# A hand-worked match of three players, two hands: hand 1 (Ann deals, 9H turned: trump hearts) and hand 2
# (Bob deals, the last hand: no trump). The cards of each seat in hand 1, in the order they are played.
HAND_1 = {"1": ["KS", "2D", "10H"], "2": ["2H", "5D", "3C"], "0": ["AS", "9C", "4H"]}


def new(players: int = 3, **options) -> Match:
    return Match.create("oh_hell", NAMES[:players], options)


def play(match: Match, seat: int, card: str, **extra):
    return match.play({"type": "play", "seat": seat, "card": card, **extra})


def bid(match: Match, seat: int, tricks: int, **extra):
    return match.play({"type": "bid", "seat": seat, "bid": tricks, **extra})


def rejection(match: Match, command: dict) -> Rejected:
    seq = match.seq
    with pytest.raises(Rejected) as info:
        match.play(command)
    assert match.seq == seq, "a rejected event is not recorded"
    return info.value


def first_hand(match: Match, known: bool = False, bids=(1, 1, 1)) -> None:
    """Deal hand 1 (Ann deals, 9H turned) and bid Bob, Cid, Ann."""
    command = {"type": "deal", "dealer": 0, "trump": "9H"}
    if known:
        command["hands"] = HAND_1
    match.play(command)
    for seat, tricks in zip((1, 2, 0), bids, strict=True):
        bid(match, seat, tricks)


def play_first_hand(match: Match) -> None:
    for seat, card in [(1, "KS"), (2, "2H"), (0, "AS"),   # Cid trumps the spade lead
                       (2, "5D"), (0, "9C"), (1, "2D"),   # Ann discards a club: the 5 of the suit led wins
                       (2, "3C"), (0, "4H"), (1, "10H")]:  # Bob over-trumps Ann
        play(match, seat, card)


def play_second_hand(match: Match, bids=(1, 0, 1)) -> None:
    match.play({"type": "deal"})
    for seat, tricks in zip((2, 0, 1), bids, strict=True):
        bid(match, seat, tricks)
    for seat, card in [(2, "4C"), (0, "AS"), (1, "2C"),   # no trump: Ann's ace of spades takes nothing
                       (2, "7D"), (0, "KH"), (1, "8D")]:
        play(match, seat, card)


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


def legal(held: list[str], led: str | None, trump: str | None, must_trump: bool) -> list[str]:
    """The cards a player may play: follow suit, else (must_trump) a trump, else any."""
    if led is None:
        return list(held)
    follow = [card for card in held if suit(card) == led]
    if follow:
        return follow
    trumps = [card for card in held if suit(card) == trump] if must_trump and trump else []
    return trumps or list(held)


def winner(plays: list[tuple[int, str]], trump: str | None) -> int:
    led = suit(plays[0][1])
    trumps = [play for play in plays if suit(play[1]) == trump]
    contenders = trumps or [play for play in plays if suit(play[1]) == led]
    return max(contenders, key=lambda play: rank(play[1]))[0]


def points(bid: int, taken: int, size: int, options: dict) -> int:
    if bid == taken:
        return 5 + size if bid == 0 and options["zero_bid_bonus"] else 10 + taken
    return taken if options["miss_scores_tricks"] else 0


class SimTable:
    """Deals, bids and plays a match of `oh_hell` through `Match.play`, legally unless told otherwise."""

    def __init__(self, match: Match, rng: random.Random, known: float = 0.0, first_dealer: int = 0):
        self.match = match
        self.rng = rng
        self.known = known  # the chance that a seat's hand is given to the referee in a deal
        self.told: set[int] = set()
        self.first_dealer = first_dealer
        self.players = len(match.players)
        self.hands: dict[int, list[str]] = {}
        self.trump: str | None = None
        self.trick: list[tuple[int, str]] = []
        self.bids: dict[int, int] = {}
        self.taken = [0] * self.players
        self.size = 0
        self.totals = [0] * self.players
        self.sizes: list[int] = []
        self.turned: list[bool] = []

    @property
    def must_trump(self) -> bool:
        return self.match.options["must_trump"]

    def deal(self) -> dict:
        expected = self.match.expected()
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.size = expected["cards"]
        self.sizes.append(self.size)
        self.turned.append(expected["turn_trump"])
        dealer = expected["dealer"] if expected["dealer"] is not None else self.first_dealer
        self.hands = {(dealer + 1 + i) % self.players: deck[i * self.size:(i + 1) * self.size]
                      for i in range(self.players)}
        trump_card = deck[self.players * self.size] if expected["turn_trump"] else None
        self.trump = suit(trump_card) if trump_card else None
        self.bids, self.taken, self.trick = {}, [0] * self.players, []
        command = {"type": "deal", "dealer": dealer, "trump": trump_card}
        self.told = {seat for seat in self.hands if self.rng.random() < self.known}
        if self.told:
            command["hands"] = {str(seat): list(self.hands[seat]) for seat in self.told}
        return self.send(command)

    def bid(self) -> dict:
        expected = self.match.expected()
        seat = expected["seat"] if expected["seat"] is not None else self.rng.choice(expected["seats"])
        bid = self.rng.choice(expected["allowed"])
        self.bids[seat] = bid
        return self.send({"type": "bid", "seat": seat, "bid": bid})

    def choices(self) -> tuple[int, list[str]]:
        """The seat to play and its legal cards."""
        seat = self.match.expected()["seat"]
        led = suit(self.trick[0][1]) if self.trick else None
        return seat, legal(self.hands[seat], led, self.trump, self.must_trump)

    def illegal_choices(self) -> tuple[int, list[str]]:
        """The seat to play and the cards it holds that it may not play now."""
        seat, cards = self.choices()
        return seat, [card for card in self.hands[seat] if card not in cards]

    def play(self, card: str | None = None, force: bool = False) -> dict:
        seat, cards = self.choices()
        card = card or self.rng.choice(cards)
        assert card in self.hands[seat]
        command = {"type": "play", "seat": seat, "card": card}
        if force:
            command["force"] = True
        event = self.send(command)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) == self.players:
            self.taken[winner(self.trick, self.trump)] += 1
            self.trick = []
            if not any(self.hands.values()):
                for seat in range(self.players):
                    self.totals[seat] += points(self.bids[seat], self.taken[seat], self.size, self.match.options)
        return event

    def send(self, command: dict) -> dict:
        """Logs `command`; answers the event recorded."""
        self.sent = command
        event, _, _ = self.match.play(command)
        return event

    def step(self) -> dict:
        """Logs the table's next event; answers the command it sent."""
        kind = self.match.expected()["type"]
        {"deal": self.deal, "bid": self.bid, "play": self.play}[kind]()
        return self.sent

    def play_out(self) -> None:
        while self.match.expected() is not None:
            self.step()
