"""Trick play, which Ogórek, Ogurets, Agurk and Oh Hell share; and following suit, with trumps (Oh Hell).

The player left of the dealer leads the first trick; clockwise, each player adds a card; the trick's taker
leads the next one, until the deal's cards are played. `TrickGame` runs that; a game says only what is
legal (`judge`, `legal`), who takes the trick (`trick_winner`), what a blind play claims (`claim_of`) and
how a deal scores (`score_deal`).

Following suit: a player must follow the suit led if they can; otherwise any card, or, where trumping is
compulsory, a trump if they hold one. The highest trump takes the trick, or without trumps the highest
card of the suit led. At a real table the referee does not see the hands: a player who does not follow
claims to be void in the suit led (and, where trumping is compulsory and they did not trump, to hold no
trump); a later card of that suit from them proves the claim false.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..cards import SUIT_NAMES, Card, card_order
from ..knowledge import Claim, Knowledge
from ..verdicts import Rejected
from .base import Decision, Game, judged, let_stand
from .table import Table, check_seat_in, seat_of


@dataclass
class Play:
    """A card played into a trick: by whom, and as which event."""

    seat: int
    card: Card
    seq: int


@dataclass
class Trick:
    """A trick: its number in the deal, who led, the cards in order, and who took it once complete."""

    number: int
    lead: int
    plays: list[Play] = field(default_factory=list)
    winner: int | None = None
    complete_view: dict | None = field(default=None, repr=False, compare=False)  # made once the trick is complete

    @property
    def led(self) -> str | None:
        """The suit led, once the first card is down."""
        return self.plays[0].card.suit if self.plays else None

    def view(self) -> dict:
        """The trick as the table sees it; made once when complete (a complete trick never changes, and every
        view of the deal shows it), so it is shared: read it, never change it."""
        if self.complete_view is not None:
            return self.complete_view
        view = {"number": self.number, "lead": self.lead, "winner": self.winner,
                "plays": [{"seat": p.seat, "card": str(p.card), "seq": p.seq} for p in self.plays]}
        if self.winner is not None:
            self.complete_view = view
        return view


@dataclass(kw_only=True)
class TrickDeal:
    """One deal of a trick game: its players (clockwise from the dealer's left), `size` tricks, what is known."""

    number: int
    dealer: int
    seats: list[int]
    size: int
    tricks: list[Trick]
    knowledge: Knowledge = field(default_factory=Knowledge)
    over: bool = False
    # kept as the cards are played (a view of the match is built at every play): each seat's cards played in
    # this deal, and the complete tricks each seat has taken, in order
    cards_played: Counter = field(default_factory=Counter, repr=False, compare=False)
    won: dict[int, list[Trick]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def trick(self) -> Trick:
        return self.tricks[-1]

    def turn(self) -> int | None:
        """Who plays the next card into the trick (None once the deal is over)."""
        if self.over:
            return None
        trick = self.trick
        return self.seats[(self.seats.index(trick.lead) + len(trick.plays)) % len(self.seats)]

    def note(self, card: Card) -> None:
        """`card` is played into the current trick."""
        raise NotImplementedError


class TrickGame(Game):
    """A game of tricks; each game says what is legal, who takes the trick, what a blind play claims, and how a deal
    scores."""

    # --- what each game says -------------------------------------------------------------------
    def check_turn(self, state: Table, deal: TrickDeal, seat: int) -> None:
        turn = deal.turn()
        if seat != turn:
            raise Rejected("not_your_turn", f"It is {state.names[turn]}'s turn, not {state.names[seat]}'s.", seat=seat,
                           details={"turn": turn})

    def check_unplayed(self, state: Table, deal: TrickDeal, seat: int, card: Card) -> None:
        """Refuses a card that cannot be in the player's hand: every copy played, or known elsewhere."""
        raise NotImplementedError

    def broken_rule(self, state: Table, deal: TrickDeal, name: str, hand: Counter,
                    card: Card) -> tuple[str, str, dict] | None:
        """The rule that playing `card`, which the known `hand` holds, breaks, or None."""
        raise NotImplementedError

    def legal(self, state: Table, deal: TrickDeal, hand: Counter) -> list[Card]:
        """The cards of a known hand that may be played now, sorted."""
        raise NotImplementedError

    def claim_of(self, state: Table, deal: TrickDeal, seat: int, card: Card, seq: int) -> list[Claim]:
        """What a blind play says about the rest of the player's hand (nothing, one claim, or several: each is
        found on its own, and the first found closes the others)."""
        raise NotImplementedError

    def trick_winner(self, state: Table, deal: TrickDeal, trick: Trick) -> int:
        raise NotImplementedError

    def take_trick(self, state: Table, deal: TrickDeal, trick: Trick) -> None:
        """A trick is complete and `trick.winner` takes it: games that count tricks or cards taken do it here."""

    def score_deal(self, state: Table, deal: TrickDeal) -> None:
        """The deal's last trick is taken: the game scores it, and may end the match."""
        raise NotImplementedError

    def history_of(self, deal: TrickDeal) -> dict:
        """What the scoresheet keeps of a deal besides the standing after it."""
        return {}

    # --- play ----------------------------------------------------------------------------------
    def decide_play(self, state: Table, command: dict, force: bool) -> Decision:
        deal = self.current_deal(state)
        seat = seat_of(state, command)
        check_seat_in(state, seat)
        card = self.read_card(state, command.get("card"))
        self.check_turn(state, deal, seat)
        self.check_unplayed(state, deal, seat, card)
        illegal = self.judge(state, deal, seat, card)
        return judged({"type": "play", "seat": seat, "card": str(card)}, [illegal] if illegal else [], force, seat)

    def judge(self, state: Table, deal: TrickDeal, seat: int, card: Card) -> tuple[str, str, dict] | None:
        """With the player's hand known: the rule the card breaks, or None. Blind: the rule broken when what the
        table has seen already proves the play's claim false (no hand consistent with it makes the play legal:
        see `Knowledge`), else None.

        The hand is the table's secret: the verdict names the rule and the card played, no other card of it.
        """
        if not deal.knowledge.knows_hand(seat):
            claims = self.claim_of(state, deal, seat, card, 0)
            deal.knowledge.propose((deal.number, deal.trick.number, len(deal.trick.plays), seat, card), claims)
            return deal.knowledge.would_short(seat, card, claims) if claims else None
        name = state.names[seat]
        hand = deal.knowledge.hand(seat)
        if hand[card] == 0:
            return "card_not_in_hand", f"{name} was dealt no {card}.", {"card": str(card)}
        return self.broken_rule(state, deal, name, hand, card)

    def evolve_play(self, state: Table, event: dict) -> None:
        deal = state.deal
        seat, seq = event["seat"], event["seq"]
        card = self.card(event["card"])
        trick = deal.trick
        knowledge = deal.knowledge
        blind = not knowledge.knows_hand(seat)
        claims = None
        if "illegal" not in event and blind:  # what the play claims, made before its card leaves the pool
            claims = knowledge.proposal((deal.number, trick.number, len(trick.plays), seat, card))
            if claims is None:
                claims = self.claim_of(state, deal, seat, card, seq)
            for claim in claims:
                claim.seq = seq
        findings = knowledge.played(seat, card, seq, trick.number) + let_stand(event, deal.number, trick.number)
        if claims:
            for claim in claims:
                finding = knowledge.claim(claim)
                if finding is not None:
                    findings.append(finding)
        deal.note(card)
        trick.plays.append(Play(seat, card, seq))
        deal.cards_played[seat] += 1
        state.findings.extend(findings)
        if len(trick.plays) < len(deal.seats):
            return
        trick.winner = self.trick_winner(state, deal, trick)
        deal.won.setdefault(trick.winner, []).append(trick)
        self.take_trick(state, deal, trick)
        if len(deal.tricks) < deal.size:
            deal.tricks.append(Trick(trick.number + 1, trick.winner))
            return
        deal.over = True
        self.score_deal(state, deal)
        state.record_history(deal.number, deal.dealer, deal.seats, **self.history_of(deal))

    # --- views ---------------------------------------------------------------------------------
    def expected_in_deal(self, state: Table, deal: TrickDeal) -> dict:
        seat = deal.turn()
        out = {"type": "play", "seat": seat, "deal": deal.number, "trick": deal.trick.number,
               **self.play_needs(state, deal)}
        if deal.knowledge.knows_hand(seat):
            out["legal"] = [str(card) for card in self.legal(state, deal, deal.knowledge.hand(seat))]
        return out

    def play_needs(self, state: Table, deal: TrickDeal) -> dict:
        """What `expected` says the next card must be, besides the legal cards of a known hand."""
        return {}

    def turn(self, state: Table, deal: TrickDeal) -> int | None:
        return deal.turn()

    def deal_view(self, state: Table) -> dict | None:
        deal = state.deal
        if deal is None:
            return None
        tricks = [trick.view() for trick in deal.tricks]
        return {
            "number": deal.number,
            "dealer": deal.dealer,
            "seats": list(deal.seats),
            "trick": deal.trick.number,
            "table": tricks[-1]["plays"],
            "tricks": tricks,
            "turn": self.turn(state, deal),
            "over": deal.over,
            "known_hands": sorted(deal.knowledge.hands),
            "result": deal.result or None,
            **self.deal_details(state, deal),
        }

    def deal_details(self, state: Table, deal: TrickDeal) -> dict:
        """What the game's view of a deal adds to the tricks."""
        return {}


# --- following suit ------------------------------------------------------------------------------

def strength(card: Card) -> int:
    """Rank in play, ace high: 2 is 0, A is 12."""
    return card_order(card)[1]


def trick_winner(trick: Trick, trump: str | None) -> int:
    """The seat of the highest trump in the trick, or without trumps of the highest card of the suit led."""
    trumps = [play for play in trick.plays if play.card.suit == trump]
    contenders = trumps or [play for play in trick.plays if play.card.suit == trick.led]
    return max(contenders, key=lambda play: strength(play.card)).seat


def legal_cards(held: Counter, led: str | None, trump: str | None, must_trump: bool) -> list[Card]:
    """The cards of a known hand that may be played, sorted: follow suit, else (must_trump) trump, else any."""
    cards = sorted(held, key=card_order)
    if led is None:
        return cards
    follow = [card for card in cards if card.suit == led]
    if follow:
        return follow
    trumps = [card for card in cards if card.suit == trump] if must_trump and trump else []
    return trumps or cards


def broken_rule(name: str, held: Counter, card: Card, led: str | None, trump: str | None,
                must_trump: bool) -> tuple[str, str, dict] | None:
    """The rule that playing `card`, which the known hand `held` holds, breaks, as (code, message, details), or
    None. The hand is the table's secret: the verdict names the rule and the card played, no other card of it."""
    if card in legal_cards(held, led, trump, must_trump):
        return None
    if any(c.suit == led for c in held):
        return ("must_follow_suit", f"{name} holds {SUIT_NAMES[led]}s and must follow suit, not play {card}.",
                {"card": str(card), "led": led})
    return ("must_trump", f"{name} cannot follow {SUIT_NAMES[led]}s, holds a trump and must trump, not play {card}.",
            {"card": str(card), "led": led, "trump": trump})


def discard_claim(name: str, seat: int, seq: int, card: Card, trick: Trick, trump: str | None, must_trump: bool,
                  deal: int) -> list[Claim]:
    """What a blind play off the suit led claims: void in that suit; and, where trumping is compulsory and the card
    is no trump, that being void the player held no trump. Two claims, each found on its own proof:

    - **the revoke** (`must_follow_suit`): a later card of the suit led from the player, or the pool holding
      fewer cards of the other suits than the player still holds (every consistent hand then holds the suit led);
    - **not trumping** (`must_trump`), only once the player is proven void in the suit led (no card of it left in
      the pool, or the player's hand played out, and none shown by them) and proven to have held a trump (a later
      trump of theirs, or the pool holding fewer cards other than trumps than the player still holds). Holding a
      trump proves nothing while the player may have held the suit led: that play is then a revoke, and is named
      one when its proof comes, blind as with the hand entered. Every card is played by the end of the hand, so
      one of the two is found by then.

    Counting is exact (see `Knowledge`): a hand is any set of the pool's cards, so the pool holds a hand void in a
    suit (and without trumps) exactly when it has that many cards of the other suits.
    """
    led = trick.led
    if led is None or card.suit == led:
        return []
    lead = trick.plays[0].card
    where = f"in trick {trick.number} of hand {deal}"
    number = trick.number
    facts = {"card": str(card), "lead": str(lead), "led": led, "trick": number, "deal": deal}

    def disproof(later: Card, trick_now: int) -> tuple[str, str, dict] | None:
        if later.suit == led:
            return "must_follow_suit", (f"{name} did not follow {SUIT_NAMES[led]}s {where} (played {card} on "
                                        f"{lead}), but played {later} in trick {trick_now}: a revoke."), {
                **facts, "later": str(later), "later_trick": trick_now, "case": "found"}
        return None

    def allowed(other: Card) -> bool:
        return other.suit != led

    def count(knowledge: Knowledge) -> int:
        return sum(knowledge.suits.values()) - knowledge.suits[led]

    def short(knowledge: Knowledge, now: bool) -> tuple[str, str, dict]:
        if now:
            return ("must_follow_suit", f"{name} holds {SUIT_NAMES[led]}s and must follow suit, not play {card}.",
                    {"card": str(card), "led": led})
        return "must_follow_suit", (f"{name} did not follow {SUIT_NAMES[led]}s {where} (played {card} on {lead}), but "
                                    f"too few cards of other suits are left unseen to fill the rest of {name}'s hand: "
                                    "a revoke."), {**facts, "case": "counted"}

    claims = [Claim(seat, seq, disproof, deal, number, allowed=allowed, count=count, short=short)]
    if not (must_trump and trump and trump != led and card.suit != trump):
        return claims
    shown: list[tuple[Card, int]] = []  # the first trump the player showed later, and its trick

    def trump_shown(later: Card, trick_now: int) -> None:
        if later.suit == trump and not shown:
            shown.append((later, trick_now))
        return None

    def watch(knowledge: Knowledge, now: bool) -> tuple[str, str, dict] | None:
        left = knowledge.left.get(seat, 0)
        if knowledge.suits[led] and left:
            return None  # the player may still hold the suit led
        counted = sum(knowledge.suits.values()) - knowledge.suits[trump] < left
        if not shown and not counted:
            return None
        if now:
            return ("must_trump", f"{name} cannot follow {SUIT_NAMES[led]}s, holds a trump and must trump, not play "
                    f"{card}.", {"card": str(card), "led": led, "trump": trump})
        if shown:
            later, trick_now = shown[0]
            return "must_trump", (f"{name} could not follow {SUIT_NAMES[led]}s {where} and did not trump (played "
                                  f"{card} on {lead}), but played the trump {later} in trick {trick_now}."), {
                **facts, "later": str(later), "later_trick": trick_now, "case": "found"}
        return "must_trump", (f"{name} could not follow {SUIT_NAMES[led]}s {where} and did not trump (played {card} "
                              f"on {lead}), but too few cards other than trumps are left unseen to fill the rest of "
                              f"{name}'s hand."), {**facts, "trump": trump, "case": "counted"}

    return claims + [Claim(seat, seq, trump_shown, deal, number, watch=watch)]
