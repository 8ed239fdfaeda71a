"""One deal of Durak (RULES.md §6) as the referee sees it: hand sizes, the talon, the bout on the table, the
discards and every card whose place is known.

The referee sees only what is laid on the table. Still it knows how many cards each player holds (six dealt,
the draws in the rule's order, the cards laid, taken and discarded), how many lie in the talon, which cards are
discarded, and where some cards are: the cards a defender took, the turned trump (under the talon until whoever
draws the talon's last card; the dealer's own card when the deal uses the whole pack), the dealt hands when the
table gave them, and, once the talon is gone and every hand but one is fully known, every unseen card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card, listed, show
from ..verdicts import Rejected

HAND_SIZE = 6
BOUT_CAP = 6
FIRST_BOUT_CAP = 5

DEALT = "was dealt it"
TAKEN = "took it"
DREW_TRUMP = "drew the turned trump with the talon's last card"
SHOWN = "was dealt the turned trump as the last card of the pack"
LAST_UNSEEN = "must hold every card not yet seen"
HOW = {TAKEN: "taken", DREW_TRUMP: "drew_trump", SHOWN: "shown"}  # the words' cases
SECRET = (DEALT, LAST_UNSEEN)  # known from an entered hand: the table's secret, never named in a verdict


@dataclass
class Attack:
    """An attacking card on the table: who laid it, and what beat it (None while unbeaten)."""

    card: Card
    seat: int
    beaten_by: Card | None = None

    def view(self) -> dict:
        return {"card": str(self.card), "seat": self.seat,
                "beaten_by": None if self.beaten_by is None else str(self.beaten_by)}


@dataclass
class Bout:
    """The bout on the table: who led it, who attacks and defends now, its cards, its limit, whether "I take" was
    said."""

    number: int
    leader: int
    attacker: int  # the leader, or the last player who transferred
    defender: int
    limit: int
    attacks: list[Attack] = field(default_factory=list)
    taking: bool = False
    transfers: int = 0

    @property
    def cards(self) -> list[Card]:
        """Every card on the table: attacking and beating."""
        return [a.card for a in self.attacks] + [a.beaten_by for a in self.attacks if a.beaten_by is not None]

    @property
    def ranks(self) -> set[str]:
        return {card.rank for card in self.cards}

    @property
    def unbeaten(self) -> list[Card]:
        return [a.card for a in self.attacks if a.beaten_by is None]

    @property
    def beaten_any(self) -> bool:
        return any(a.beaten_by is not None for a in self.attacks)

    def find(self, card: Card) -> Attack | None:
        return next((a for a in self.attacks if a.card == card), None)

    def view(self) -> dict:
        return {"number": self.number, "leader": self.leader, "attacker": self.attacker, "defender": self.defender,
                "limit": self.limit, "attacks": [a.view() for a in self.attacks], "taking": self.taking,
                "transfers": self.transfers}


@dataclass
class DurakDeal:
    number: int
    dealer: int
    trump: Card  # the card turned at the deal: its suit is trump
    deck: frozenset[Card]
    names: list[str]
    talon: int  # cards in the talon, the turned trump included while it lies there
    attacker: int  # who leads the next bout (who led the bout on the table)
    first_cap: int
    hands: list[int]
    known: list[dict[Card, str]]
    trump_holder: int | None = None  # who drew the turned trump (the dealer, when the deal used the whole pack)
    discarded: list[Card] = field(default_factory=list)
    bout: Bout | None = None
    bouts: int = 0  # bouts ended so far
    last_bout: dict | None = None
    out: list[int] = field(default_factory=list)  # seats out of the deal (safe), in the order they went out
    over: bool = False
    result: dict | None = None

    @classmethod
    def dealt(cls, number: int, dealer: int, trump: Card, deck: frozenset[Card], hands: dict[int, list[Card]],
              names: list[str], attacker: int, first_cap: int) -> DurakDeal:
        n = len(names)
        deal = cls(number=number, dealer=dealer, trump=trump, deck=deck, names=names,
                   talon=len(deck) - HAND_SIZE * n, attacker=attacker, first_cap=first_cap,
                   hands=[HAND_SIZE] * n, known=[{} for _ in range(n)])
        for seat, cards in hands.items():
            deal.known[seat] = {card: DEALT for card in cards}
        if deal.talon == 0:  # the whole pack: the dealer's last card is shown and names the trump
            deal.trump_holder = dealer
            deal.known[dealer][trump] = SHOWN
        deal.deduce()
        return deal

    # --- where things stand --------------------------------------------------------------------
    @property
    def trump_suit(self) -> str:
        return self.trump.suit

    @property
    def seats(self) -> range:
        return range(len(self.names))

    def holding(self) -> list[int]:
        return [seat for seat in self.seats if self.hands[seat] > 0]

    def next_holding(self, seat: int, skip: frozenset[int] = frozenset()) -> int | None:
        """The next seat clockwise from `seat` still holding cards (not `seat` itself, nor those in `skip`)."""
        n = len(self.names)
        for step in range(1, n):
            other = (seat + step) % n
            if self.hands[other] > 0 and other not in skip:
                return other
        return None

    @property
    def defender(self) -> int | None:
        if self.over:
            return None
        if self.bout is not None:
            return self.bout.defender
        return self.next_holding(self.attacker)

    def limit_for(self, defender: int) -> int:
        """The most attacking cards a bout against `defender` holds now."""
        cap = self.first_cap if self.bouts == 0 else BOUT_CAP
        return min(cap, self.hands[defender])

    def free_slots(self, seat: int) -> int:
        """Cards in the seat's hand that are not known."""
        return self.hands[seat] - len(self.known[seat])

    def on_table(self) -> list[Card]:
        return self.bout.cards if self.bout is not None else []

    def unseen(self) -> set[Card]:
        """Cards whose place is not known: in the talon or among the hands' unknown cards."""
        placed = set(self.discarded) | set(self.on_table())
        for known in self.known:
            placed |= set(known)
        if self.trump_holder is None:
            placed.add(self.trump)
        return set(self.deck) - placed

    # --- what cannot be ------------------------------------------------------------------------
    def misplaced(self, seat: int, card: Card) -> Rejected | None:
        """Why `card` cannot be in the seat's hand because it is known to lie elsewhere, or None."""
        if card in self.discarded:
            return Rejected("card_discarded", f"{card} was already beaten and discarded in this deal.", seat=seat,
                            details={"card": str(card)})
        if card in self.on_table():
            return Rejected("card_on_table", f"{card} lies on the table in this bout.", seat=seat,
                            details={"card": str(card)})
        if card == self.trump and self.trump_holder is None:
            return Rejected("card_under_stock", f"{card} is the turned trump under the talon; it is drawn last, "
                            f"with the talon's last card ({self.talon} left).", seat=seat,
                            details={"card": str(card), "stock": self.talon})
        for other in self.seats:
            if other != seat and card in self.known[other]:
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
        free = self.free_slots(seat)
        if len(unknown) > free:
            details = {"cards": listed(unknown)}
            if free == 0:
                raise Rejected("card_not_held", f"{name}'s hand is known, and {show(unknown)} is not in it.",
                               seat=seat, details={**details, "case": "known"})
            raise Rejected("card_not_held", f"{name} holds {held} cards and {len(self.known[seat])} of them are "
                           f"known: {show(unknown)} cannot all be among the other {free}.",
                           seat=seat, details={**details, "case": "too_many", "held": held,
                                               "known": len(self.known[seat]), "free": free})

    # --- what happens --------------------------------------------------------------------------
    def lay(self, seat: int, cards: list[Card]) -> None:
        for card in cards:
            self.known[seat].pop(card, None)
        self.hands[seat] -= len(cards)

    def lead(self, seat: int, cards: list[Card]) -> None:
        defender = self.next_holding(seat)
        self.bout = Bout(self.bouts + 1, seat, seat, defender, self.limit_for(defender))
        self.throw_in(seat, cards)

    def throw_in(self, seat: int, cards: list[Card]) -> None:
        self.lay(seat, cards)
        self.bout.attacks.extend(Attack(card, seat) for card in cards)

    def beat(self, seat: int, pairs: list[tuple[Card, Card]]) -> None:
        self.lay(seat, [other for _, other in pairs])
        for card, other in pairs:
            self.bout.find(card).beaten_by = other

    def transfer(self, seat: int, cards: list[Card]) -> None:
        bout = self.bout
        self.lay(seat, cards)
        bout.attacks.extend(Attack(card, seat) for card in cards)
        bout.attacker = seat
        bout.defender = self.next_holding(seat)
        bout.limit = self.limit_for(bout.defender)
        bout.transfers += 1

    def take(self) -> None:
        self.bout.taking = True

    def end_bout(self) -> None:
        """`done`: the bout's cards discarded or taken, the draws in the rule's order, who is out, who attacks next,
        and whether the deal is over."""
        bout = self.bout
        defender = bout.defender
        if bout.taking:
            for card in bout.cards:
                self.known[defender][card] = TAKEN
            self.hands[defender] += len(bout.cards)
        else:
            self.discarded.extend(bout.cards)
        self.last_bout = {**bout.view(), "taken": bout.taking}
        self.bout = None
        self.bouts += 1
        for seat in self.draw_order(bout.leader, defender):
            self.draw(seat)
        if self.talon == 0:
            self.out.extend(seat for seat in self.seats if self.hands[seat] == 0 and seat not in self.out)
        holding = self.holding()
        if self.talon == 0 and len(holding) <= 1:
            self.over = True
            self.result = {"durak": holding[0] if holding else None}
            return
        if bout.taking:
            self.attacker = self.next_holding(defender)
        else:
            self.attacker = defender if self.hands[defender] > 0 else self.next_holding(defender)
        self.deduce()

    def draw_order(self, leader: int, defender: int) -> list[int]:
        """The leader first, then the others clockwise from the leader, the bout's last defender last."""
        n = len(self.names)
        order = [(leader + step) % n for step in range(n)]
        return [seat for seat in order if seat != defender] + [defender]

    def draw(self, seat: int) -> None:
        drawn = min(max(0, HAND_SIZE - self.hands[seat]), self.talon)
        self.hands[seat] += drawn
        self.talon -= drawn
        if drawn and self.talon == 0 and self.trump_holder is None:
            self.trump_holder = seat
            self.known[seat][self.trump] = DREW_TRUMP

    def deduce(self) -> None:
        """With the talon gone and every hand known but one, that hand holds every unseen card."""
        if self.talon:
            return
        open_seats = [seat for seat in self.seats if self.free_slots(seat) > 0]
        if len(open_seats) == 1:
            seat = open_seats[0]
            unseen = self.unseen()
            if len(unseen) == self.free_slots(seat):
                self.known[seat].update({card: LAST_UNSEEN for card in unseen})

    # --- the view ------------------------------------------------------------------------------
    def view(self) -> dict:
        bout = self.bout
        return {
            "number": self.number,
            "dealer": self.dealer,
            "trump": str(self.trump),
            "trump_suit": self.trump_suit,
            "trump_holder": self.trump_holder,
            "stock": self.talon,
            "hand_sizes": {str(seat): self.hands[seat] for seat in self.seats},
            "attacker": None if self.over else (bout.attacker if bout else self.attacker),
            "defender": self.defender,
            "leader": None if self.over else (bout.leader if bout else self.attacker),
            "bout": None if bout is None else bout.view(),
            "bouts": self.bouts,
            "last_bout": self.last_bout,
            "out": list(self.out),
            "known": {str(seat): listed(self.known[seat]) for seat in self.seats},
            "discards": len(self.discarded),
            "discarded": listed(self.discarded),
            "over": self.over,
            "result": dict(self.result) if self.result else None,
        }
