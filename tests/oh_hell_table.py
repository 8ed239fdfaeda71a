"""A simulated Oh Hell table for the tests: a real shuffled deck, legal bids and plays, its own score sheet.

The table knows every hand (the referee does only when told) and keeps its own count of tricks and points,
worked out independently of the engine, so tests can hold the engine's figures against it.
"""

from __future__ import annotations

import random

from referee import Match

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
        event, _, _ = self.match.play(command)
        return event

    def bid(self) -> dict:
        expected = self.match.expected()
        seat = expected["seat"] if expected["seat"] is not None else self.rng.choice(expected["seats"])
        bid = self.rng.choice(expected["allowed"])
        self.bids[seat] = bid
        event, _, _ = self.match.play({"type": "bid", "seat": seat, "bid": bid})
        return event

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
        event, _, _ = self.match.play(command)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) == self.players:
            self.taken[winner(self.trick, self.trump)] += 1
            self.trick = []
            if not any(self.hands.values()):
                for seat in range(self.players):
                    self.totals[seat] += points(self.bids[seat], self.taken[seat], self.size, self.match.options)
        return event

    def step(self) -> dict:
        kind = self.match.expected()["type"]
        return {"deal": self.deal, "bid": self.bid, "play": self.play}[kind]()

    def play_out(self) -> None:
        while self.match.expected() is not None:
            self.step()
