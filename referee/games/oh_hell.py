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

from ..cards import JOKER, RANKS, Card, CardError, parse_card
from ..knowledge import Knowledge
from ..verdicts import InvalidInput, Rejected
from .base import Decision, Game, Lot, Option, Table, groups_by, judged, let_stand, read_hands, seat_of
from .oh_hell_shapes import EVENT_SCHEMAS, SCHEMAS
from .tricks import Play, Trick, broken_rule, card_order, discard_claim, legal_cards, trick_winner

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


def by_total(state: Table) -> list[list[int]]:
    """The places by total, highest first; equal totals share their places (RULES.md §4, Winner and Money)."""
    return groups_by(state.seats, lambda seat: state.scores[seat], most_first=True)


@dataclass
class OhHellDeal:
    """One hand: its size, players (clockwise from the dealer's left), trump, bids, tricks, what is known."""

    number: int
    size: int
    dealer: int
    seats: list[int]
    trump_card: Card | None
    bids: list[int | None]
    taken: list[int]
    tricks: list[Trick]
    played: dict[Card, int] = field(default_factory=dict)  # card -> the trick it was played in
    knowledge: Knowledge = field(default_factory=Knowledge)
    over: bool = False
    result: list[dict] | None = None

    @property
    def trump(self) -> str | None:
        return self.trump_card.suit if self.trump_card else None

    @property
    def trick(self) -> Trick:
        return self.tricks[-1]

    def waiting_bids(self) -> list[int]:
        """Seats still to bid, in bidding order."""
        return [seat for seat in self.seats if self.bids[seat] is None]

    def play_turn(self) -> int:
        trick = self.trick
        return self.seats[(self.seats.index(trick.lead) + len(trick.plays)) % len(self.seats)]


@dataclass
class OhHellTable(Table):
    sizes: list[int] = field(default_factory=list)
    deal: OhHellDeal | None = None


