"""Ogórek at a table, for the tests: shuffled decks, real hands, every play logged through `Match.play`.

The table keeps its own hands and its own reading of RULES.md §1 (`legal` cards, the last trick's
penalty), written apart from the engine, so tests can hold the referee's verdicts and scores against it.
"""

from __future__ import annotations

from referee import Match
from referee.cards import RANKS

ORDER = {rank: i for i, rank in enumerate(RANKS)}
FACE = {"J": 11, "Q": 12, "K": 13}


def legal(hand, trick):
    """The cards of `hand` that may go on `trick`: equal or higher than its highest card, else the lowest."""
    if not trick:
        return sorted(set(hand), key=ORDER.get)
    top = max(ORDER[card] for card in trick)
    reaching = sorted({card for card in hand if ORDER[card] >= top}, key=ORDER.get)
    return reaching or [min(hand, key=ORDER.get)]


def illegal(hand, trick):
    return sorted(set(hand) - set(legal(hand, trick)), key=ORDER.get)


def value(card, ace_penalty):
    return ace_penalty if card == "A" else FACE.get(card) or int(card)


class Table:
    """One match at a table: it shuffles, deals, and logs every card through `Match.play`."""

    def __init__(self, rng, players, options, stake, known):
        self.rng = rng
        self.known = known
        self.match = Match.create("ogorek", [f"P{i}" for i in range(players)], options, stake)
        self.scores = [0] * players
        self.hands = {}
        self.seats = []
        self.trick = []  # (seat, card) of the trick being played
        self.tricks_left = 0
        self.deals = 0
        self.dealer = None

    def penalty(self):
        seats = self.match.state.seats_in()
        seat = self.rng.choice(seats)
        points = self.rng.randint(1, 12)
        self.match.play({"type": "penalty", "seat": seat, "points": points})
        self.scores[seat] += points

    def deal(self):
        """Shuffle and deal six cards to each player in, from the dealer's left; log the deal."""
        state = self.match.state
        seats_in = state.seats_in()
        n = len(state.names)
        if self.dealer is None:
            drawn = self.rng.randrange(len(seats_in))
            dealer, lot = seats_in[drawn], lambda bound: drawn
        else:
            dealer = next(seat for seat in [(self.dealer + k) % n for k in range(1, n + 1)] if seat in seats_in)
            lot = None
        seats = [seat for seat in [(dealer + k) % n for k in range(1, n + 1)] if seat in seats_in]
        deck = [rank for rank in RANKS for _ in range(4)]
        self.rng.shuffle(deck)
        self.hands = {seat: deck[6 * i:6 * i + 6] for i, seat in enumerate(seats)}
        command = {"type": "deal"}
        if self.known:
            command["hands"] = {str(seat): list(hand) for seat, hand in self.hands.items()}
        event, warnings, _ = self.match.play(command, lot=lot)
        assert warnings == []
        assert event["dealer"] == dealer and state.deal.seats == seats
        self.dealer = dealer
        self.seats = seats
        self.trick = []
        self.tricks_left = 6
        self.deals += 1
        return event

    @property
    def on_table(self):
        return [card for _, card in self.trick]

    @property
    def over(self):
        return self.tricks_left == 0

    def play(self, card, seat=None, **extra):
        seat = self.turn() if seat is None else seat
        event, warnings, findings = self.match.play({"type": "play", "seat": seat, "card": card, **extra})
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) == len(self.seats):
            self.tricks_left -= 1
            if self.over:
                top = max(self.on_table, key=ORDER.get)
                for loser, last in self.trick:
                    if last == top:
                        self.scores[loser] += value(top, self.match.options["ace_penalty"])
            self.trick = []
        assert self.match.state.deal.over == self.over
        return event, warnings, findings

    def turn(self):
        return self.match.expected()["seat"]

    def play_legal(self):
        expected = self.match.expected()
        seat = expected["seat"]
        cards = legal(self.hands[seat], self.on_table)
        if self.known:
            assert expected["legal"] == cards
        event, warnings, findings = self.play(self.rng.choice(cards), seat)
        assert warnings == [] and findings == []
        return event

    def play_deal(self):
        self.deal()
        while not self.over:
            if self.rng.random() < 0.01:
                self.penalty()
            self.play_legal()

    def play_match(self):
        while not self.match.state.finished:
            assert self.match.state.deals_played < 500
            if self.rng.random() < 0.1:
                self.penalty()
                continue
            self.play_deal()
        return self.match
