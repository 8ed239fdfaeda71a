"""Trick play where each card must climb: Ogórek and Ogurets share it.

The player left of the dealer leads any card. Each next player must play a card not lower than the
highest card played so far in the trick, or, holding none, their lowest card. Where a top rank locks the
trick (Ogurets' king, or joker), every later player must play their lowest card. The latest of equal
highest cards takes the trick, and its player leads the next one. Suits do not matter.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..cards import Card, CardError, copies_in_deck, parse_card
from ..knowledge import Claim, Knowledge
from ..verdicts import InvalidInput, Rejected
from .base import (
    Decision,
    Game,
    Lot,
    Table,
    check_seat_in,
    judged,
    let_stand,
    read_hands,
    seat_of,
)
from .tricks import Play, Trick


@dataclass
class ClimbDeal:
    """One deal: its players (clockwise from the dealer's left), tricks, the cards seen, what is known."""

    number: int
    dealer: int
    seats: list[int]
    tricks: list[Trick]
    seen: Counter = field(default_factory=Counter)
    knowledge: Knowledge = field(default_factory=Knowledge)
    over: bool = False
    result: dict = field(default_factory=dict)

    @property
    def trick(self) -> Trick:
        return self.tricks[-1]

    def turn(self) -> int | None:
        if self.over:
            return None
        trick = self.trick
        start = self.seats.index(trick.lead)
        return self.seats[(start + len(trick.plays)) % len(self.seats)]


@dataclass
class ClimbTable(Table):
    deal: ClimbDeal | None = None


@dataclass(frozen=True)
class Requirement:
    """What the player to act must play: anything (a lead), `top` or higher else their lowest, or their lowest."""

    kind: str  # "any", "reach", "lowest"
    top: Card | None = None
    case: str = "top_card"  # why the lowest: the top card locks the trick ("top_card"), or an ace was led ("ace_led")


class ClimbingGame(Game):
    suited = False
    hand_size = 6
    rank_order: tuple[str, ...] = ()
    event_fields = {"deal": frozenset({"dealer", "hands"}), "play": frozenset({"seat", "card"}), "end": frozenset()}
    event_types = frozenset(event_fields)
    keypad = "ranks"
    trick = "climb"
    schemas = {"Expected": {"oneOf": [{"$ref": "ExpectedDeal"}, {"$ref": "ClimbingExpectedPlay"}]}}

    def ranks(self, options: dict) -> list[str]:
        size = self.deck_size(options)
        return [rank for rank in self.rank_order if copies_in_deck(size, suited=False)[Card(rank)]]

    def hand_sizes(self, options: dict, players: int) -> list[int]:
        return [self.hand_size]

    # --- what each game says -------------------------------------------------------------------
    def deck_size(self, options: dict) -> int:
        return 52

    def locking_rank(self, options: dict) -> str | None:
        """The rank that, on top of a trick, makes every later player play their lowest card."""
        return None

    def take_trick(self, state: ClimbTable, deal: ClimbDeal, trick: Trick, taker: int) -> None:
        """A trick is complete and `taker` takes it: games that count the cards taken do it here."""

    def score_deal(self, state: ClimbTable, deal: ClimbDeal) -> None:
        raise NotImplementedError

    # --- ranks ---------------------------------------------------------------------------------
    def strength(self, card: Card) -> int:
        return self.rank_order.index(card.rank)

    def lowest(self, cards) -> Card:
        return min(cards, key=self.strength)

    def top_play(self, trick: Trick) -> Play | None:
        """The highest card of the trick; among equal ones, the latest."""
        best = None
        for play in trick.plays:
            if best is None or self.strength(play.card) >= self.strength(best.card):
                best = play
        return best

    def requirement(self, state: ClimbTable, deal: ClimbDeal) -> Requirement:
        top = self.top_play(deal.trick)
        if top is None:
            return Requirement("any")
        if top.card.rank == self.locking_rank(state.options):
            return Requirement("lowest", top.card)
        return Requirement("reach", top.card)

    def legal_cards(self, hand: Counter, need: Requirement) -> list[Card]:
        cards = sorted(hand, key=self.strength)
        if need.kind == "any":
            return cards
        if need.kind == "reach":
            reaching = [card for card in cards if self.strength(card) >= self.strength(need.top)]
            if reaching:
                return reaching
        return cards[:1]

    # --- the fold ------------------------------------------------------------------------------
    def new_state(self, names: list[str], options: dict) -> ClimbTable:
        n = len(names)
        return ClimbTable(names=list(names), options=options, scores=[0] * n, lives=[None] * n, out=[False] * n)

    # --- deal ----------------------------------------------------------------------------------
    def decide_deal(self, state: ClimbTable, command: dict, lot: Lot | None, force: bool) -> Decision:
        if state.deal is not None and not state.deal.over:
            raise Rejected("deal_in_progress", f"Deal {state.deal.number} is still being played.",
                           details={"deal": state.deal.number})
        dealer, warnings = self.choose_dealer(state, command, lot, force)
        event = {"type": "deal", "dealer": dealer}
        hands = self.parse_hands(state, command.get("hands"))
        if hands:
            event["hands"] = {str(seat): [str(card) for card in cards] for seat, cards in hands.items()}
        if warnings:
            event["force"] = True
        return Decision(event, tuple(warnings))

    def parse_hands(self, state: ClimbTable, hands: object) -> dict[int, list[Card]]:
        parsed = read_hands(state, hands, self.hand_size, lambda card: self.read_card(state, card))
        counts = Counter(card for cards in parsed.values() for card in cards)
        copies = copies_in_deck(self.deck_size(state.options), suited=False)
        for card, count in counts.items():
            if count > copies[card]:
                raise InvalidInput("impossible_hands", f"The hands hold {count} × {card}; the deck has {copies[card]}.",
                                   {"card": str(card)})
        return parsed

    def evolve_deal(self, state: ClimbTable, event: dict) -> None:
        dealer = event["dealer"]
        seats = []
        seat = dealer
        for _ in state.seats_in():
            seat = state.next_seat_in(seat)
            seats.append(seat)
        hands = {int(seat): Counter(parse_card(card, suited=False) for card in cards)
                 for seat, cards in event.get("hands", {}).items()}
        state.deals_played += 1
        state.last_dealer = dealer
        state.deal = ClimbDeal(number=state.deals_played, dealer=dealer, seats=seats,
                               tricks=[Trick(1, seats[0])], knowledge=Knowledge(hands=hands))

    # --- play ----------------------------------------------------------------------------------
    def read_card(self, state: ClimbTable, text: object) -> Card:
        """A rank of this game's deck (a joker only where the deck has jokers)."""
        card = parse_card(text, suited=False)
        size = self.deck_size(state.options)
        if not copies_in_deck(size, suited=False)[card]:
            raise CardError(f"There is no joker in this deck of {size} cards; {text!r} is not one of its cards.")
        return card

    def decide_play(self, state: ClimbTable, command: dict, force: bool) -> Decision:
        deal = state.deal
        if deal is None or deal.over:
            raise Rejected("no_deal", "No deal is being played: log the deal first.", details={})
        seat = seat_of(state, command)
        check_seat_in(state, seat)
        card = self.read_card(state, command.get("card"))
        turn = deal.turn()
        if seat != turn:
            raise Rejected("not_your_turn", f"It is {state.names[turn]}'s turn, not {state.names[seat]}'s.", seat=seat,
                           details={"turn": turn})
        copies = copies_in_deck(self.deck_size(state.options), suited=False)[card]
        if deal.seen[card] + deal.knowledge.held_by_others(seat, card) >= copies:
            where = "played in this deal" if deal.seen[card] >= copies else "played or in the hands entered"
            raise Rejected("card_already_played",
                           f"All {copies} × {card} are already {where}; {state.names[seat]} cannot play another.",
                           seat=seat, details={"card": str(card), "copies": copies,
                                              "case": "played" if deal.seen[card] >= copies else "entered"})
        illegal = self.judge(state, deal, seat, card)
        return judged({"type": "play", "seat": seat, "card": str(card)}, [illegal] if illegal else [], force, seat)

    def judge(self, state: ClimbTable, deal: ClimbDeal, seat: int, card: Card) -> tuple[str, str, dict] | None:
        """With the player's hand known: the rule the card breaks, or None. Blind: always None.

        The hand is the table's secret: the verdict names the rule and the card played, no other card of it.
        """
        if not deal.knowledge.knows_hand(seat):
            return None
        name = state.names[seat]
        hand = deal.knowledge.hand(seat)
        if hand[card] == 0:
            return "card_not_in_hand", f"{name} was dealt no {card}.", {"card": str(card)}
        need = self.requirement(state, deal)
        legal = self.legal_cards(hand, need)
        if card in legal:
            return None
        details = {"card": str(card), "top": str(need.top)}
        if need.kind == "lowest":
            why = f"{need.top} was led" if need.case == "ace_led" else f"{need.top} tops the trick"
            return ("must_play_lowest", f"{why}, so {name} must play their lowest card, and {card} is not it.",
                    {**details, "case": need.case})
        if self.strength(legal[0]) >= self.strength(need.top):
            return "must_play_higher", f"{name} holds {need.top} or higher and must play it, not {card}.", details
        return ("must_play_lowest", f"{name} cannot reach {need.top}, so must play their lowest card, and {card} "
                "is not it.", {**details, "case": "cannot_reach"})

    def claim_of(self, state: ClimbTable, deal: ClimbDeal, seat: int, card: Card, seq: int) -> Claim | None:
        """What a blind play below the top card says about the rest of the hand."""
        need = self.requirement(state, deal)
        if need.kind == "any":
            return None
        reaching = need.kind == "reach"
        if reaching and self.strength(card) >= self.strength(need.top):
            return None
        name, top, trick = state.names[seat], need.top, deal.trick.number
        strength = self.strength

        def disproof(later: Card) -> tuple[str, str] | None:
            if reaching and strength(later) >= strength(top):
                return "must_play_higher", (f"{name} played {card} on {top} in trick {trick}, but held {later} "
                                            f"(played later), which reaches {top}."), {
                    "card": str(card), "top": str(top), "trick": trick, "later": str(later), "case": "found"}
            if strength(later) < strength(card):
                return "must_play_lowest", (f"{name} played {card} on {top} in trick {trick} as their lowest card, "
                                            f"but later played {later}."), {
                    "card": str(card), "top": str(top), "trick": trick, "later": str(later), "case": "found"}
            return None

        return Claim(seat, seq, disproof, deal.number, trick)

    def evolve_play(self, state: ClimbTable, event: dict) -> None:
        deal = state.deal
        seat, seq = event["seat"], event["seq"]
        card = parse_card(event["card"], suited=False)
        trick = deal.trick
        findings = deal.knowledge.test(seat, [card], seq) + let_stand(event, deal.number, trick.number)
        if "illegal" not in event and not deal.knowledge.knows_hand(seat):
            claim = self.claim_of(state, deal, seat, card, seq)
            if claim:
                deal.knowledge.claim(claim)
        deal.knowledge.remove(seat, card)
        deal.seen[card] += 1
        trick.plays.append(Play(seat, card, seq))
        state.findings.extend(findings)
        if len(trick.plays) < len(deal.seats):
            return
        taker = self.top_play(trick).seat
        self.take_trick(state, deal, trick, taker)
        if len(deal.tricks) < self.hand_size:
            deal.tricks.append(Trick(trick.number + 1, taker))
            return
        deal.over = True
        self.score_deal(state, deal)
        state.record_history(deal.number, deal.dealer)

    # --- views ---------------------------------------------------------------------------------
    def expected(self, state: ClimbTable) -> dict | None:
        if state.finished:
            return None
        deal = state.deal
        if deal is None or deal.over:
            dealer = self.next_dealer(state)
            return {"type": "deal", "dealer": dealer, "deal": state.deals_played + 1, "cards": self.hand_size}
        seat = deal.turn()
        out = {"type": "play", "seat": seat, "deal": deal.number, "trick": deal.trick.number}
        need = self.requirement(state, deal)
        out["rule"] = need.kind
        if need.top is not None:
            out["top"] = str(need.top)
        if deal.knowledge.knows_hand(seat):
            out["legal"] = [str(card) for card in self.legal_cards(deal.knowledge.hand(seat), need)]
        out["exhausted"] = self.exhausted(state, deal)
        return out

    def exhausted(self, state: ClimbTable, deal: ClimbDeal) -> list[str]:
        """Ranks of which every copy is already played in this deal: no one can play them."""
        copies = copies_in_deck(self.deck_size(state.options), suited=False)
        return [str(card) for card in sorted((c for c in deal.seen if deal.seen[c] >= copies[c]), key=self.strength)]

    def hands_secret(self, state: ClimbTable) -> bool:
        return state.deal is not None and not state.deal.over

    def deal_view(self, state: ClimbTable) -> dict | None:
        deal = state.deal
        if deal is None:
            return None
        tricks = []
        for trick in deal.tricks:
            top = self.top_play(trick)
            done = len(trick.plays) == len(deal.seats)
            tricks.append({
                "number": trick.number,
                "lead": trick.lead,
                "plays": [{"seat": p.seat, "card": str(p.card), "seq": p.seq} for p in trick.plays],
                "winner": top.seat if done else None,
            })
        return {
            "number": deal.number,
            "dealer": deal.dealer,
            "seats": list(deal.seats),
            "trick": deal.trick.number,
            "table": tricks[-1]["plays"],
            "turn": deal.turn(),
            "over": deal.over,
            "tricks": tricks,
            "cards_left": {str(seat): self.hand_size - sum(p.seat == seat for t in deal.tricks for p in t.plays)
                           for seat in deal.seats},
            "known_hands": sorted(deal.knowledge.hands),
            "result": deal.result or None,
        }
