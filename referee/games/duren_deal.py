"""One deal of Dureń as the referee sees it: hand sizes, the stock, the discards and the cards whose place is known.

The referee sees only what is laid on the table. Still it knows exactly how many cards each player holds
and how many lie in the stock, which cards are discarded, and where some cards are: the cards a defender
picked up, the face-up card (it goes to whoever draws the last card of the stock), the card swapped for
the nine of trumps, the dealt hands when the table gave them, and, once the stock is gone and one hand is
fully known, every unseen card (it can only be in the other hand).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card, listed, show
from ..verdicts import Rejected

HAND_SIZE = 5
RANK_ORDER = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")

DEALT = "was dealt it"
PICKED_UP = "picked it up"
DREW_FACE_UP = "drew it as the last card of the stock"
SWAPPED = "swapped the nine of trumps for it"
LAST_UNSEEN = "must hold every card not yet seen"
HOW = {PICKED_UP: "picked_up", DREW_FACE_UP: "drew_face_up", SWAPPED: "swapped"}  # the words' cases
SECRET = (DEALT, LAST_UNSEEN)  # known from an entered hand: the table's secret, never named in a verdict


@dataclass
class Round:
    """One attack and its defence: what was laid, what beat what, what the defender took."""

    number: int
    attacker: int
    attack: list[Card]
    seq: int
    beats: list[tuple[Card, Card]] = field(default_factory=list)
    taken: list[Card] = field(default_factory=list)
    defended: bool = False

    def view(self) -> dict:
        return {
            "number": self.number,
            "attacker": self.attacker,
            "attack": [str(card) for card in self.attack],
            "beats": [{"card": str(card), "with": str(other)} for card, other in self.beats],
            "taken": [str(card) for card in self.taken],
            "defended": self.defended,
            "seq": self.seq,
        }


@dataclass
class DurenDeal:
    number: int
    dealer: int
    trump: Card  # the card turned face up at the deal: its suit is trump
    deck: frozenset[Card]
    names: list[str]
    stock: int  # cards in the stock, the face-up card included while it lies there
    face_up: Card  # the card lying face up under the stock (the nine, after an exchange)
    attacker: int
    hands: list[int] = field(default_factory=lambda: [HAND_SIZE, HAND_SIZE])
    known: list[dict[Card, str]] = field(default_factory=lambda: [{}, {}])  # seat -> card -> how we know
    discarded: list[Card] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    exchange: dict | None = None
    face_up_holder: int | None = None  # who drew the last card of the stock, and with it the face-up card
    over: bool = False
    result: dict | None = None

    @classmethod
    def dealt(cls, number: int, dealer: int, trump: Card, deck: frozenset[Card], hands: dict[int, list[Card]],
              names: list[str]) -> DurenDeal:
        deal = cls(number=number, dealer=dealer, trump=trump, deck=deck, names=names,
                   stock=len(deck) - 2 * HAND_SIZE, face_up=trump, attacker=1 - dealer)
        for seat, cards in hands.items():
            deal.known[seat] = {card: DEALT for card in cards}
        return deal

    # --- where things stand --------------------------------------------------------------------
    @property
    def trump_suit(self) -> str:
        return self.trump.suit

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    @property
    def awaiting_defence(self) -> bool:
        return bool(self.rounds) and not self.rounds[-1].defended

    @property
    def pending(self) -> Round:
        """The attack on the table, waiting for its defence."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    @property
    def table(self) -> list[Card]:
        return list(self.pending.attack) if self.awaiting_defence else []

    def turn(self) -> int | None:
        if self.over:
            return None
        return self.defender if self.awaiting_defence else self.attacker

    def free_slots(self, seat: int) -> int:
        """Cards in the seat's hand that are not known."""
        return self.hands[seat] - len(self.known[seat])

    def unseen(self) -> set[Card]:
        """Cards whose place is not known: in the stock or among the hands' unknown cards."""
        placed = set(self.discarded) | set(self.table) | set(self.known[0]) | set(self.known[1])
        if self.face_up_holder is None:
            placed.add(self.face_up)
        return set(self.deck) - placed

    # --- what cannot be ------------------------------------------------------------------------
    def misplaced(self, seat: int, card: Card) -> Rejected | None:
        """Why `card` cannot be in the seat's hand because it is known to lie elsewhere, or None."""
        other = 1 - seat
        if card in self.discarded:
            return Rejected("card_discarded", f"{card} was already beaten and discarded in this deal.", seat=seat,
                            details={"card": str(card)})
        if card in self.table:
            return Rejected("card_on_table", f"{card} lies on the table in this attack.", seat=seat,
                            details={"card": str(card)})
        if card == self.face_up and self.face_up_holder is None:
            return Rejected("card_under_stock", f"{card} lies face up under the stock; it is drawn last, "
                            f"with the stock's last card ({self.stock} left).", seat=seat,
                            details={"card": str(card), "stock": self.stock})
        if card in self.known[other]:
            name, how = self.names[other], self.known[other][card]
            why = "the hands entered say so" if how in SECRET else f"{name} {how}"
            return Rejected("card_in_other_hand", f"{card} is in {name}'s hand ({why}).", seat=seat,
                            details={"card": str(card), "holder": other, "case": HOW.get(how, "entered")})
        return None

    def check_holds(self, seat: int, cards: list[Card]) -> None:
        """Raise the rejection if the seat cannot be holding all of `cards` now."""
        for card in cards:
            wrong = self.misplaced(seat, card)
            if wrong:
                raise wrong
        name, held = self.names[seat], self.hands[seat]
        if len(cards) > held:
            raise Rejected("not_enough_cards", f"{name} holds {held} card{'s' * (held != 1)}, not {len(cards)}.",
                           seat=seat, details={"held": held, "size": len(cards)})
        unknown = [card for card in cards if card not in self.known[seat]]
        if len(unknown) > self.free_slots(seat):
            details = {"cards": listed(unknown)}
            if self.free_slots(seat) == 0:
                raise Rejected("card_not_held", f"{name}'s hand is known, and {show(unknown)} is not in it.",
                               seat=seat, details={**details, "case": "known"})
            raise Rejected("card_not_held", f"{name} holds {held} cards and {len(self.known[seat])} of them are "
                           f"known: {show(unknown)} cannot all be among the other {self.free_slots(seat)}.",
                           seat=seat, details={**details, "case": "too_many", "held": held,
                                               "known": len(self.known[seat]), "free": self.free_slots(seat)})

    def may_hold(self, seat: int, card: Card) -> bool:
        if card in self.known[seat]:
            return True
        return self.misplaced(seat, card) is None and self.free_slots(seat) > 0

    # --- what happens --------------------------------------------------------------------------
    def exchange_nine(self, seat: int, nine: Card) -> None:
        self.known[seat].pop(nine, None)
        self.known[seat][self.face_up] = SWAPPED
        self.exchange = {"seat": seat, "nine": str(nine), "face_up": str(self.face_up)}
        self.face_up = nine
        self.deduce()

    def attack(self, seat: int, cards: list[Card], seq: int) -> None:
        self.rounds.append(Round(self.round_number + 1, seat, list(cards), seq))
        for card in cards:
            self.known[seat].pop(card, None)
        self.hands[seat] -= len(cards)
        self.deduce()

    def defend(self, pairs: list[tuple[Card, Card]]) -> None:
        """Beaten pairs are discarded, the defender takes the rest, both draw (attacker first), the turn passes."""
        attack = self.pending
        defender = self.defender
        beaten = {card for card, _ in pairs}
        for card, other in pairs:
            self.known[defender].pop(other, None)
            self.discarded.extend((card, other))
        attack.beats = list(pairs)
        attack.taken = [card for card in attack.attack if card not in beaten]
        attack.defended = True
        self.hands[defender] += len(attack.taken) - len(pairs)
        for card in attack.taken:
            self.known[defender][card] = PICKED_UP
        self.draw(attack.attacker)
        self.draw(defender)
        if not attack.taken:
            self.attacker = defender
        self.deduce()
        if self.stock == 0 and 0 in self.hands:
            self.finish()

    def draw(self, seat: int) -> None:
        drawn = min(max(0, HAND_SIZE - self.hands[seat]), self.stock)
        self.hands[seat] += drawn
        self.stock -= drawn
        if drawn and self.stock == 0:
            self.face_up_holder = seat
            self.known[seat][self.face_up] = DREW_FACE_UP

    def deduce(self) -> None:
        """With the stock gone, a fully known hand means the other one holds every unseen card."""
        if self.stock:
            return
        for seat in (0, 1):
            other = 1 - seat
            if self.free_slots(seat) == 0 and self.free_slots(other) > 0:
                unseen = self.unseen()
                if len(unseen) == self.free_slots(other):
                    self.known[other].update({card: LAST_UNSEEN for card in unseen})

    def finish(self) -> None:
        holding = [seat for seat in (0, 1) if self.hands[seat]]
        self.over = True
        if holding:
            loser = holding[0]
            self.result = {"winner": 1 - loser, "loser": loser, "draw": False}
        else:
            self.result = {"winner": None, "loser": None, "draw": True}

    # --- the view ------------------------------------------------------------------------------
    def view(self) -> dict:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "trump": str(self.trump),
            "trump_suit": self.trump_suit,
            "face_up": str(self.face_up) if self.face_up_holder is None else None,
            "face_up_holder": self.face_up_holder,
            "stock": self.stock,
            "hand_sizes": {str(seat): self.hands[seat] for seat in (0, 1)},
            "attacker": None if self.over else self.attacker,
            "defender": None if self.over else self.defender,
            "turn": self.turn(),
            "round": self.round_number,
            "table": [str(card) for card in self.table],
            "rounds": [attack.view() for attack in self.rounds],
            "known": {str(seat): listed(self.known[seat]) for seat in (0, 1)},
            "discards": len(self.discarded),
            "discarded": listed(self.discarded),
            "exchange": dict(self.exchange) if self.exchange else None,
            "over": self.over,
            "result": dict(self.result) if self.result else None,
        }
