"""Trick play where each card must climb: Ogórek, Ogurets and Agurk share it.

The player left of the dealer leads any card. Each next player must play a card not lower than the
highest card played so far in the trick, or, holding none, their lowest card. Where a top rank locks the
trick (Ogurets' king, or joker), every later player must play their lowest card. The latest of equal
highest cards takes the trick, and its player leads the next one. Suits do not matter.

What the sister games share besides is here too, for a game to take rather than copy: the rule of the ace led
(a game that lists the option `ACE_LED_LOWEST` has it, as Agurk), what a card counts (`card_points`), the result
of a deal scored by the highest card of the last trick (`last_card_result`), and the shapes of the deal and its
result in the contract (`climbing_deal`, `deal_result` and the fields they share).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field

from ..cards import JOKER, Card, CardError
from ..knowledge import Claim, Knowledge
from ..verdicts import InvalidInput, Rejected
from .options import Option
from .table import Table
from .tricks import Play, Trick, TrickDeal, TrickGame

ACE_LED_LOWEST = Option("ace_led_lowest", "boolean", True, "An ace led makes every other player in that trick play "
                        "their lowest card, even holding an ace.")
"""The rule of the ace led (Agurk's): a climbing game that lists this option has it, as the option says."""

CARD_POINTS = {"J": 11, "Q": 12, "K": 13, "A": 14, JOKER: 15}


def card_points(card: Card, ace: int = 14) -> int:
    """What a card counts: 2-10 face value, J 11, Q 12, K 13, A 14 (or `ace`: Ogórek's last ace costs 21, or 1),
    the joker 15."""
    if card.rank == "A":
        return ace
    return CARD_POINTS.get(card.rank) or int(card.rank)


# --- the shapes of a climbing deal and its result, for the contract (`Game.schemas`) ---------------------------
SEATS = {"type": "array", "items": {"$ref": "Seat"}}


def by_seat(values: dict) -> dict:
    """An object of `values` by seat (as text)."""
    return {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}, "additionalProperties": values}


def last_card_fields(least_points: int) -> dict:
    """The fields of a result scored by the highest card of the last trick (`last_card_result`): who played it
    (`losers`, all of them when several tie), the card, and the points it scored each of them."""
    return {"losers": SEATS, "card": {"$ref": "Card"}, "points": {"type": "integer", "minimum": least_points}}


def deal_result(**fields: dict) -> dict:
    """The `DealResult` shape of a climbing game: an object of `fields`, each required, none other."""
    return {"type": "object", "required": list(fields), "additionalProperties": False, "properties": fields}


def climbing_deal(description: str, result: str, **fields: dict) -> dict:
    """The `Deal` shape of a climbing game: the family's deal (`ClimbingDeal`), the game's own `fields`, and its
    `result` (described as `result`): the game's `DealResult` once the deal is over, else null."""
    return {"description": description, "allOf": [{"$ref": "ClimbingDeal"}], "required": ["result", *fields],
            "properties": {**fields, "result": {"description": result,
                                                "oneOf": [{"$ref": "DealResult"}, {"type": "null"}]}}}


@dataclass(kw_only=True)
class ClimbDeal(TrickDeal):
    """One deal, how many of each card are seen in it, and the cards of which every copy is played (`gone`)."""

    copies: Counter = field(default_factory=Counter, repr=False, compare=False)  # the deck's (`Game.copies`, shared)
    seen: Counter = field(default_factory=Counter)
    gone: list[Card] = field(default_factory=list, repr=False, compare=False)  # in the order they went
    result: dict = field(default_factory=dict)

    def note(self, card: Card) -> None:
        seen = self.seen[card] = self.seen[card] + 1
        if seen == (self.copies[card] or 1):  # the last copy, or a card the deck does not hold
            self.gone.append(card)


@dataclass(frozen=True)
class Requirement:
    """What the player to act must play: anything (a lead), `top` or higher else their lowest, or their lowest."""

    kind: str  # "any", "reach", "lowest"
    top: Card | None = None
    case: str = "top_card"  # why the lowest: the top card locks the trick ("top_card"), or an ace was led ("ace_led")


