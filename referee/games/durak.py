"""Durak, the throw-in fool (RULES.md §6): two to six players, six cards each, a talon, bouts with throw-ins and
(with `transfer`) transfers; the last player holding cards is the durak of the deal.

Each bout is logged as the table plays it: the lead and every throw-in (`attack`, from any seat but the
defender's), the beats (`defend`, one or several at a time), a transfer (`transfer`), "I take" (`take`) and the
bout's end (`done`). Drawing from the talon is not logged: it follows from the rules (the leader first, then
clockwise, the bout's last defender last). Once the talon is gone a player without cards is out of the deal; when
at most one player holds cards after a bout, the deal is over: that player is the durak (nobody: a draw). The
durak deals next; the series runs until `end`.

Events, as recorded: `{"type": "deal", "dealer": 0, "trump": "7H", "attacker": 2}` (the turned card; `attacker`
where the rule does not name the first attacker: the first deal, after a draw; optional `hands`, six cards for any
seat), `{"type": "attack", "seat": 1, "cards": ["9S", "9H"]}`, `{"type": "defend", "seat": 2, "beats":
[{"card": "9S", "with": "JS"}]}`, `{"type": "transfer", "seat": 2, "cards": ["9D"]}`, `{"type": "take", "seat":
2}`, `{"type": "done"}`, `{"type": "end"}`.

The referee never sees the hands. `DurakDeal` (durak_deal.py) keeps every hand size, the talon, the bout, the
discards and every card whose place is known, and every rule here can be judged when the event comes in, so
Durak, like Dureń, has no blind claims. The verdicts:

- **Never forceable** (cannot have happened): `not_your_turn` (a lead by another than the attacker, a throw-in by
  the defender or by a seat the option leaves out, a defence, a transfer or a take by another than the defender,
  anything with no bout on the table), `out_of_deal` (a player without cards once the talon is gone),
  `defender_took` (a beat or a transfer after "I take", "I take" twice), `bout_unbeaten` (`done` with cards
  unbeaten and no "I take"), `transfer_too_late` (a card of the bout is beaten), `no_transfer` (the option is
  off), `not_on_table` (beating a card that is not an unbeaten attacking card), the cards' places as in Dureń
  (`card_discarded`, `card_on_table`, `card_under_stock`, `card_in_other_hand`, `card_not_held`,
  `not_enough_cards`), `attacker_required`, `no_deal`, `deal_in_progress`.
- **Forceable** rule breaks (with `force: true` recorded with a warning and a finding): `lead_one_rank`,
  `throw_in_rank` (a rank not on the table), `bout_limit` (more attacking cards than the bout holds),
  `transfer_rank`, `transfer_too_large` (the next defender holds fewer cards than the attack would be),
  `beat_wrong_suit`, `beat_too_low`. `wrong_dealer` and `wrong_attacker` only warn, as a deal is not a play.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from ..cards import RANKS, Card, deck, show
from ..verdicts import InvalidInput, RefereeWarning, Rejected
from .base import Decision, Game, judged, let_stand
from .durak_deal import BOUT_CAP, FIRST_BOUT_CAP, HAND_SIZE, DurakDeal
from .durak_shapes import EVENT_SCHEMAS, SCHEMAS
from .duren import Duren, beats
from .options import Option
from .table import Table, end_match, groups_by, seat_of

MAX_PLAYERS_OF_DECK = {24: 4, 36: 6, 52: 6}


class Durak(Game):
    name = "durak"
    title = "Durak"
    description = ("Two to six players, six cards each and a talon; lead, throw in cards of the ranks on the table, "
                   "beat with a higher card of the suit or a trump, or take the lot. The last one holding cards is "
                   "the durak.")
    min_players = 2
    max_players = 6
    suited = True
    rank_order = RANKS
    keypad = "bout"
    player_figures = ("minus_points",)
    deal_figure = "gained"
    example = {
        "summary": "Durak for three: Bob leads a pair of nines, Cid beats one",
        "match": {"players": ["Ann", "Bob", "Cid"], "stake": "1", "currency": "PLN"},
        "events": [{"type": "deal", "dealer": 0, "trump": "7H", "attacker": 1},
                   {"type": "attack", "seat": 1, "cards": ["9S", "9D"]},
                   {"type": "defend", "seat": 2, "beats": [{"card": "9S", "with": "JS"}]}],
    }
    event_fields = {"deal": frozenset({"dealer", "hands", "trump", "attacker"}),
                    "attack": frozenset({"seat", "cards"}), "defend": frozenset({"seat", "beats"}),
                    "transfer": frozenset({"seat", "cards"}), "take": frozenset({"seat"}), "done": frozenset(),
                    "end": frozenset()}
    event_types = frozenset(event_fields)
    options = (
        Option("deck", "integer", 36, "36 cards (six to ace), 24 (nine to ace, at most four players) or 52 (two to "
               "ace).", choices=(24, 36, 52)),
        Option("transfer", "boolean", False, "Perevodnoy: the defender may pass the attack on with a card of its "
               "rank, before beating any card."),
        Option("throw_in", "choice", "all", "Who may throw in: every player but the defender (all), or only the "
               "attacker and the player to the defender's left (neighbours).", choices=("all", "neighbours")),
        Option("lead_same_rank", "boolean", True, "The lead may be several cards of one rank (else one card)."),
        Option("first_bout_five", "boolean", True, "The first bout of a deal holds at most five attacking cards."),
        Option("first_attack", "choice", "left_of_durak", "After a deal with a durak: the player to the durak's left "
               "attacks first (left_of_durak), or the player to the durak's right attacks the durak (durak).",
               choices=("left_of_durak", "durak")),
    )
    schemas = SCHEMAS
    event_schemas = EVENT_SCHEMAS

    # Rules that are Dureń's too: a trump names the deal, a list of cards is read alike, a beat is judged alike,
    # and the hands stay the table's secret (the durak never plays their last cards).
    turned_up = Duren.turned_up
    read_cards = Duren.read_cards
    wrong_beat = Duren.wrong_beat
    hands_secret = Duren.hands_secret

    def deck_size(self, options: dict) -> int:
        return options["deck"]

    def hand_sizes(self, options: dict, players: int) -> list[int]:
        return [HAND_SIZE]

    def check_options(self, options: dict, players: int) -> dict:
        most = MAX_PLAYERS_OF_DECK[options["deck"]]
        if players > most:
            return {"deck": f"deck {options['deck']} deals six cards to at most {most} players, not {players}"}
        return {}

    # --- the fold ------------------------------------------------------------------------------
    def acting(self, state: Table, command: dict) -> tuple[DurakDeal, int]:
        """The deal being played and the seat that acts in it, which must still be in the deal."""
        deal, seat = self.current_deal(state), seat_of(state, command)
        if seat in deal.out:
            raise Rejected("out_of_deal", f"{state.names[seat]} has no cards left and is out of this deal.",
                           seat=seat, details={})
        return deal, seat

    def evolve_end(self, state: Table, event: dict) -> None:
        end_match(state)
        state.final = self.ranking(state)

    def evolve_attack(self, state: Table, event: dict) -> None:
        deal, cards = state.deal, [self.card(text) for text in event["cards"]]
        if deal.bout is None:
            deal.lead(event["seat"], cards)
        else:
            deal.throw_in(event["seat"], cards)
        self.note_illegal(state, event)

    def evolve_defend(self, state: Table, event: dict) -> None:
        state.deal.beat(event["seat"], [(self.card(b["card"]), self.card(b["with"])) for b in event["beats"]])
        self.note_illegal(state, event)

    def evolve_transfer(self, state: Table, event: dict) -> None:
        state.deal.transfer(event["seat"], [self.card(text) for text in event["cards"]])
        self.note_illegal(state, event)

    def evolve_take(self, state: Table, event: dict) -> None:
        state.deal.take()

    def evolve_done(self, state: Table, event: dict) -> None:
        deal = state.deal
        deal.end_bout()
        if deal.over:
            durak = deal.result["durak"]
            if durak is not None:
                state.scores[durak] += 1
            state.record_history(deal.number, deal.dealer, deal.seats, durak=durak)

    tallies = ("deals", "deals_lost")

    def tally(self, state: Table, seat: int) -> dict[str, int]:
        """The deals played to the end and those the player lost (the durak of the deal); a draw is not lost."""
        lost = sum(1 for deal in state.history if deal["durak"] == seat)
        return {"deals": state.deals_in[seat], "deals_lost": lost}

    def note_illegal(self, state: Table, event: dict) -> None:
        bout = state.deal.bout
        state.findings.extend(let_stand(event, state.deal.number, bout.number if bout else None))

    # --- deal ----------------------------------------------------------------------------------
    def whole_pack(self, state: Table) -> bool:
        return HAND_SIZE * len(state.names) == state.options["deck"]

    def dealer_rule(self, state: Table) -> tuple[int, str] | None:
        """The durak of the last deal deals; after a draw, the player to the last dealer's left. The first deal is
        free."""
        deal = state.deal
        if deal is None:
            return None
        durak = deal.result.get("durak") if deal.result else None
        if durak is not None:
            return durak, f"{state.names[durak]} was the durak of the last deal"
        return state.next_seat_in(deal.dealer), f"the last deal was a draw and {state.names[deal.dealer]} dealt it"

    def dealer_reason(self, state: Table) -> dict:
        deal = state.deal
        durak = deal.result.get("durak") if deal.result else None
        if durak is not None:
            return {"case": "durak", "loser": durak}
        return {"case": "draw", "last_dealer": deal.dealer}

    def attacker_rule(self, state: Table) -> int | None:
        """Who attacks first in the next deal by the rule; None where the table names them (first deal, draw)."""
        deal = state.deal
        durak = deal.result.get("durak") if deal is not None and deal.result else None
        if durak is None:
            return None
        n = len(state.names)
        return (durak + 1) % n if state.options["first_attack"] == "left_of_durak" else (durak - 1) % n

    def deal_fields(self, state: Table, command: dict, trump: Card) -> dict:
        hands = self.read_dealt(state, command.get("hands"), HAND_SIZE, None if self.whole_pack(state) else trump)
        attacker = self.attacker_rule(state)
        if command.get("attacker") is not None:
            attacker = seat_of(state, command, "attacker")
        elif attacker is None:
            raise InvalidInput("attacker_required", "Name the first attacker: the player with the lowest trump (in "
                               "the first deal), or the table's choice (after a draw).")
        fields = {"trump": str(trump), "attacker": attacker}
        if hands:
            fields["hands"] = {str(seat): [str(card) for card in cards] for seat, cards in sorted(hands.items())}
        return fields

    def deal_checks(self, state: Table, event: dict, force: bool) -> list[RefereeWarning]:
        """The turned card in the dealer's hand when the whole pack is dealt; the first attacker the rule's (after a
        durak) or, in the first deal, not one whose every trump is higher than a trump an entered hand holds."""
        trump, named = self.card(event["trump"]), event["attacker"]
        hands = {int(seat): [self.card(text) for text in cards] for seat, cards in event.get("hands", {}).items()}
        if self.whole_pack(state):
            dealer = event["dealer"]
            holders = [seat for seat, cards in hands.items() if trump in cards]
            if holders not in ([], [dealer]) or (dealer in hands and trump not in hands[dealer]):
                raise InvalidInput("bad_hands", f"The whole pack is dealt: the turned card {trump} is the dealer's "
                                   "last card, in the dealer's hand.", {"card": str(trump)})
        rule = self.attacker_rule(state)
        if rule is not None and named != rule:
            return self.wrong_attacker(state, named, force, f"{state.names[rule]} attacks first now "
                                       f"({self.attacker_why(state)}), not {state.names[named]}.",
                                       {"attacker": rule, "case": state.options["first_attack"]})
        lower = self.lower_trump(state, hands, event["dealer"], named, trump) if state.deal is None else None
        if lower is not None:
            seat, card = lower
            return self.wrong_attacker(state, named, force, f"{state.names[seat]} holds {card}, a lower trump than "
                                       f"any {state.names[named]} can hold: the lowest trump attacks first.",
                                       {"attacker": seat, "card": str(card), "case": "lowest_trump"})
        return []

    def wrong_attacker(self, state: Table, named: int, force: bool, message: str,
                       details: dict) -> list[RefereeWarning]:
        if not force:
            raise Rejected("wrong_attacker", message, seat=named, details=details)
        return [RefereeWarning("wrong_attacker", message, named, details)]

    def attacker_why(self, state: Table) -> str:
        durak = state.deal.result["durak"]
        side = "left" if state.options["first_attack"] == "left_of_durak" else "right"
        return f"to the {side} of {state.names[durak]}, the durak of the last deal"

    def lower_trump(self, state: Table, hands: dict[int, list[Card]], dealer: int, named: int,
                    trump: Card) -> tuple[int, Card] | None:
        """A trump another player is known to hold (an entered hand; the dealer's turned card when the whole pack is
        dealt) lower than every trump the named attacker can hold, with its seat; else None."""
        order, suit = RANKS.index, trump.suit
        shown = {seat: [card for card in cards if card.suit == suit] for seat, cards in hands.items()}
        if self.whole_pack(state) and trump not in shown.get(dealer, []):
            shown.setdefault(dealer, []).append(trump)
        if named in hands:
            theirs = shown.get(named, [])
        else:
            elsewhere = {card for seat, cards in shown.items() if seat != named for card in cards}
            under_talon = None if self.whole_pack(state) else trump
            theirs = [card for card in deck(state.options["deck"])
                      if card.suit == suit and card not in elsewhere and card != under_talon]
        lowest = min((order(card.rank) for card in theirs), default=len(RANKS))
        found = [(order(card.rank), seat, card) for seat, cards in shown.items() if seat != named for card in cards
                 if order(card.rank) < lowest]
        return min(found)[1:] if found else None

    def new_deal(self, state: Table, event: dict, hands: dict[int, list[Card]]) -> DurakDeal:
        first_cap = FIRST_BOUT_CAP if state.options["first_bout_five"] else BOUT_CAP
        return DurakDeal.dealt(state.deals_played, event["dealer"], self.card(event["trump"]),
                               frozenset(deck(state.options["deck"])), hands, state.names, event["attacker"],
                               first_cap)

    # --- a bout --------------------------------------------------------------------------------
    def decide_attack(self, state: Table, command: dict, force: bool) -> Decision:
        deal, seat = self.acting(state, command)
        names, bout = state.names, deal.bout
        if bout is None and seat != deal.attacker:
            raise Rejected("not_your_turn", f"{names[deal.attacker]} leads the bout, not {names[seat]}.", seat=seat,
                           details={"turn": deal.attacker, "case": "leads"})
        if bout is not None and seat == bout.defender:
            raise Rejected("not_your_turn", f"{names[seat]} defends this bout and cannot throw in.", seat=seat,
                           details={"turn": seat, "case": "defender"})
        if bout is not None and state.options["throw_in"] == "neighbours" and seat not in (
                bout.attacker, deal.next_holding(bout.defender)):
            raise Rejected("not_your_turn", f"Only the attacker and the player to the defender's left throw in: "
                           f"not {names[seat]}.", seat=seat, details={"turn": bout.attacker, "case": "neighbours"})
        cards = self.read_cards(state, command.get("cards"), "cards")
        deal.check_holds(seat, cards)
        event = {"type": "attack", "seat": seat, "cards": [str(card) for card in cards]}
        return judged(event, self.attack_breaks(state, deal, seat, cards), force, seat)

    def throwers(self, state: Table, deal: DurakDeal) -> list[int]:
        """Who may throw in now: every player holding cards but the defender, or with `throw_in: "neighbours"` the
        attacker and the player to the defender's left."""
        bout = deal.bout
        if state.options["throw_in"] == "neighbours":
            left = deal.next_holding(bout.defender)
            seats = {bout.attacker, left} - {None, bout.defender}
            return sorted(seat for seat in seats if deal.hands[seat] > 0)
        return [seat for seat in deal.holding() if seat != bout.defender]

    def attack_breaks(self, state: Table, deal: DurakDeal, seat: int, cards: list[Card]) -> list[tuple]:
        bout, shown = deal.bout, show(cards)
        breaks = []
        if bout is None:
            defender = deal.next_holding(seat)
            limit, laid = deal.limit_for(defender), 0
            ranks = {card.rank for card in cards}
            if len(cards) > 1 and not state.options["lead_same_rank"]:
                breaks.append(("lead_one_rank", f"A bout is led with one card, not {len(cards)} ({shown}).",
                               {"cards": [str(card) for card in cards], "case": "one_card"}))
            elif len(ranks) > 1:
                breaks.append(("lead_one_rank", f"A lead of several cards is of one rank; {shown} is not.",
                               {"cards": [str(card) for card in cards]}))
        else:
            defender, limit, laid = bout.defender, bout.limit, len(bout.attacks)
            strange = [card for card in cards if card.rank not in bout.ranks]
            if strange:
                ranks = " ".join(sorted(bout.ranks, key=RANKS.index))
                breaks.append(("throw_in_rank", f"A card thrown in has a rank already on the table ({ranks}); "
                               f"{show(strange)} has not.", {"cards": [str(card) for card in strange],
                                                             "ranks": sorted(bout.ranks, key=RANKS.index)}))
        if laid + len(cards) > limit:
            breaks.append(self.over_limit(state, deal, defender, limit, laid, len(cards)))
        return breaks

    def over_limit(self, state: Table, deal: DurakDeal, defender: int, limit: int, laid: int, adding: int) -> tuple:
        name = state.names[defender]
        cap = deal.first_cap if deal.bouts == 0 else BOUT_CAP
        why = f"{name} holds {deal.hands[defender]}" if deal.hands[defender] < cap else (
            "the first bout holds five" if deal.bouts == 0 and cap == FIRST_BOUT_CAP else "a bout holds six")
        return "bout_limit", (f"This bout holds at most {limit} attacking cards ({why}); {laid} are laid, and "
                              f"{adding} more would make {laid + adding}."), {
            "limit": limit, "laid": laid, "size": adding, "defender": defender}

    def decide_defend(self, state: Table, command: dict, force: bool) -> Decision:
        deal, seat = self.acting(state, command)
        self.defenders_bout(state, deal, seat, "beats")
        pairs = self.read_beats(state, deal, command.get("beats"))
        deal.check_holds(seat, [other for _, other in pairs])
        event = {"type": "defend", "seat": seat,
                 "beats": [{"card": str(card), "with": str(other)} for card, other in pairs]}
        breaks = [self.wrong_beat(card, other, deal.trump_suit) for card, other in pairs
                  if not beats(card, other, deal.trump_suit)]
        return judged(event, breaks, force, seat)

    def defenders_bout(self, state: Table, deal: DurakDeal, seat: int, what: str):
        """The bout on the table, which `seat` defends and has not taken: else the refusal."""
        names, bout = state.names, deal.bout
        if bout is None:
            raise Rejected("not_your_turn", f"No bout is on the table: {names[deal.attacker]} leads first.",
                           seat=seat, details={"turn": deal.attacker, "case": "no_bout"})
        if seat != bout.defender:
            raise Rejected("not_your_turn", f"{names[bout.defender]} defends this bout, not {names[seat]}.",
                           seat=seat, details={"turn": bout.defender, "case": "defends"})
        if bout.taking:
            raise Rejected("defender_took", f"{names[seat]} said \"I take\": no more {what} in this bout.",
                           seat=seat, details={})
        return bout

    def read_beats(self, state: Table, deal: DurakDeal, given: object) -> list[tuple[Card, Card]]:
        example = "[{\"card\": \"9S\", \"with\": \"JS\"}]"
        if not isinstance(given, list) or not given:
            raise InvalidInput("bad_beats", f"beats is a non-empty list like {example}; to take, log take.")
        pairs = []
        for beat in given:
            if not isinstance(beat, dict) or "card" not in beat or "with" not in beat:
                raise InvalidInput("bad_beats", f"Each beat names the card and what beats it, as in {example}.")
            card = self.read_card(state, beat["card"], "beats")
            attack = deal.bout.find(card)
            if attack is None or attack.beaten_by is not None:
                unbeaten = [str(c) for c in deal.bout.unbeaten]
                case = "beaten" if attack is not None else "absent"
                said = "is beaten already" if attack is not None else "is not an attacking card of this bout"
                raise Rejected("not_on_table", f"{card} {said}; to beat: {' '.join(unbeaten) or 'nothing'}.",
                               seat=deal.bout.defender, details={"card": str(card), "laid": unbeaten, "case": case})
            pairs.append((card, self.read_card(state, beat["with"], "beats")))
        for index in (0, 1):
            twice = [card for card, count in Counter(pair[index] for pair in pairs).items() if count > 1]
            if twice:
                raise InvalidInput("bad_beats", f"{twice[0]} is named twice in the defence.", {"beats": given})
        return pairs

    def decide_transfer(self, state: Table, command: dict, force: bool) -> Decision:
        deal, seat = self.acting(state, command)
        names = state.names
        if not state.options["transfer"]:
            raise Rejected("no_transfer", "This table plays without transfers (option transfer).", seat=seat,
                           details={})
        bout = self.defenders_bout(state, deal, seat, "transfers")
        if bout.beaten_any:
            raise Rejected("transfer_too_late", f"A card of this bout is beaten: {names[seat]} can no longer pass "
                           "it on.", seat=seat, details={})
        cards = self.read_cards(state, command.get("cards"), "cards")
        deal.check_holds(seat, cards)
        event = {"type": "transfer", "seat": seat, "cards": [str(card) for card in cards]}
        ranks = {attack.card.rank for attack in bout.attacks}
        breaks = []
        wrong = [card for card in cards if len(ranks) != 1 or card.rank not in ranks]
        if wrong:
            breaks.append(("transfer_rank", f"A transfer is a card of the attacking cards' rank "
                           f"({' '.join(sorted(ranks, key=RANKS.index))}); {show(wrong)} is not.",
                           {"cards": [str(card) for card in wrong], "ranks": sorted(ranks, key=RANKS.index)}))
        after = len(bout.attacks) + len(cards)
        left = deal.next_holding(seat)
        if left is None:
            raise Rejected("no_transfer", f"Nobody else holds cards: {names[seat]} cannot pass the bout on.",
                           seat=seat, details={"case": "nobody"})
        held = deal.hands[left]
        if held < after:
            breaks.append(("transfer_too_large", f"{names[left]} would defend {after} cards and holds {held}.",
                           {"defender": left, "held": held, "size": after}))
        cap = deal.first_cap if deal.bouts == 0 else BOUT_CAP
        if after > cap:
            breaks.append(self.over_limit(state, deal, left, cap, len(bout.attacks), len(cards)))
        return judged(event, breaks, force, seat)

    def decide_take(self, state: Table, command: dict, force: bool) -> Decision:
        deal, seat = self.acting(state, command)
        self.defenders_bout(state, deal, seat, "\"I take\"")
        return Decision({"type": "take", "seat": seat})

    def decide_done(self, state: Table, command: dict, force: bool) -> Decision:
        deal = self.current_deal(state)
        bout = deal.bout
        if bout is None:
            raise Rejected("not_your_turn", f"No bout is on the table: {state.names[deal.attacker]} leads first.",
                           details={"turn": deal.attacker, "case": "no_bout"})
        if not bout.taking and bout.unbeaten:
            name = state.names[bout.defender]
            raise Rejected("bout_unbeaten", f"{show(bout.unbeaten)} is not beaten: {name} beats it or takes.",
                           seat=bout.defender, details={"cards": [str(card) for card in bout.unbeaten]})
        return Decision({"type": "done"})

    # --- views ---------------------------------------------------------------------------------
    def payments(self, state: Table, stake: Decimal) -> tuple[dict[int, Decimal], dict[int, Decimal]]:
        """Each deal's durak pays the stake to each of the other players; a draw pays nothing."""
        n, total = len(state.names), sum(state.scores)
        paid = {seat: state.scores[seat] * (n - 1) * stake for seat in state.seats}
        received = {seat: (total - state.scores[seat]) * stake for seat in state.seats}
        return paid, received

    def ranking(self, state: Table) -> list[list[int]]:
        """The fewest times the durak first; equal counts share their places."""
        return groups_by(state.seats, lambda seat: state.scores[seat])

    def expected_deal(self, state: Table) -> dict:
        return {**super().expected_deal(state), "attacker": self.attacker_rule(state)}

    def expected_in_deal(self, state: Table, deal: DurakDeal) -> dict:
        bout = deal.bout
        common = {"deal": deal.number, "trump": deal.trump_suit}
        if bout is None:
            defender = deal.next_holding(deal.attacker)
            return {"type": "attack", "seat": deal.attacker, "defender": defender, "bout": deal.bouts + 1,
                    "limit": deal.limit_for(defender), **common}
        shown = {"bout": bout.number, "defender": bout.defender, "cards": [str(card) for card in bout.unbeaten],
                 "ranks": sorted(bout.ranks, key=RANKS.index), "room": max(0, bout.limit - len(bout.attacks)),
                 "throw_in": self.throwers(state, deal), "taking": bout.taking, **common}
        if bout.unbeaten and not bout.taking:
            transfer = bool(state.options["transfer"]) and not bout.beaten_any
            return {"type": "defend", "seat": bout.defender, "transfer": transfer, **shown}
        return {"type": "done", "seat": bout.defender, **shown}

    def deal_view(self, state: Table) -> dict | None:
        deal = state.deal
        return None if deal is None else deal.view()

    def player_view(self, state: Table, seat: int) -> dict:
        deal = state.deal
        return {"hand_size": deal.hands[seat] if deal is not None and not deal.over else None}


GAME = Durak()
