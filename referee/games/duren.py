"""Dureń (RULES.md §3): two players, attacks of 1, 3 or 5 cards, optional beating, a stock, a series of deals.

The face-up card under the stock names trump and is drawn last; the nine of trumps may be swapped for it
right after the deal. The non-dealer attacks first. The defender beats what they want to and takes the
rest; both draw back to five, attacker first, while the stock lasts. Whoever still holds cards when the
stock is empty and the other hand is empty loses the deal (both empty: a draw). The winner scores a point,
the loser deals next (after a draw, whoever did not deal last), and the series runs until `end`.

Events, as recorded: `{"type": "deal", "dealer": 0, "trump": "9S"}` (the face-up card; optional `hands`,
`{"0": [five cards]}`, for either or both seats), `{"type": "exchange", "seat": 0, "nine": "9S",
"face_up": "QS"}` (the command needs only the seat), `{"type": "attack", "seat": 1, "cards": ["9S", "9H",
"JD"]}`, `{"type": "defend", "seat": 0, "beats": [{"card": "9S", "with": "10S"}]}` (the cards not named are
taken; `[]` takes all), `{"type": "end"}` (ends the series; a deal in progress scores nothing). Drawing
from the stock is not logged: it follows from the rules.

The referee never sees the hands. `DurenDeal` (duren_deal.py) keeps both hand sizes, the stock, the
discards and every card whose place is known, and every rule here can be judged when the event comes in,
so Dureń has no blind claims. The verdicts:

- **Never forceable** (cannot have happened): `not_your_turn` (the wrong seat, an attack while a defence
  is awaited, a defence with nothing to beat), `no_deal`, `deal_in_progress`, `card_discarded`,
  `card_on_table`, `card_in_other_hand`, `card_under_stock` (the face-up card before the stock is drawn
  to its end), `card_not_held` (the player's hand is known well enough to exclude the card),
  `not_enough_cards` (more cards than the player holds), `not_on_table` (beating a card that was not
  laid), `no_exchange` (the face-up card is the nine already, or it has been drawn). Malformed input is
  `InvalidInput`: `bad_card`, `card_not_in_deck` (an 8 in the 24-card deck), `bad_cards`, `bad_beats`,
  `trump_required`, `bad_hands`.
- **Forceable** rule breaks (with `force: true` recorded with a warning and a finding whose `proof_seq` is
  the event's own seq): `attack_size` (not 1, 3 or 5 cards), `attack_needs_pair`, `attack_needs_two_pairs`,
  `attack_too_large` (more cards than the defender holds), `beat_wrong_suit`, `beat_too_low`,
  `exchange_too_late` (after the first attack). `wrong_dealer` is forceable too and, as in the other
  games, only warns: a deal is not a play.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from ..cards import RANKS, SUIT_NAMES, Card, deck
from ..verdicts import InvalidInput, Rejected
from .base import Decision, Game, judged, let_stand
from .duren_deal import HAND_SIZE, RANK_ORDER, DurenDeal
from .duren_shapes import EVENT_SCHEMAS, SCHEMAS
from .options import Option
from .table import Table, by_points, end_match, seat_of

ATTACK_SIZES = (1, 3, 5)
PAIRS_NEEDED = {1: 0, 3: 1, 5: 2}
NINE = "9"


def beats(card: Card, other: Card, trump: str) -> bool:
    """Whether `other` beats `card`: a higher card of the same suit (ace high), or any trump on a non-trump (Durak's
    rule too)."""
    if other.suit == card.suit:
        return RANKS.index(other.rank) > RANKS.index(card.rank)
    return other.suit == trump


def pairs_in(cards: list[Card]) -> int:
    """Pairs of equal rank among `cards`; four of a kind is two pairs."""
    return sum(count // 2 for count in Counter(card.rank for card in cards).values())


class Duren(Game):
    name = "duren"
    title = "Dureń"
    description = ("Two players, five cards each and a stock; attack with 1, 3 (a pair) or 5 (two pairs) cards, "
                   "beat with a higher card of the suit or a trump, take what you do not beat. "
                   "Left holding cards when the stock is gone, you lose the deal.")
    min_players = 2
    max_players = 2
    suited = True
    rank_order = RANK_ORDER
    keypad = "attack_beat"
    example = {
        "summary": "Dureń: Bartek attacks with a pair and a jack; Ala defends",
        "match": {"players": ["Ala", "Bartek"], "stake": "2", "currency": "PLN"},
        "events": [{"type": "deal", "dealer": 0, "trump": "10H"},
                   {"type": "attack", "seat": 1, "cards": ["9S", "9D", "JS"]}],
    }
    deal_figure = "won"
    event_fields = {"deal": frozenset({"dealer", "hands", "trump"}), "exchange": frozenset({"seat"}),
                    "attack": frozenset({"seat", "cards"}), "defend": frozenset({"seat", "beats"}), "end": frozenset()}
    event_types = frozenset(event_fields)
    options = (
        Option("deck", "integer", 24, "24 cards (9 to ace) or 36 (six to ace).", choices=(24, 36)),
    )
    # The shapes of what the game shows and of its events, for the contract: see `Game.schemas`.
    schemas = SCHEMAS
    event_schemas = EVENT_SCHEMAS

    def deck_size(self, options: dict) -> int:
        return options["deck"]

    def hand_sizes(self, options: dict, players: int) -> list[int]:
        return [HAND_SIZE]

    # --- the fold ------------------------------------------------------------------------------
    def acting(self, state: Table, command: dict) -> tuple[DurenDeal, int]:
        """The deal being played and the seat that acts in it."""
        return self.current_deal(state), seat_of(state, command)

    def evolve_end(self, state: Table, event: dict) -> None:
        end_match(state)
        state.final = self.ranking(state)

    def evolve_exchange(self, state: Table, event: dict) -> None:
        state.deal.exchange_nine(event["seat"], self.card(event["nine"]))
        self.note_illegal(state, event)

    def evolve_attack(self, state: Table, event: dict) -> None:
        state.deal.attack(event["seat"], [self.card(text) for text in event["cards"]], event["seq"])
        self.note_illegal(state, event)

    def evolve_defend(self, state: Table, event: dict) -> None:
        pairs = [(self.card(beat["card"]), self.card(beat["with"])) for beat in event["beats"]]
        state.deal.defend(pairs)
        self.note_illegal(state, event)
        self.score_if_over(state, state.deal)

    def note_illegal(self, state: Table, event: dict) -> None:
        state.findings.extend(let_stand(event, state.deal.number, state.deal.round_number or None))

    # --- cards ---------------------------------------------------------------------------------
    def read_cards(self, state: Table, texts: object, field: str) -> list[Card]:
        if not isinstance(texts, list) or not texts:
            raise InvalidInput("bad_cards", f"{field} is a non-empty list of cards, like [\"9S\", \"9H\", \"JD\"].")
        cards = [self.read_card(state, text, field) for text in texts]
        twice = [card for card, count in Counter(cards).items() if count > 1]
        if twice:
            raise InvalidInput("bad_cards", f"{twice[0]} is named twice; the deck has one.", {field: texts})
        return cards

    # --- deal ----------------------------------------------------------------------------------
    def dealer_rule(self, state: Table) -> tuple[int, str] | None:
        """The loser of the last deal deals; after a draw, whoever did not deal it. The first deal is free."""
        deal = state.deal
        if deal is None:
            return None
        loser = deal.result.get("loser") if deal.result else None
        if loser is not None:
            return loser, f"{state.names[loser]} lost the last deal"
        return 1 - deal.dealer, f"the last deal was a draw and {state.names[deal.dealer]} dealt it"

    def dealer_reason(self, state: Table) -> dict:
        deal = state.deal
        loser = deal.result.get("loser") if deal.result else None
        if loser is not None:
            return {"case": "loser", "loser": loser}
        return {"case": "draw", "last_dealer": deal.dealer}

    def turned_up(self, state: Table, command: dict) -> Card:
        if command.get("trump") is None:
            raise InvalidInput("trump_required", "Name the card turned face up, as in 9S: its suit is trump.")
        return self.read_card(state, command["trump"], "trump")

    def deal_fields(self, state: Table, command: dict, trump: Card) -> dict:
        hands = self.read_dealt(state, command.get("hands"), HAND_SIZE, trump)
        fields = {"trump": str(trump)}
        if hands:
            fields["hands"] = {str(seat): [str(card) for card in cards] for seat, cards in sorted(hands.items())}
        return fields

    def dealt_too_often(self, over: list[Card], counts: Counter, copies: Counter) -> InvalidInput:
        return InvalidInput("bad_hands", f"{over[0]} is dealt twice (the hands and the face-up card).",
                            {"card": str(over[0])})

    def new_deal(self, state: Table, event: dict, hands: dict[int, list[Card]]) -> DurenDeal:
        return DurenDeal.dealt(state.deals_played, event["dealer"], self.card(event["trump"]),
                               frozenset(deck(state.options["deck"])), hands, state.names)

    # --- exchange ------------------------------------------------------------------------------
    def decide_exchange(self, state: Table, command: dict, force: bool) -> Decision:
        deal, seat = self.acting(state, command)
        name = state.names[seat]
        nine = Card(NINE, deal.trump_suit)
        if deal.face_up == nine:
            raise Rejected("no_exchange", f"The face-up card is the nine of trumps, {nine}: there is nothing "
                           "to exchange.", seat=seat, details={"case": "nine_face_up", "nine": str(nine)})
        if deal.face_up_holder is not None:
            raise Rejected("no_exchange", f"The face-up card {deal.face_up} was drawn with the last card of the "
                           f"stock by {state.names[deal.face_up_holder]}.", seat=seat,
                           details={"case": "drawn", "face_up": str(deal.face_up), "holder": deal.face_up_holder})
        deal.check_holds(seat, [nine])
        event = {"type": "exchange", "seat": seat, "nine": str(nine), "face_up": str(deal.face_up)}
        breaks = []
        if deal.rounds:
            breaks.append(("exchange_too_late", f"{name} may swap the nine of trumps only right after the deal, "
                                                "before the first attack.", {"nine": str(nine)}))
        return judged(event, breaks, force, seat)

    # --- attack --------------------------------------------------------------------------------
    def decide_attack(self, state: Table, command: dict, force: bool) -> Decision:
        deal, seat = self.acting(state, command)
        names = state.names
        turn = deal.turn()
        if deal.awaiting_defence:
            raise Rejected("not_your_turn", f"{names[turn]} must answer the attack first.", seat=seat,
                           details={"turn": turn, "case": "defend_first"})
        if seat != turn:
            raise Rejected("not_your_turn", f"{names[turn]} attacks now, not {names[seat]}.", seat=seat,
                           details={"turn": turn, "case": "attacks"})
        cards = self.read_cards(state, command.get("cards"), "cards")
        deal.check_holds(seat, cards)
        event = {"type": "attack", "seat": seat, "cards": [str(card) for card in cards]}
        return judged(event, self.attack_breaks(state, deal, seat, cards), force, seat)

    def attack_breaks(self, state: Table, deal: DurenDeal, seat: int, cards: list[Card]) -> list[tuple[str, str]]:
        name, other = state.names[seat], state.names[1 - seat]
        size = len(cards)
        shown = " ".join(map(str, cards))
        breaks = []
        if size not in ATTACK_SIZES:
            breaks.append(("attack_size", f"An attack is 1, 3 or 5 cards; {name} laid {size} ({shown}).",
                           {"size": size, "cards": [str(card) for card in cards]}))
        elif pairs_in(cards) < PAIRS_NEEDED[size]:
            if size == 3:
                breaks.append(("attack_needs_pair", f"Three attacking cards must hold a pair; {shown} has none.",
                               {"cards": [str(card) for card in cards]}))
            else:
                breaks.append(("attack_needs_two_pairs", f"Five attacking cards must hold two pairs; {shown} has "
                                                         f"{pairs_in(cards) or 'none'}.",
                               {"cards": [str(card) for card in cards], "pairs": pairs_in(cards)}))
        defender_holds = deal.hands[1 - seat]
        if size > defender_holds:
            breaks.append(("attack_too_large", f"{name} may lay at most as many cards as {other} holds "
                                               f"({defender_holds}), not {size}.",
                           {"size": size, "defender": 1 - seat, "held": defender_holds}))
        return breaks

    # --- defence -------------------------------------------------------------------------------
    def decide_defend(self, state: Table, command: dict, force: bool) -> Decision:
        deal, seat = self.acting(state, command)
        names = state.names
        if not deal.awaiting_defence:
            raise Rejected("not_your_turn", f"Nothing is laid to beat: {names[deal.attacker]} attacks now.",
                           seat=seat, details={"turn": deal.attacker, "case": "nothing_to_beat"})
        if seat != deal.defender:
            raise Rejected("not_your_turn", f"{names[deal.defender]} defends now, not {names[seat]}.", seat=seat,
                           details={"turn": deal.defender, "case": "defends"})
        pairs = self.read_beats(state, deal, command.get("beats"))
        deal.check_holds(seat, [other for _, other in pairs])
        event = {"type": "defend", "seat": seat,
                 "beats": [{"card": str(card), "with": str(other)} for card, other in pairs]}
        breaks = [self.wrong_beat(card, other, deal.trump_suit) for card, other in pairs
                  if not beats(card, other, deal.trump_suit)]
        return judged(event, breaks, force, seat)

    def wrong_beat(self, card: Card, other: Card, trump: str) -> tuple[str, str]:
        code = "beat_too_low" if other.suit == card.suit else "beat_wrong_suit"
        details = {"card": str(card), "with": str(other), "trump": trump}
        if card.suit == trump:
            return code, f"{other} does not beat {card}: a trump is beaten only by a higher trump.", {
                **details, "case": "trump"}
        suit, trumps = SUIT_NAMES[card.suit], SUIT_NAMES[trump] + "s"
        return code, f"{other} does not beat {card}: only a higher {suit} or a trump ({trumps}) does.", {
            **details, "suit": card.suit}

    def read_beats(self, state: Table, deal: DurenDeal, beats_given: object) -> list[tuple[Card, Card]]:
        example = "[{\"card\": \"9S\", \"with\": \"10S\"}]"
        if not isinstance(beats_given, list):
            raise InvalidInput("bad_beats", f"beats is a list like {example}; an empty list takes every card.")
        pairs = []
        for beat in beats_given:
            if not isinstance(beat, dict) or "card" not in beat or "with" not in beat:
                raise InvalidInput("bad_beats", f"Each beat names the card and what beats it, as in {example}.")
            card = self.read_card(state, beat["card"], "beats")
            if card not in deal.pending.attack:
                laid = " ".join(map(str, deal.pending.attack))
                raise Rejected("not_on_table", f"{card} was not laid in this attack ({laid}).", seat=deal.defender,
                               details={"card": str(card), "laid": [str(c) for c in deal.pending.attack]})
            pairs.append((card, self.read_card(state, beat["with"], "beats")))
        for index in (0, 1):
            twice = [card for card, count in Counter(pair[index] for pair in pairs).items() if count > 1]
            if twice:
                raise InvalidInput("bad_beats", f"{twice[0]} is named twice in the defence.", {"beats": beats_given})
        return pairs

    # --- shared --------------------------------------------------------------------------------
    def score_if_over(self, state: Table, deal: DurenDeal) -> None:
        if not deal.over:
            return
        winner = deal.result["winner"]
        if winner is not None:
            state.scores[winner] += 1
        state.record_history(deal.number, deal.dealer, state.seats, winner=winner)

    # --- views ---------------------------------------------------------------------------------
    def payments(self, state: Table, stake: Decimal) -> tuple[dict[int, Decimal], dict[int, Decimal]]:
        """Each deal lost pays the stake to its winner; a draw pays nothing."""
        won = {seat: state.scores[seat] * stake for seat in state.seats}
        lost = {seat: won[1 - seat] for seat in state.seats}
        return lost, won

    def ranking(self, state: Table) -> list[list[int]]:
        """By series points, most first; equal points share their places."""
        return by_points(state)

    def expected_in_deal(self, state: Table, deal: DurenDeal) -> dict:
        if deal.awaiting_defence:
            return {"type": "defend", "seat": deal.defender, "deal": deal.number, "round": deal.round_number,
                    "cards": [str(card) for card in deal.pending.attack], "trump": deal.trump_suit}
        attacker = deal.attacker
        most = min(deal.hands[attacker], deal.hands[1 - attacker])
        return {"type": "attack", "seat": attacker, "deal": deal.number, "round": deal.round_number + 1,
                "sizes": [size for size in ATTACK_SIZES if size <= most], "exchange": self.exchange_open(deal)}

    def exchange_open(self, deal: DurenDeal) -> dict | None:
        """Before the first attack: who may still swap the nine of trumps for the face-up card."""
        nine = Card(NINE, deal.trump_suit)
        if deal.rounds or deal.face_up == nine:
            return None
        seats = [seat for seat in (0, 1) if deal.may_hold(seat, nine)]
        return {"nine": str(nine), "face_up": str(deal.face_up), "seats": seats} if seats else None

    def hands_secret(self, state: Table) -> bool:
        """Always, once dealt: the loser of a deal never plays their last cards."""
        return state.deal is not None

    def deal_view(self, state: Table) -> dict | None:
        deal = state.deal
        return None if deal is None else deal.view()

    tallies = ("deals", "deals_lost")

    def tally(self, state: Table, seat: int) -> dict[str, int]:
        """The deals played to the end and those the player lost (left holding cards); a draw is not lost."""
        lost = sum(1 for deal in state.history if deal["winner"] is not None and deal["winner"] != seat)
        return {"deals": state.deals_in[seat], "deals_lost": lost}

    def player_view(self, state: Table, seat: int) -> dict:
        deal = state.deal
        hand = deal.hands[seat] if deal is not None and not deal.over else None
        return {"points": state.scores[seat], "hand_size": hand}


GAME = Duren()