class ClimbingGame(TrickGame):
    suited = False
    hand_size = 6
    event_fields = {"deal": frozenset({"dealer", "hands"}), "play": frozenset({"seat", "card"}), "end": frozenset()}
    event_types = frozenset(event_fields)
    keypad = "ranks"
    trick = "climb"
    schemas = {"Expected": {"oneOf": [{"$ref": "ExpectedDeal"}, {"$ref": "ClimbingExpectedPlay"}]}}

    def hand_sizes(self, options: dict, players: int) -> list[int]:
        return [self.hand_size]

    # --- what each game says -------------------------------------------------------------------
    def locking_rank(self, options: dict) -> str | None:
        """The rank that, on top of a trick, makes every later player play their lowest card."""
        return None

    # --- ranks ---------------------------------------------------------------------------------
    def strength(self, card: Card) -> int:
        return self.rank_strength[card.rank]

    @functools.cached_property
    def rank_strength(self) -> dict[str, int]:
        """Each rank's place in `rank_order`, lowest first: asked for at every card played and shown."""
        return {rank: place for place, rank in enumerate(self.rank_order)}

    def top_play(self, trick: Trick) -> Play | None:
        """The highest card of the trick; among equal ones, the latest."""
        best = None
        for play in trick.plays:
            if best is None or self.strength(play.card) >= self.strength(best.card):
                best = play
        return best

    def highest_last(self, deal: ClimbDeal) -> list[Play]:
        """The plays of the highest card in the deal's last trick (all of them, when several tie)."""
        last = deal.trick.plays
        top = max(self.strength(play.card) for play in last)
        return [play for play in last if self.strength(play.card) == top]

    def requirement(self, state: Table, deal: ClimbDeal) -> Requirement:
        plays = deal.trick.plays
        if plays and plays[0].card.rank == "A" and state.options.get(ACE_LED_LOWEST.name):
            return Requirement("lowest", plays[0].card, "ace_led")
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

    def legal(self, state: Table, deal: ClimbDeal, hand: Counter) -> list[Card]:
        return self.legal_cards(hand, self.requirement(state, deal))

    # --- deal ----------------------------------------------------------------------------------
    def deal_fields(self, state: Table, command: dict, trump: Card | None) -> dict:
        hands = self.read_dealt(state, command.get("hands"), self.hand_size)
        return {"hands": {str(seat): [str(card) for card in cards] for seat, cards in hands.items()}} if hands else {}

    def new_deal(self, state: Table, event: dict, hands: dict[int, list[Card]]) -> ClimbDeal:
        seats = []
        seat = event["dealer"]
        for _ in state.seats_in():
            seat = state.next_seat_in(seat)
            seats.append(seat)
        return ClimbDeal(number=state.deals_played, dealer=event["dealer"], seats=seats, size=self.hand_size,
                         copies=self.copies(state.options), tricks=[Trick(1, seats[0])],
                         knowledge=Knowledge.dealt(self.copies(state.options), seats, self.hand_size, hands))

    # --- play ----------------------------------------------------------------------------------
    def not_in_deck(self, state: Table, card: Card, text: object, field: str) -> InvalidInput:
        size = self.deck_size(state.options)
        return CardError(f"There is no joker in this deck of {size} cards; {text!r} is not one of its cards.")

    def check_unplayed(self, state: Table, deal: ClimbDeal, seat: int, card: Card) -> None:
        copies = self.copies(state.options)[card]
        if deal.seen[card] + deal.knowledge.held_by_others(seat, card) >= copies:
            where = "played in this deal" if deal.seen[card] >= copies else "played or in the hands entered"
            raise Rejected("card_already_played",
                           f"All {copies} × {card} are already {where}; {state.names[seat]} cannot play another.",
                           seat=seat, details={"card": str(card), "copies": copies,
                                              "case": "played" if deal.seen[card] >= copies else "entered"})

    def broken_rule(self, state: Table, deal: ClimbDeal, name: str, hand: Counter,
                    card: Card) -> tuple[str, str, dict] | None:
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

    def claim_of(self, state: Table, deal: ClimbDeal, seat: int, card: Card, seq: int) -> list[Claim]:
        """What a blind play below the top card says about the rest of the hand: every card still held is from
        `card` up (the trick is locked, or an ace led: `card` is the lowest), or from `card` up to below the top
        (the player could not reach it, so `card` is the lowest).

        Counted (see `Knowledge`): the player's other cards are in the pool, so the claim can be true only while
        the pool holds as many allowed ranks as the player still holds. Suits do not matter, so the pool is a
        count per rank and a hand is any multiset of it: the count is exact (sound and complete).
        """
        need = self.requirement(state, deal)
        if need.kind == "any":
            return []
        reaching = need.kind == "reach"
        strength = self.rank_strength
        low, top_strength = strength[card.rank], strength[need.top.rank]
        if reaching and low >= top_strength:
            return []
        name, top, trick = state.names[seat], need.top, deal.trick.number
        case = need.case

        def disproof(later: Card, _trick: int) -> tuple[str, str, dict] | None:
            if reaching and strength[later.rank] >= top_strength:
                return "must_play_higher", (f"{name} played {card} on {top} in trick {trick}, but held {later} "
                                            f"(played later), which reaches {top}."), {
                    "card": str(card), "top": str(top), "trick": trick, "later": str(later), "case": "found"}
            if strength[later.rank] < low:
                return "must_play_lowest", (f"{name} played {card} on {top} in trick {trick} as their lowest card, "
                                            f"but later played {later}."), {
                    "card": str(card), "top": str(top), "trick": trick, "later": str(later), "case": "found"}
            return None

        if reaching:
            def allowed(other: Card) -> bool:
                return low <= strength[other.rank] < top_strength
        else:
            def allowed(other: Card) -> bool:
                return strength[other.rank] >= low

        if reaching:
            def count(knowledge: Knowledge) -> int:
                return sum(copies for other, copies in knowledge.pool.items()
                           if low <= strength[other.rank] < top_strength)
        else:
            def count(knowledge: Knowledge) -> int:
                return sum(copies for other, copies in knowledge.pool.items() if strength[other.rank] >= low)

        def short(knowledge: Knowledge, now: bool) -> tuple[str, str, dict]:
            details = {"card": str(card), "top": str(top)}
            if reaching:
                below = sum(copies for other, copies in knowledge.pool.items() if strength[other.rank] < top_strength)
                held_top = below < knowledge.left.get(seat, 0)  # too few cards below the top: one reaches it
                if now and held_top:
                    return "must_play_higher", f"{name} holds {top} or higher and must play it, not {card}.", details
                if now:
                    return "must_play_lowest", (
                        f"{name} cannot play {card} on {top}: too few cards from {card} up to below {top} are left "
                        f"unseen to fill {name}'s hand, so {name} holds {top} or higher, or a card below {card}."), {
                        **details, "case": "reach_or_lowest"}
                details["trick"] = trick
                if held_top:
                    return "must_play_higher", (
                        f"{name} played {card} on {top} in trick {trick}, unable to reach it, but too few cards below "
                        f"{top} are left unseen to fill the rest of {name}'s hand: {name} held {top} or higher."), {
                        **details, "case": "counted"}
                return "must_play_lowest", (
                    f"{name} played {card} on {top} in trick {trick} as their lowest card, unable to reach it, but "
                    f"too few cards from {card} up to below {top} are left unseen to fill the rest of {name}'s "
                    "hand."), {**details, "case": "counted_reach"}
            if now:
                why = f"{top} was led" if case == "ace_led" else f"{top} tops the trick"
                return ("must_play_lowest", f"{why}, so {name} must play their lowest card, and {card} is not it.",
                        {**details, "case": case})
            return "must_play_lowest", (
                f"{name} played {card} on {top} in trick {trick} as their lowest card, but too few cards of {card} or "
                f"higher are left unseen to fill the rest of {name}'s hand."), {
                **details, "trick": trick, "case": "counted"}

        return [Claim(seat, seq, disproof, deal.number, trick, allowed=allowed, count=count, short=short)]

    def trick_winner(self, state: Table, deal: ClimbDeal, trick: Trick) -> int:
        return self.top_play(trick).seat

    # --- end of a deal -------------------------------------------------------------------------
    def last_card_result(self, losers: list[Play], points: int) -> dict:
        """The result of a deal scored by the highest card of its last trick (`highest_last`): who played it, the
        card, and the `points` it scored each of them (the shape `last_card_fields`)."""
        return {"losers": sorted(play.seat for play in losers), "card": str(losers[0].card), "points": points}

    # --- views ---------------------------------------------------------------------------------
    def play_needs(self, state: Table, deal: ClimbDeal) -> dict:
        need = self.requirement(state, deal)
        out = {"rule": need.kind}
        if need.top is not None:
            out["top"] = str(need.top)
        return {**out, "exhausted": self.exhausted(state, deal)}

    def exhausted(self, state: Table, deal: ClimbDeal) -> list[str]:
        """Ranks of which every copy is already played in this deal: no one can play them."""
        return [str(card) for card in sorted(deal.gone, key=self.strength)]

    def deal_details(self, state: Table, deal: ClimbDeal) -> dict:
        played = deal.cards_played
        return {"cards_left": {str(seat): deal.size - played[seat] for seat in deal.seats}}
