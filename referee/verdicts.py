"""What the referee says about an event: rejections, warnings and findings.

- A **rejection** is raised: the event cannot have happened, or breaks a rule that can be proven now.
  Nothing is recorded.
- A **warning** travels with a recorded event: something is off but the table let it stand.
- A **finding** names an earlier recorded play whose claim a later event proved false, with the proof.

Every verdict has a stable `code` that clients translate, the seat, a message for people, and `details`: the
values (seats as numbers, cards in the API's notation) a client needs to say it in the table's language.
No verdict names a card of an entered hand other than the card it is about (RULES.md, "Hidden cards stay
hidden").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

REFUSED, INVALID = 409, 422


@dataclass(frozen=True)
class Code:
    """A verdict code: the HTTP status its refusal answers with, whether `force` can let it stand, and what it
    means, in a sentence."""

    status: int
    forceable: bool
    sentence: str


def refused(sentence: str, forceable: bool = False) -> Code:
    return Code(REFUSED, forceable, sentence)


def invalid(sentence: str) -> Code:
    return Code(INVALID, False, sentence)


CODES: dict[str, Code] = {
    # every game
    "not_your_turn": refused("Another player is to act."),
    "no_deal": refused("No deal is being played: the deal is logged first."),
    "deal_in_progress": refused("A deal is still being played; a new one cannot start."),
    "wrong_dealer": refused("The rules name another dealer for this deal.", forceable=True),
    "match_finished": refused("The match is over."),
    "nothing_to_undo": refused("There is nothing to undo."),
    "player_out": refused("The player is out of the match."),
    "card_already_played": refused("Every copy of the card is already played, or in the hands entered."),
    "card_not_in_hand": refused("The hand entered for the player holds no such card.", forceable=True),
    # climbing games
    "must_play_higher": refused("The player holds a card that reaches the top of the trick and must play it.",
                                forceable=True),
    "must_play_lowest": refused("The player must play their lowest card.", forceable=True),
    # Oh Hell
    "bids_missing": refused("Every bid comes before the first lead."),
    "already_bid": refused("The player has already bid in this hand."),
    "bidding_over": refused("Every player has bid; the hand is being played."),
    "bid_out_of_range": refused("A bid is 0 to the hand size."),
    "hook": refused("The dealer, bidding last, may not make the bids total the hand size.", forceable=True),
    "trump_card_on_table": refused("The turned-up trump card lies on the table, in no one's hand."),
    "card_in_other_hand": refused("The card is known to be in the other player's hand."),
    "must_follow_suit": refused("The player holds the suit led and must follow it.", forceable=True),
    "must_trump": refused("The player cannot follow suit, holds a trump and must play one.", forceable=True),
    # Dureń
    "card_discarded": refused("The card is already discarded."),
    "card_on_table": refused("The card lies on the table in this round."),
    "card_under_stock": refused("The face-up card lies under the stock until it is drawn."),
    "card_not_held": refused("What the referee knows of the hand leaves no room for the card."),
    "not_enough_cards": refused("The player holds fewer cards than that."),
    "not_on_table": refused("A defence beats cards of the attack on the table."),
    "no_exchange": refused("Only the holder of the nine of trumps may swap it for the face-up card, once."),
    "exchange_too_late": refused("The nine of trumps is swapped before the first attack.", forceable=True),
    "attack_size": refused("An attack is 1, 3 or 5 cards.", forceable=True),
    "attack_needs_pair": refused("An attack of 3 cards holds a pair.", forceable=True),
    "attack_needs_two_pairs": refused("An attack of 5 cards holds two pairs.", forceable=True),
    "attack_too_large": refused("An attack is never larger than the defender's hand.", forceable=True),
    "beat_wrong_suit": refused("A card is beaten by a higher card of its suit, or by a trump.", forceable=True),
    "beat_too_low": refused("A card is beaten by a higher card of its suit.", forceable=True),
    # Durak
    "wrong_attacker": refused("The rules name another first attacker for this deal.", forceable=True),
    "out_of_deal": refused("The player has no cards left and is out of this deal."),
    "defender_took": refused("The defender said \"I take\": no more beats nor transfers in this bout."),
    "bout_unbeaten": refused("A bout ends beaten only when every attacking card is beaten, else the defender takes."),
    "transfer_too_late": refused("A bout is passed on before any of its cards is beaten."),
    "no_transfer": refused("The bout cannot be passed on: the table plays without transfers, or nobody else holds "
                           "cards."),
    "lead_one_rank": refused("A bout is led with one card, or several of one rank.", forceable=True),
    "throw_in_rank": refused("A card thrown in has a rank already on the table in this bout.", forceable=True),
    "bout_limit": refused("A bout holds at most six attacking cards (the first bout five), and never more than the "
                          "defender held.", forceable=True),
    "transfer_rank": refused("A transfer is a card of the attacking cards' rank.", forceable=True),
    "transfer_too_large": refused("The next defender must hold at least as many cards as the bout passed on.",
                                  forceable=True),
    # corrections, in every game
    "not_correctable": refused("Only an event that stands in the log can be corrected: not an undo, nor an event "
                               "undone or removed."),
    "correction_breaks_rule": refused("After the correction a later event breaks a rule; with force it stands, "
                                      "flagged.", forceable=True),
    "correction_breaks_log": refused("After the correction a later event can no longer have happened."),
    # input the engine reads
    "bad_event": invalid("An event is an object with a type."),
    "bad_event_type": invalid("The game has no such event."),
    "bad_correction": invalid("A correction names an event by its seq, with the event it should have been, remove, "
                              "or an event to insert before it."),
    "unused_field": invalid("The event carries a field its game does not read."),
    "bad_seat": invalid("A seat is a number from 0 to the number of players minus 1."),
    "bad_card": invalid("A card is written as a rank (2-10, J, Q, K, A), with its suit where suits matter."),
    "card_not_in_deck": invalid("The card is not in this game's deck."),
    "bad_hands": invalid("Hands are an object of seat: [cards], the hand size each."),
    "impossible_hands": invalid("The hands entered hold more copies of a card than the deck."),
    "trump_required": invalid("The deal names the turned-up card."),
    "no_trump_in_hand": invalid("The turned-up card is not in a hand."),
    "attacker_required": invalid("The deal names its first attacker where the rule does not."),
    "dealer_required": invalid("The first dealer is named, or drawn by lot."),
    "bad_bid": invalid("A bid is a whole number."),
    "bad_cards": invalid("An attack is a list of cards."),
    "bad_beats": invalid("A defence is a list of {card, with}."),
    "bad_points": invalid("Penalty points are a whole number from 1 to 1000."),
    "bad_reason": invalid("A penalty's reason is one short line of text."),
    "unknown_game": invalid("The catalogue has no such game."),
    "bad_options": invalid("An option is unknown, or its value is not allowed."),
    "bad_players": invalid("The players are 2 or more names, as many as the game seats."),
    "bad_stake": invalid("The stake is a decimal amount."),
    "bad_currency": invalid("The currency is a short text."),
    "bad_evening_name": invalid("An evening's name is 1 to 80 characters of one line."),
    # a club (referee/club.py)
    "bad_date": invalid("A day is written as YYYY-MM-DD, and a range ends no earlier than it starts."),
    "bad_club_rule": invalid("A club's table ranks by points per place, net money or rating."),
    "bad_payment": invalid("A payment names who paid, who was paid and who marks it, and an amount."),
    "not_owed": refused("The club's ledger holds no such debt, or a smaller one."),
    "not_payer_or_payee": refused("Only the member who paid or the member paid marks a payment."),
}
"""Every verdict code the engine gives, with its HTTP status, whether it is forceable, and a sentence: the one
list the API, the contract and the page's words follow."""


class InvalidInput(ValueError):
    "Input that is malformed or makes no sense for this match"

    def __init__(self, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


class Rejected(Exception):
    "An event the rules refuse: it cannot have happened, or is provably illegal"

    def __init__(self, code: str, message: str, *, seat: int | None = None, forceable: bool | None = None,
                 details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.seat = seat
        listed = CODES.get(code)
        if listed and forceable is not None and forceable != listed.forceable:
            raise ValueError(f"{code} is {'' if listed.forceable else 'not '}forceable in CODES")
        self.forceable = listed.forceable if listed else bool(forceable)
        self.details = details or {}

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "seat": self.seat, "forceable": self.forceable,
                "details": self.details}


@dataclass(frozen=True)
class RefereeWarning:
    "A recorded event that is off: forced through, or unusual but allowed"

    code: str
    message: str
    seat: int | None = None
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    """An illegal play that stands in the record.

    `seq` is the offending event, `proof_seq` the event that proved it (its own seq when it was forced
    through). `deal` and `trick` say where it happened, for people.
    """

    seq: int
    seat: int
    code: str
    message: str
    proof_seq: int
    deal: int | None = None
    trick: int | None = None
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)