class OhHell(Game):
    name = "oh_hell"
    title = "Oh Hell"
    description = ("Hands of 1 card, 2 cards, and so on; bid the number of tricks you will take, follow suit, "
                   "trumps win. An exact bid scores 10 + the tricks taken; the highest total wins.")
    min_players = 3
    max_players = 7
    suited = True
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

    def ranks(self, options: dict) -> list[str]:
        return list(RANKS)

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
        n = len(names)
        return OhHellTable(names=list(names), options=options, scores=[0] * n, lives=[None] * n, out=[False] * n,
                           sizes=hand_sizes(options["sequence"], n))

    def evolve_end(self, state: OhHellTable, event: dict) -> None:
        self.finish(state)

    def finish(self, state: OhHellTable) -> None:
        state.final = by_total(state)
        state.finished = True

    def ranking(self, state: OhHellTable) -> list[list[int]]:
        return list(state.final) if state.finished else by_total(state)

    # --- deal ----------------------------------------------------------------------------------
    def decide_deal(self, state: OhHellTable, command: dict, lot: Lot | None, force: bool) -> Decision:
        if state.deal is not None and not state.deal.over:
            raise Rejected("deal_in_progress", f"Hand {state.deal.number} is still being played.",
                           details={"deal": state.deal.number})
        dealer, warnings = self.choose_dealer(state, command, lot, force)
        number = state.deals_played + 1
        size = state.sizes[number - 1]
        trump = self.parse_trump(state, command.get("trump"), number)
        hands = self.parse_hands(state, command.get("hands"), size, trump)
        event = {"type": "deal", "dealer": dealer, "trump": str(trump) if trump else None}
        if hands:
            event["hands"] = {str(seat): [str(card) for card in cards] for seat, cards in sorted(hands.items())}
        if warnings:
            event["force"] = True
        return Decision(event, tuple(warnings))

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
        return self.read_card(given)

    def read_card(self, text: object) -> Card:
        """A card of the 52-card deck, in the API's notation."""
        card = parse_card(text, suited=True)
        if card.rank == JOKER:
            raise CardError("Oh Hell is played without jokers.")
        return card

    def parse_hands(self, state: OhHellTable, hands: object, size: int, trump: Card | None) -> dict[int, list[Card]]:
        parsed = read_hands(state, hands, size, self.read_card)
        counts = Counter(card for cards in parsed.values() for card in cards)
        if trump:
            counts[trump] += 1
        twice = sorted((card for card, count in counts.items() if count > 1), key=card_order)
        if twice:
            raise InvalidInput("impossible_hands", f"The deck has one {twice[0]}; the hands and the trump card "
                               f"show it {counts[twice[0]]} times.", {"card": str(twice[0])})
        return parsed

    def evolve_deal(self, state: OhHellTable, event: dict) -> None:
        number = state.deals_played + 1
        dealer = event["dealer"]
        n = len(state.names)
        seats = [(dealer + step) % n for step in range(1, n + 1)]
        trump = parse_card(event["trump"], suited=True) if event.get("trump") else None
        hands = {int(seat): Counter(parse_card(card, suited=True) for card in cards)
                 for seat, cards in event.get("hands", {}).items()}
        state.deals_played = number
        state.last_dealer = dealer
        state.deal = OhHellDeal(number=number, size=state.sizes[number - 1], dealer=dealer, seats=seats,
                                trump_card=trump, bids=[None] * n, taken=[0] * n, tricks=[Trick(1, seats[0])],
                                knowledge=Knowledge(hands=hands))

    def current_deal(self, state: OhHellTable) -> OhHellDeal:
        deal = state.deal
        if deal is None or deal.over:
            raise Rejected("no_deal", "No hand is being played: log the deal first.", details={})
        return deal

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
    def decide_play(self, state: OhHellTable, command: dict, force: bool) -> Decision:
        deal = self.current_deal(state)
        seat = seat_of(state, command)
        card = self.read_card(command.get("card"))
        names = state.names
        waiting = deal.waiting_bids()
        if waiting:
            raise Rejected("bids_missing", f"Play begins when every bid is in; still to bid: "
                           f"{', '.join(names[s] for s in waiting)}.", seat=seat, details={"seats": waiting})
        turn = deal.play_turn()
        if seat != turn:
            raise Rejected("not_your_turn", f"It is {names[turn]}'s turn, not {names[seat]}'s.", seat=seat,
                           details={"turn": turn})
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
        illegal = self.judge(state, deal, seat, card)
        return judged({"type": "play", "seat": seat, "card": str(card)}, [illegal] if illegal else [], force, seat)

    def judge(self, state: OhHellTable, deal: OhHellDeal, seat: int, card: Card) -> tuple[str, str] | None:
        """With the player's hand known: the rule the card breaks, or None. Blind: always None."""
        if not deal.knowledge.knows_hand(seat):
            return None
        return broken_rule(state.names[seat], deal.knowledge.hand(seat), card, deal.trick.led, deal.trump,
                           state.options["must_trump"])

    def evolve_play(self, state: OhHellTable, event: dict) -> None:
        deal = state.deal
        seat, seq = event["seat"], event["seq"]
        card = parse_card(event["card"], suited=True)
        trick = deal.trick
        findings = deal.knowledge.test(seat, [card], seq) + let_stand(event, deal.number, trick.number)
        if "illegal" not in event and not deal.knowledge.knows_hand(seat):
            claim = discard_claim(state.names[seat], seat, seq, card, trick, deal.trump,
                                  state.options["must_trump"], deal.number, lambda: deal.trick.number)
            if claim:
                deal.knowledge.claim(claim)
        deal.knowledge.remove(seat, card)
        deal.played[card] = trick.number
        trick.plays.append(Play(seat, card, seq))
        state.findings.extend(findings)
        if len(trick.plays) < len(deal.seats):
            return
        trick.winner = trick_winner(trick, deal.trump)
        deal.taken[trick.winner] += 1
        if len(deal.tricks) < deal.size:
            deal.tricks.append(Trick(trick.number + 1, trick.winner))
        else:
            self.score_deal(state, deal)

    def score_deal(self, state: OhHellTable, deal: OhHellDeal) -> None:
        deal.over = True
        deal.result = []
        for seat in sorted(deal.seats):
            bid, taken = deal.bids[seat], deal.taken[seat]
            scored = points(bid, taken, deal.size, state.options)
            state.scores[seat] += scored
            deal.result.append({"seat": seat, "bid": bid, "taken": taken, "points": scored})
        state.record_history(deal.number, deal.dealer, bids=list(deal.bids), taken=list(deal.taken))
        if deal.number == len(state.sizes):
            self.finish(state)

    # --- views ---------------------------------------------------------------------------------
    def expected(self, state: OhHellTable) -> dict | None:
        if state.finished:
            return None
        deal = state.deal
        if deal is None or deal.over:
            number = state.deals_played + 1
            dealer = self.next_dealer(state)
            return {"type": "deal", "dealer": dealer, "deal": number, "cards": state.sizes[number - 1],
                    "turn_trump": trump_turned(state.options, state.sizes, number, len(state.names))}
        waiting = deal.waiting_bids()
        if waiting:
            simultaneous = state.options["simultaneous_bids"]
            seat = None if simultaneous else waiting[0]
            forbidden = None if simultaneous else self.forbidden_bid(state, deal, waiting[0])
            return {"type": "bid", "seat": seat, "seats": waiting, "deal": deal.number,
                    "allowed": [bid for bid in range(deal.size + 1) if bid != forbidden], "forbidden": forbidden}
        seat = deal.play_turn()
        out = {"type": "play", "seat": seat, "deal": deal.number, "trick": deal.trick.number,
               "led": deal.trick.led, "trump": deal.trump}
        if deal.knowledge.knows_hand(seat):
            held = deal.knowledge.hand(seat)
            out["legal"] = [str(card) for card in legal_cards(held, deal.trick.led, deal.trump,
                                                               state.options["must_trump"])]
        return out

    def turn(self, state: OhHellTable, deal: OhHellDeal) -> int | None:
        if deal.over:
            return None
        waiting = deal.waiting_bids()
        if waiting:
            return None if state.options["simultaneous_bids"] else waiting[0]
        return deal.play_turn()

    def hands_secret(self, state: OhHellTable) -> bool:
        return state.deal is not None and not state.deal.over

    def deal_view(self, state: OhHellTable) -> dict | None:
        deal = state.deal
        if deal is None:
            return None
        tricks = [{"number": trick.number, "lead": trick.lead, "winner": trick.winner,
                   "plays": [{"seat": p.seat, "card": str(p.card), "seq": p.seq} for p in trick.plays]}
                  for trick in deal.tricks]
        phase = "over" if deal.over else "bidding" if deal.waiting_bids() else "playing"
        return {
            "number": deal.number,
            "hands": len(state.sizes),
            "cards": deal.size,
            "dealer": deal.dealer,
            "seats": list(deal.seats),
            "trump_card": str(deal.trump_card) if deal.trump_card else None,
            "trump": deal.trump,
            "phase": phase,
            "bids": list(deal.bids),
            "taken": list(deal.taken),
            "trick": deal.trick.number,
            "led": deal.trick.led,
            "table": tricks[-1]["plays"],
            "tricks": tricks,
            "turn": self.turn(state, deal),
            "over": deal.over,
            "known_hands": sorted(deal.knowledge.hands),
            "result": deal.result,
        }

    def player_view(self, state: OhHellTable, seat: int) -> dict:
        deal = state.deal
        if deal is None:
            return {"bid": None, "tricks": None}
        return {"bid": deal.bids[seat], "tricks": deal.taken[seat]}


GAME = OhHell()
