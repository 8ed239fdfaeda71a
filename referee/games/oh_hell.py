"""Oh Hell (RULES.md §4): bid the tricks you will take; only an exact bid scores.

52 cards, ace high, 3 to 7 players. Each hand the dealer turns up the card after the deal: its suit is
trump (none in the last hand, none when no card is left to turn). Bids go clockwise from the dealer's
left (or all at once); then the player left of the dealer leads, suit must be followed, the highest trump
or else the highest card of the suit led takes the trick, and its taker leads the next. An exact bid
scores 10 + the tricks taken. Highest total after the last hand wins.

Blind, a player who does not follow suit claims to be void in the suit led (with `must_trump`, also to
hold no trump when they did not trump); every dealt card is played, so each false claim is found by a
later card of theirs at the latest when the hand ends.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..cards import Card, CardError, card_order
from ..knowledge import Claim, Knowledge
from ..verdicts import InvalidInput, Rejected
from .base import Decision, judged, let_stand
from .oh_hell_shapes import EVENT_SCHEMAS, SCHEMAS
from .options import Option
from .table import Table, by_points, seat_of
from .tricks import Trick, TrickDeal, TrickGame, broken_rule, discard_claim, legal_cards, trick_winner

DECK_SIZE = 52
HANDS_BY_PLAYERS = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
SEQUENCES = ("up", "down", "up_down", "down_up")
MAX_HANDS = 100
EXACT_BID_POINTS = 10
ZERO_BID_POINTS = 5


def hand_sizes(sequence: str | list[int], players: int) -> list[int]:
    """The number of cards dealt in each hand of the match."""
    if isinstance(sequence, list):
        return list(sequence)
    top = HANDS_BY_PLAYERS[players]
    up = list(range(1, top + 1))
    down = up[::-1]
    return {"up": up, "down": down, "up_down": up + down[1:], "down_up": down + up[1:]}[sequence]


def trump_turned(options: dict, sizes: list[int], number: int, players: int) -> bool:
    """Whether the dealer turns up a trump card in hand `number` (1-based)."""
    if number == len(sizes) and options["no_trump_last_hand"]:
        return False
    return players * sizes[number - 1] < DECK_SIZE


def points(bid: int, taken: int, size: int, options: dict) -> int:
    """What a hand scores: 10 + tricks for an exact bid (5 + hand size for an exact 0 with the bonus)."""
    if bid != taken:
        return taken if options["miss_scores_tricks"] else 0
    if bid == 0 and options["zero_bid_bonus"]:
        return ZERO_BID_POINTS + size
    return EXACT_BID_POINTS + taken


@dataclass(kw_only=True)
class OhHellDeal(TrickDeal):
    """One hand: its trump, the bids, the tricks each player took, the cards played."""

    trump_card: Card | None
    bids: list[int | None]
    taken: list[int]
    played: dict[Card, int] = field(default_factory=dict)  # card -> the trick it was played in
    result: list[dict] | None = None

    @property
    def trump(self) -> str | None:
        return self.trump_card.suit if self.trump_card else None

    def waiting_bids(self) -> list[int]:
        """Seats still to bid, in bidding order."""
        return [seat for seat in self.seats if self.bids[seat] is None]

    def note(self, card: Card) -> None:
        self.played[card] = self.trick.number


@dataclass
class OhHellTable(Table):
    sizes: list[int] = field(default_factory=list)


class OhHell(TrickGame):
    name = "oh_hell"
    title = "Oh Hell"
    description = ("Hands of 1 card, 2 cards, and so on; bid the number of tricks you will take, follow suit, "
                   "trumps win. An exact bid scores 10 + the tricks taken; the highest total wins.")
    min_players = 3
    max_players = 7
    suited = True
    deal_word = "hand"
    table = OhHellTable
    trick = "follow"
    example = {
        "summary": "Oh Hell with the hook: Ann, the dealer, bids last and may not bid 0",
        "match": {"players": ["Ann", "Bob", "Cid"], "options": {"hook": True}},
        "events": [{"type": "deal", "dealer": 0, "trump": "9H"}, {"type": "bid", "seat": 1, "bid": 0},
                   {"type": "bid", "seat": 2, "bid": 1}],
    }
    player_figures = ("points", "bid_tricks")
    deal_figure = "bid_tricks"
    event_fields = {"deal": frozenset({"dealer", "hands", "trump"}), "bid": frozenset({"seat", "bid"}),
                    "play": frozenset({"seat", "card"}), "end": frozenset()}
    event_types = frozenset(event_fields)
    options = (
        Option("sequence", "sequence", "up", "Hand sizes: up (1, 2, ... max), down (max ... 1), up_down "
               "(1 ... max ... 1), down_up (max ... 1 ... max), or a list of hand sizes. Max by players: "
               "3: 15, 4: 13, 5: 10, 6: 8, 7: 7.", choices=SEQUENCES),
        Option("no_trump_last_hand", "boolean", True, "The last hand of the match is played without trump."),
        Option("hook", "boolean", False, "The dealer, bidding last, may not make the bids total the hand size."),
        Option("simultaneous_bids", "boolean", False, "Bids are entered in any order, all before the first lead "
               "(the hook does not apply: nobody bids last)."),
        Option("must_trump", "boolean", False, "La Podrida: a player who cannot follow suit must trump if they can."),
        Option("miss_scores_tricks", "boolean", False, "A missed bid scores 1 per trick taken instead of 0."),
        Option("zero_bid_bonus", "boolean", False, "An exact bid of 0 scores 5 + the hand size instead of 10."),
    )
    # The shapes of what the game shows and of its events, for the contract: see `Game.schemas`.
    schemas = SCHEMAS
    event_schemas = EVENT_SCHEMAS

    def hand_sizes(self, options: dict, players: int) -> list[int]:
        return hand_sizes(options["sequence"], players)

    def check_options(self, options: dict, players: int) -> dict:
        sequence = options["sequence"]
        if not isinstance(sequence, list):
            return {}
        top = DECK_SIZE // players
        if len(sequence) > MAX_HANDS:
            return {"sequence": f"sequence has at most {MAX_HANDS} hands"}
        wrong = [size for size in sequence if not 1 <= size <= top]
        if wrong:
            return {"sequence": f"sequence: a hand has 1 to {top} cards with {players} players, "
                                f"not {', '.join(map(str, wrong))}"}
        return {}

    # --- the fold ------------------------------------------------------------------------------
    def new_state(self, names: list[str], options: dict) -> OhHellTable:
        state = super().new_state(names, options)
        state.sizes = hand_sizes(options["sequence"], len(names))
        return state

    def evolve_end(self, state: OhHellTable, event: dict) -> None:
        self.finish(state)

    def finish(self, state: OhHellTable) -> None:
        state.final = by_points(state)
        state.finished = True

    def ranking(self, state: OhHellTable) -> list[list[int]]:
        """By total, highest first; equal totals share their places (RULES.md §4, Winner and Money)."""
        return list(state.final) if state.finished else by_points(state)

    # --- deal ----------------------------------------------------------------------------------
    def deal_fields(self, state: OhHellTable, command: dict, trump: Card | None) -> dict:
        number = state.deals_played + 1
        trump = self.parse_trump(state, command.get("trump"), number)
        hands = self.read_dealt(state, command.get("hands"), state.sizes[number - 1], trump)
        fields = {"trump": str(trump) if trump else None}
        if hands:
            fields["hands"] = {str(seat): [str(card) for card in cards] for seat, cards in sorted(hands.items())}
        return fields

    def parse_trump(self, state: OhHellTable, given: object, number: int) -> Card | None:
        size = state.sizes[number - 1]
        if not trump_turned(state.options, state.sizes, number, len(state.names)):
            if given is None:
                return None
            why = ("it is the last hand, played without trump" if number == len(state.sizes)
                   else f"{len(state.names)} × {size} cards leave no card to turn")
            raise InvalidInput("no_trump_in_hand", f"No trump card is turned up in hand {number}: {why}.",
                               {"trump": given})
        if given is None:
            raise InvalidInput("trump_required", f"Hand {number} needs the trump card the dealer turned up, "
                               "like \"trump\": \"9S\".")
        return self.read_card(state, given)

    def not_in_deck(self, state: OhHellTable, card: Card, text: object, field: str) -> InvalidInput:
        return CardError("Oh Hell is played without jokers.")

    def dealt_too_often(self, over: list[Card], counts: Counter, copies: Counter) -> InvalidInput:
        card = min(over, key=card_order)
        return InvalidInput("impossible_hands", f"The deck has one {card}; the hands and the trump card show it "
                            f"{counts[card]} times.", {"card": str(card)})

    def new_deal(self, state: OhHellTable, event: dict, hands: dict[int, list[Card]]) -> OhHellDeal:
        number, dealer, n = state.deals_played, event["dealer"], len(state.names)
        seats = [(dealer + step) % n for step in range(1, n + 1)]
        trump = self.card(event["trump"]) if event.get("trump") else None
        return OhHellDeal(number=number, size=state.sizes[number - 1], dealer=dealer, seats=seats, trump_card=trump,
                          bids=[None] * n, taken=[0] * n, tricks=[Trick(1, seats[0])],
                          knowledge=Knowledge.dealt(self.copies(state.options), seats, state.sizes[number - 1], hands,
                                                    trump))

    # --- bids ----------------------------------------------------------------------------------
    def forbidden_bid(self, state: OhHellTable, deal: OhHellDeal, seat: int) -> int | None:
        """The bid the hook forbids `seat`, if `seat` bids last as the dealer and one is in range."""
        options = state.options
        if not options["hook"] or options["simultaneous_bids"] or deal.waiting_bids() != [seat]:
            return None
        forbidden = deal.size - sum(bid for bid in deal.bids if bid is not None)
        return forbidden if 0 <= forbidden <= deal.size else None

    def decide_bid(self, state: OhHellTable, command: dict, force: bool) -> Decision:
        deal = self.current_deal(state)
        seat = seat_of(state, command)
        name = state.names[seat]
        bid = command.get("bid")
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise InvalidInput("bad_bid", "bid is a whole number of tricks.", {"bid": bid})
        if deal.played:
            raise Rejected("bidding_over", f"Play has begun in hand {deal.number}: no more bids.", seat=seat,
                           details={"deal": deal.number})
        if deal.bids[seat] is not None:
            raise Rejected("already_bid", f"{name} already bid {deal.bids[seat]} in hand {deal.number}.", seat=seat,
                           details={"bid": deal.bids[seat], "deal": deal.number})
        waiting = deal.waiting_bids()
        if not state.options["simultaneous_bids"] and seat != waiting[0]:
            raise Rejected("not_your_turn", f"It is {state.names[waiting[0]]}'s turn to bid, not {name}'s.",
                           seat=seat, details={"turn": waiting[0], "case": "bid"})
        if not 0 <= bid <= deal.size:
            raise Rejected("bid_out_of_range", f"Hand {deal.number} has {deal.size} cards: bid 0 to {deal.size}, "
                           f"not {bid}.", seat=seat, details={"bid": bid, "size": deal.size, "deal": deal.number})
        breaks = []
        if bid == self.forbidden_bid(state, deal, seat):
            breaks.append(("hook", f"{name} bids last as the dealer and may not bid {bid}: the bids would total "
                                   f"{deal.size}, the hand size (hook).", {"bid": bid, "size": deal.size}))
        return judged({"type": "bid", "seat": seat, "bid": bid}, breaks, force, seat)

    def evolve_bid(self, state: OhHellTable, event: dict) -> None:
        deal = state.deal
        deal.bids[event["seat"]] = event["bid"]
        state.findings.extend(let_stand(event, deal.number, None))

    # --- play ----------------------------------------------------------------------------------
    def check_turn(self, state: OhHellTable, deal: OhHellDeal, seat: int) -> None:
        waiting = deal.waiting_bids()
        if waiting:
            raise Rejected("bids_missing", f"Play begins when every bid is in; still to bid: "
                           f"{', '.join(state.names[s] for s in waiting)}.", seat=seat, details={"seats": waiting})
        super().check_turn(state, deal, seat)

    def check_unplayed(self, state: OhHellTable, deal: OhHellDeal, seat: int, card: Card) -> None:
        names = state.names
        if card == deal.trump_card:
            raise Rejected("trump_card_on_table", f"{card} is the turned-up trump card: it lies on the table, "
                           "in no one's hand.", seat=seat, details={"card": str(card)})
        if card in deal.played:
            raise Rejected("card_already_played", f"{card} was already played in trick {deal.played[card]} of "
                           f"hand {deal.number}.", seat=seat,
                           details={"card": str(card), "trick": deal.played[card], "deal": deal.number})
        holder = next((other for other in deal.knowledge.hands
                       if other != seat and deal.knowledge.hand(other)[card]), None)
        if holder is not None:
            raise Rejected("card_in_other_hand", f"{card} was dealt to {names[holder]}, not {names[seat]}.",
                           seat=seat, details={"card": str(card), "holder": holder, "case": "entered"})

    def broken_rule(self, state: OhHellTable, deal: OhHellDeal, name: str, hand: Counter,
                    card: Card) -> tuple[str, str, dict] | None:
        return broken_rule(name, hand, card, deal.trick.led, deal.trump, state.options["must_trump"])

    def legal(self, state: OhHellTable, deal: OhHellDeal, hand: Counter) -> list[Card]:
        return legal_cards(hand, deal.trick.led, deal.trump, state.options["must_trump"])

    def claim_of(self, state: OhHellTable, deal: OhHellDeal, seat: int, card: Card, seq: int) -> list[Claim]:
        return discard_claim(state.names[seat], seat, seq, card, deal.trick, deal.trump,
                             state.options["must_trump"], deal.number)

    def trick_winner(self, state: OhHellTable, deal: OhHellDeal, trick: Trick) -> int:
        return trick_winner(trick, deal.trump)

    def take_trick(self, state: OhHellTable, deal: OhHellDeal, trick: Trick) -> None:
        deal.taken[trick.winner] += 1

    def score_deal(self, state: OhHellTable, deal: OhHellDeal) -> None:
        deal.result = []
        for seat in sorted(deal.seats):
            bid, taken = deal.bids[seat], deal.taken[seat]
            scored = points(bid, taken, deal.size, state.options)
            state.scores[seat] += scored
            deal.result.append({"seat": seat, "bid": bid, "taken": taken, "points": scored})
        if deal.number == len(state.sizes):
            self.finish(state)

    def history_of(self, deal: OhHellDeal) -> dict:
        return {"bids": list(deal.bids), "taken": list(deal.taken)}

    # --- views ---------------------------------------------------------------------------------
    def expected_deal(self, state: OhHellTable) -> dict:
        number = state.deals_played + 1
        return {**super().expected_deal(state),
                "turn_trump": trump_turned(state.options, state.sizes, number, len(state.names))}

    def expected_in_deal(self, state: OhHellTable, deal: OhHellDeal) -> dict:
        waiting = deal.waiting_bids()
        if not waiting:
            return super().expected_in_deal(state, deal)
        simultaneous = state.options["simultaneous_bids"]
        seat = None if simultaneous else waiting[0]
        forbidden = None if simultaneous else self.forbidden_bid(state, deal, waiting[0])
        return {"type": "bid", "seat": seat, "seats": waiting, "deal": deal.number,
                "allowed": [bid for bid in range(deal.size + 1) if bid != forbidden], "forbidden": forbidden}

    def play_needs(self, state: OhHellTable, deal: OhHellDeal) -> dict:
        return {"led": deal.trick.led, "trump": deal.trump}

    def turn(self, state: OhHellTable, deal: OhHellDeal) -> int | None:
        if deal.over:
            return None
        waiting = deal.waiting_bids()
        if waiting:
            return None if state.options["simultaneous_bids"] else waiting[0]
        return deal.turn()

    def deal_details(self, state: OhHellTable, deal: OhHellDeal) -> dict:
        return {
            "hands": len(state.sizes),
            "cards": deal.size,
            "trump_card": str(deal.trump_card) if deal.trump_card else None,
            "trump": deal.trump,
            "phase": "over" if deal.over else "bidding" if deal.waiting_bids() else "playing",
            "bids": list(deal.bids),
            "taken": list(deal.taken),
            "led": deal.trick.led,
        }

    tallies = ("deals", "bids", "exact_bids")

    def tally(self, state: OhHellTable, seat: int) -> dict[str, int]:
        """The hands played to the end in which the player bid, and those in which they took just their bid."""
        hands = [hand for hand in state.history if hand["bids"][seat] is not None]
        return {"deals": state.deals_in[seat], "bids": len(hands),
                "exact_bids": sum(1 for hand in hands if hand["bids"][seat] == hand["taken"][seat])}

    def player_view(self, state: OhHellTable, seat: int) -> dict:
        deal = state.deal
        if deal is None:
            return {"bid": None, "tricks": None}
        return {"bid": deal.bids[seat], "tricks": deal.taken[seat]}


GAME = OhHell()
