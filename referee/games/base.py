"""What every game shares: options, the catalogue, the fold, cards, the deal template, dealers and places.

A game is a stateless object with `new_state`, `decide` (command -> event, or a rejection), `evolve`
(applies a recorded event to the state), `expected`, views and `ranking`. The state it works on is a
`Table` (table.py, or a subclass of it) that only the game changes. A deal is decided and applied by one
template (`decide_deal`, `evolve_deal`): a game says what its deal records (`deal_fields`) and what it
starts (`new_deal`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..cards import RANKS, Card, copies_in_deck, parse_card
from ..verdicts import Finding, InvalidInput, RefereeWarning, Rejected
from .options import Option
from .table import Table, check_playing, check_seat_in, end_match, seat_of

COMMON_FIELDS = frozenset({"type", "force", "expect_seq"})
"""What any event may carry: its type, `force`, and the `expect_seq` of the API."""

Lot = Callable[[int], int]
"""Draws a number 0 <= n < bound: how chance (a dealer drawn by lot) enters; its result is stored."""


@dataclass(frozen=True)
class Decision:
    """The event to record for a command, and the warnings that go with it."""

    event: dict
    warnings: tuple[RefereeWarning, ...] = ()


class Game:
    """The interface of a game; each game module provides one instance."""

    name: str = ""
    title: str = ""
    description: str = ""
    min_players: int = 2
    max_players: int = 8
    suited: bool = True
    rank_order: tuple[str, ...] = RANKS
    """The ranks, lowest first in play (the deck may leave some out)."""
    deal_word: str = "deal"
    """What the game calls a deal in its messages (Oh Hell's are hands)."""
    table: type[Table] = Table
    options: tuple[Option, ...] = ()
    event_types: frozenset[str] = frozenset()
    event_fields: dict[str, frozenset[str]] = {}
    """The fields each event type of the game reads, besides `type` and `force`."""
    keypad: str = "suit_rank"
    """How the page's keypad works: "ranks" (a rank alone), "suit_rank" (a suit, then a rank), "attack_beat"
    (Dureń's attacks and beats), "bout" (Durak's bouts: throw-ins from any seat, beats, take, pass on, done)."""
    trick: str | None = None
    """Who takes a trick, for a page ahead of the server: "climb" (the latest highest card), "follow" (the highest
    trump, else the highest card of the suit led), or None (the page waits for the server)."""
    tricks_count: bool = True
    """Whether the cards of a trick count for its taker (else its highest card only leads the next)."""
    player_figures: tuple[str, ...] = ("points",)
    """What the scoreboard shows per player, of: minus_points, points, lives, deal_points, bid_tricks."""
    deal_figure: str = "gained"
    example: dict = {}
    """The contract's example match: `summary`, the new `match` (players, options, stake) and its `events`."""
    """What the scoresheet shows per player and deal, of: gained, deal_points_lives, bid_tricks, won."""
    schemas: dict[str, dict] = {}
    """The shapes of what the game shows, in JSON Schema, for the contract (`python -m api.contract --write`):
    `Player` (the player's own fields, besides those every player has; `lives` follows `player_figures`), `Deal`
    (the current deal) and `Expected` (a `oneOf` of what may be due), and any shape they name. A `$ref` is a
    short name: one of the game's own shapes, else a shape the contract shares between games (`Seat`, `Card`,
    `ClimbingDeal`...)."""
    event_schemas: dict[str, dict] = {}
    """The request bodies of the events the game brings, by type (the fields besides `type`, `force` and
    `expect_seq`, in JSON Schema, as `schemas`); an event of several games (deal, play, end) is the contract's."""

    # --- options -----------------------------------------------------------------------------
    def resolve_options(self, given: dict | None, players: int) -> dict:
        """The options with defaults filled in; a clear error for an unknown or bad one."""
        given = {} if given is None else given
        if not isinstance(given, dict):
            raise InvalidInput("bad_options", "Options are an object of name: value.")
        known = {option.name: option for option in self.options}
        errors = {}
        resolved = {}
        for name in given:
            if name not in known:
                errors[name] = f"{self.title} has no option {name!r}"
        for name, option in known.items():
            try:
                resolved[name] = option.check(given[name]) if name in given else option.default
            except ValueError as exc:
                errors[name] = f"{name} {exc}"
        if not errors:
            errors = self.check_options(resolved, players)
        if errors:
            raise InvalidInput("bad_options", "; ".join(errors.values()) + ".", {"options": errors})
        return resolved

    def check_options(self, options: dict, players: int) -> dict:
        """Checks that involve several options or the number of players: {option: problem}."""
        return {}

    def catalogue(self) -> dict:
        defaults = {option.name: option.default for option in self.options}
        players = range(self.min_players, self.max_players + 1)
        return {
            "game": self.name,
            "title": self.title,
            "description": self.description,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "suited": self.suited,
            "events": sorted(self.event_types),
            "options": [option.describe() for option in self.options],
            "rules": {**self.rules(defaults, self.min_players),
                      "hand_sizes": {str(n): self.hand_sizes(defaults, n) for n in players}},
        }

    # --- what the page, the bench and the tests learn of the game ----------------------------
    def deck_size(self, options: dict) -> int:
        return 52

    def copies(self, options: dict) -> Counter[Card]:
        """How many of each card the deck holds with these options (none of a card it does not hold); shared, as
        `copies_in_deck`: read it, never change it."""
        return copies_in_deck(self.deck_size(options), suited=self.suited)

    def ranks(self, options: dict) -> list[str]:
        """The ranks of the deck with these options, lowest first in play."""
        present = {card.rank for card in self.copies(options)}
        return [rank for rank in self.rank_order if rank in present]

    def hand_sizes(self, options: dict, players: int) -> list[int]:
        """The cards dealt to each player in successive deals (the last size repeats)."""
        raise NotImplementedError

    def chart(self, options: dict) -> dict:
        """What the chart draws after each deal: `figure` of the history (scores or lives), from `start`, with
        the `limit` line (or None), labelled as `label` (minus_points, points, lives)."""
        return {"figure": "scores", "label": "points", "start": 0, "limit": None}

    def rules(self, options: dict, players: int) -> dict:
        """The game as the page draws it with these options: deck, keypad, tricks and figures."""
        return {
            "suited": self.suited,
            "ranks": self.ranks(options),
            "hand_sizes": self.hand_sizes(options, players),
            "events": sorted(self.event_types),
            "keypad": self.keypad,
            "trick": self.trick,
            "tricks_count": self.tricks_count,
            "figures": {"player": list(self.player_figures), "deal": self.deal_figure, "chart": self.chart(options)},
        }

    # --- the fold ------------------------------------------------------------------------------
    def check_fields(self, command: dict) -> None:
        """Refuses a field the game does not read in this event, rather than drop it unseen."""
        kind = command.get("type")
        used = self.event_fields.get(kind, frozenset())
        unused = sorted(name for name, value in command.items()
                        if value is not None and name not in COMMON_FIELDS and name not in used)
        if unused:
            takes = ", ".join(sorted(used)) or "nothing but its type"
            raise InvalidInput("unused_field", f"{self.title}: a {kind} event takes {takes}, not {', '.join(unused)}.",
                               {"type": kind, "fields": unused})

    def new_state(self, names: list[str], options: dict) -> Table:
        n = len(names)
        return self.table(names=list(names), options=options, scores=[0] * n,
                          lives=[self.starting_lives(options)] * n, out=[False] * n, deals_in=[0] * n)

    def starting_lives(self, options: dict) -> int | None:
        """The lives each player starts with, in a game that counts lives."""
        return None

    def decide(self, state: Table, command: dict, lot: Lot | None = None) -> Decision:
        """The event `command` records: `decide_<type>(state, command, force)` says; a deal also gets `lot`."""
        check_playing(state)
        kind = command.get("type")
        if kind not in self.event_types:
            raise InvalidInput("bad_event_type", f"{self.title} has no event {kind!r}.", {"type": kind})
        force = command.get("force") is True
        if kind == "end":
            return Decision({"type": "end"})
        if kind == "deal":
            return self.decide_deal(state, command, lot, force)
        return getattr(self, f"decide_{kind}")(state, command, force)

    def evolve(self, state: Table, event: dict) -> None:
        """Applies a recorded event: `evolve_<type>(state, event)`."""
        getattr(self, f"evolve_{event['type']}")(state, event)

    # --- cards ---------------------------------------------------------------------------------
    def card(self, text: str) -> Card:
        """A card as recorded (already checked when it was decided)."""
        return parse_card(text, suited=self.suited)

    def read_card(self, state: Table, text: object, field: str = "card") -> Card:
        """A card of this game's deck, written in the API's notation in the command's `field`."""
        card = parse_card(text, suited=self.suited)
        if not self.copies(state.options)[card]:
            raise self.not_in_deck(state, card, text, field)
        return card

    def not_in_deck(self, state: Table, card: Card, text: object, field: str) -> InvalidInput:
        size = self.deck_size(state.options)
        return InvalidInput("card_not_in_deck", f"{card} is not in the {size}-card deck "
                            f"({self.ranks(state.options)[0]} to ace).", {field: text})

    def read_dealt(self, state: Table, hands: object, size: int, trump: Card | None = None) -> dict[int, list[Card]]:
        """Dealt hands, when the table gives them, `size` cards each, no card more often than the deck holds it
        (with the trump card turned up)."""
        parsed = read_hands(state, hands, size, lambda text: self.read_card(state, text, "hands"))
        counts = Counter(card for cards in parsed.values() for card in cards)
        if trump:
            counts[trump] += 1
        copies = self.copies(state.options)
        over = [card for card, count in counts.items() if count > copies[card]]
        if over:
            raise self.dealt_too_often(over, counts, copies)
        return parsed

    def dealt_too_often(self, over: list[Card], counts: Counter, copies: Counter) -> InvalidInput:
        """The refusal of hands that show cards more often than the deck holds them."""
        card = over[0]
        return InvalidInput("impossible_hands", f"The hands hold {counts[card]} × {card}; the deck has {copies[card]}.",
                            {"card": str(card)})

    # --- deals ---------------------------------------------------------------------------------
    def current_deal(self, state: Table) -> Any:
        """The deal being played; `no_deal` between deals."""
        deal = state.deal
        if deal is None or deal.over:
            raise Rejected("no_deal", f"No {self.deal_word} is being played: log the deal first.", details={})
        return deal

    def decide_deal(self, state: Table, command: dict, lot: Lot | None, force: bool) -> Decision:
        """A new deal, once the last one is over: its dealer (`choose_dealer`) and what the game records of the
        cards (`deal_fields`; a card the game needs named before the dealer, `turned_up`)."""
        if state.deal is not None and not state.deal.over:
            raise Rejected("deal_in_progress", f"{self.deal_word.capitalize()} {state.deal.number} is still being "
                           "played.", details={"deal": state.deal.number})
        trump = self.turned_up(state, command)
        dealer, warnings = self.choose_dealer(state, command, lot, force)
        event = {"type": "deal", "dealer": dealer, **self.deal_fields(state, command, trump)}
        warnings += self.deal_checks(state, event, force)
        if warnings:
            event["force"] = True
        return Decision(event, tuple(warnings))

    def turned_up(self, state: Table, command: dict) -> Card | None:
        """The card turned up at the deal, where it must be named before anything else is read."""
        return None

    def deal_fields(self, state: Table, command: dict, trump: Card | None) -> dict:
        """What a deal event records besides its dealer: the hands given, and the game's own."""
        raise NotImplementedError

    def deal_checks(self, state: Table, event: dict, force: bool) -> list[RefereeWarning]:
        """What a game checks of the whole deal event (dealer and cards together): raises what cannot be, or returns
        the warnings of what the table let stand with `force` (Durak's first attacker)."""
        return []

    def evolve_deal(self, state: Table, event: dict) -> None:
        hands = {int(seat): [self.card(text) for text in cards] for seat, cards in event.get("hands", {}).items()}
        state.deals_played += 1
        state.last_dealer = event["dealer"]
        state.deal = self.new_deal(state, event, hands)

    def new_deal(self, state: Table, event: dict, hands: dict[int, list[Card]]) -> Any:
        """The deal `event` starts, number `state.deals_played`, with the hands entered."""
        raise NotImplementedError

    def evolve_end(self, state: Table, event: dict) -> None:
        end_match(state)

    # --- dealers -------------------------------------------------------------------------------
    def dealer_rule(self, state: Table) -> tuple[int, str] | None:
        """The dealer the rules name for the next deal, and why; None while the table chooses freely."""
        if state.last_dealer is None:
            return None
        return state.next_seat_in(state.last_dealer), f"clockwise from {state.names[state.last_dealer]}"

    def next_dealer(self, state: Table) -> int | None:
        """Who deals next by the rules (None while the table chooses freely)."""
        rule = self.dealer_rule(state)
        return rule[0] if rule else None

    def choose_dealer(self, state: Table, command: dict, lot: Lot | None,
                      force: bool) -> tuple[int, list[RefereeWarning]]:
        """The dealer of a new deal: the rule's choice, or a free one for the first deal (by lot if not named)."""
        named = command.get("dealer")
        if named is not None:
            named = seat_of(state, command, "dealer")
            check_seat_in(state, named)
        rule = self.dealer_rule(state)
        if rule is None:
            if named is not None:
                return named, []
            if lot is None:
                raise InvalidInput("dealer_required", "Name the first dealer, or let the page draw one by lot.")
            seats_in = state.seats_in()
            return seats_in[lot(len(seats_in))], []
        dealer, why = rule
        if named is None or named == dealer:
            return dealer, []
        message = f"{state.names[dealer]} deals now ({why}), not {state.names[named]}."
        details = {"dealer": dealer, **self.dealer_reason(state)}
        if not force:
            raise Rejected("wrong_dealer", message, seat=named, details=details)
        return named, [RefereeWarning("wrong_dealer", message, named, details)]

    def dealer_reason(self, state: Table) -> dict:
        """Why the rule names the dealer, as details: `case` and the seat it turns on."""
        return {"case": "clockwise", "last_dealer": state.last_dealer}

    # --- views ---------------------------------------------------------------------------------
    def expected(self, state: Table) -> dict | None:
        """Who must do what next: a deal between deals, else the game's `expected_in_deal`."""
        if state.finished:
            return None
        deal = state.deal
        if deal is None or deal.over:
            return self.expected_deal(state)
        return self.expected_in_deal(state, deal)

    def expected_deal(self, state: Table) -> dict:
        number = state.deals_played + 1
        sizes = self.hand_sizes(state.options, len(state.names))
        return {"type": "deal", "dealer": self.next_dealer(state), "deal": number,
                "cards": sizes[min(number, len(sizes)) - 1]}

    def expected_in_deal(self, state: Table, deal: Any) -> dict:
        raise NotImplementedError

    def deal_view(self, state: Table) -> dict | None:
        raise NotImplementedError

    def player_view(self, state: Table, seat: int) -> dict:
        return {}

    def hands_secret(self, state: Table) -> bool:
        """Whether the hands entered for the current deal are still the table's secret: until every card of
        them is played, which in a game where every dealt card is played is when the deal is over."""
        return state.deal is not None and not state.deal.over

    def payments(self, state: Table, stake: Decimal) -> tuple[dict[int, Decimal], dict[int, Decimal]] | None:
        """(paid, received) per seat when the game settles otherwise than by the elimination pool."""
        return None

    tallies: tuple[str, ...] = ("deals",)
    """The game's own figures that a player's match adds to their figures across evenings (`referee.club`): whole
    numbers that add up, of: deals (played to the end), minus_points, lives_lost, bids, exact_bids, deals_lost. A
    figure the game does not keep is not among them (it is none, never 0)."""

    def tally(self, state: Table, seat: int) -> dict[str, int]:
        """One player's figures of `tallies` in this match, as its state stands."""
        return {"deals": state.deals_in[seat]}

    def ranking(self, state: Table) -> list[list[int]]:
        """Groups of seats, best first; a group shares the places it occupies."""
        if state.finished:
            groups = list(state.final)
        else:
            groups = [state.seats_in()] if state.seats_in() else []
        return [group for group in groups if group] + list(reversed(state.eliminated))


# --- helpers for decide() ------------------------------------------------------------------------



def read_hands(state: Table, hands: object, size: int, read_card: Callable[[object], Card]) -> dict[int, list[Card]]:
    """Dealt hands, when the table gives them: `{seat: [cards]}` for any of the seats in, `size` cards each.

    Each card is read with the game's `read_card`; whether the cards fit the deck is the game's to check.
    """
    if hands is None:
        return {}
    if not isinstance(hands, dict):
        raise InvalidInput("bad_hands", "hands is an object of seat: [cards].")
    parsed: dict[int, list[Card]] = {}
    for key, cards in hands.items():
        seat = seat_of(state, {"seat": int(key) if isinstance(key, str) and key.isdigit() else key})
        check_seat_in(state, seat)
        if seat in parsed:
            raise InvalidInput("bad_hands", f"{state.names[seat]}'s hand is given twice.", {"seat": seat})
        if not isinstance(cards, list) or len(cards) != size:
            raise InvalidInput("bad_hands", f"{state.names[seat]}'s hand must be a list of {size} cards.",
                               {"hands": {str(seat): cards}})
        parsed[seat] = [read_card(card) for card in cards]
    return parsed


def judged(event: dict, breaks: list[tuple], force: bool, seat: int) -> Decision:
    """The event, or the rules it breaks (code, message[, details]): rejected, or with `force` let stand as illegal.

    An event let stand carries `illegal` (the first code and its details, every message) and a warning; its
    `evolve` turns it into a finding with `let_stand`.
    """
    if not breaks:
        return Decision(event)
    code, details = breaks[0][0], verdict_details(breaks[0])
    message = " ".join(rule[1] for rule in breaks)
    if not force:
        raise Rejected(code, message, seat=seat, details=details)
    event = {**event, "force": True, "illegal": {"code": code, "message": message, "details": details}}
    return Decision(event, (RefereeWarning(code, f"Let stand: {message}", seat, details),))


def verdict_details(rule: tuple) -> dict:
    """The details of a broken rule given as (code, message) or (code, message, details)."""
    return dict(rule[2]) if len(rule) > 2 else {}


def let_stand(event: dict, deal: int | None, trick: int | None) -> list[Finding]:
    """An event the table let stand against a rule is a finding of its own, proven by itself."""
    illegal = event.get("illegal")
    if not illegal:
        return []
    return [Finding(event["seq"], event["seat"], illegal["code"], illegal["message"], event["seq"], deal, trick,
                    dict(illegal["details"]))]
