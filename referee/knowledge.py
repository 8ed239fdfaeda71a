"""What is known about the hands in a deal: dealt hands when given, the cards still unseen, and the claims of
blind plays.

At a real table the referee does not see the cards. A play that would be illegal unless the player's hand was of
some kind ("I cannot reach the highest card, so this is my lowest"; "I have no spades") is accepted, unless what
the table has seen already proves that no hand could be of that kind, and its **claim** is kept. A claim says
that every card the player still held after the play was *allowed* (from the card played up to below the top
card; of another suit than the one led; ...).

**What the referee knows** of a deal: the copies of each card in the deck, every card played and by whom, the
hands entered (the cards they still hold), the turned-up card, and how many cards each player still holds.
The cards neither played, nor in an entered hand, nor turned up are the **pool**: the unseen cards, each of
them in the hand of a player whose hand is not known, or set aside undealt.

**When a claim is proven false** (a finding on the play, or a refusal of the play when it is already so when
entered): when no way of dealing the pool to the hands not known, each its size, makes the claim true. The
referee checks that exactly, with two tests:

1. a later card of the same player that is not allowed (`disproof`), and
2. counting: the player's other cards all come from the pool, so the claim can be true only if the pool holds
   at least as many allowed cards as the player still holds (`slack` = allowed cards in the pool minus cards
   still held, never below 0 while the claim can be true).

*Sound*: either test failing leaves no hand for the player that makes the claim true, so no legal play is
ever refused or found. *Complete*: in general, whether hands of given sizes with constraints of their own can be
drawn from one pool is a matching question (Hall's condition on the bipartite graph of unseen cards and hands).
Here only the hand under test is constrained: every other claim is a claim, not something the table saw (the
player who made it may be the one in the wrong), so the other hands may be any cards of the pool. Hall's
condition then reduces to the one count: if the pool holds `slack >= 0` allowed cards beyond the player's
need, give the player that many allowed cards and deal the rest of the pool to the other hands and the cards set
aside, whose sizes add up to what is left. So a claim that is not found is one that some consistent deal makes
true.

Counting is incremental: a card that leaves the pool lowers the slack of each open claim of another player
that it was allowed for (a card of the player's own that is allowed lowers both the pool and the need); only a
hand entered and then let go (a card let stand that it did not hold) puts cards back in the pool, and the slack
is counted again. A claim may also *watch* the pool for a proof that needs two facts at once (Oh Hell's
`must_trump`: void in the suit led, and a trump held), asked after every card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .cards import Card, _parse_card
from .verdicts import Finding

Verdict = tuple[str, str, dict]


@dataclass(eq=False)
class Claim:
    """A blind play's claim about the rest of its player's hand.

    `disproof(card, trick)` returns the finding's (code, message, details) when `card`, shown later by the same
    player in the same deal in trick number `trick`, proves the claim false, and None when the card is consistent
    with it. A counted claim also says which cards it allows (`allowed`), how to count them in the pool
    (`count(knowledge)`), and the verdict when the pool runs short (`short(knowledge, now)`: `now` when the play
    itself is refused, else the finding on it). A claim may instead `watch(knowledge, now)` the pool after every
    card. None of them keeps a reference to the deal (which keeps the
    claim): a match let go is freed at once, with no cycle for Python's garbage collector to find.
    """

    seat: int
    seq: int
    disproof: Callable[[Card, int], Verdict | None]
    deal: int | None = None
    trick: int | None = None
    allowed: Callable[[Card], bool] | None = None
    count: Callable[[Knowledge], int] | None = None
    short: Callable[[Knowledge, bool], Verdict] | None = None
    watch: Callable[[Knowledge, bool], Verdict | None] | None = None
    slack: int = 0
    counted: bool = False  # `slack` counted when the play was judged (the play recorded next leaves it as it is)


@dataclass
class Knowledge:
    """The dealt hands that were given (seat -> cards still held), the unseen cards (`pool`, by card and by
    suit), the cards each player still holds (`left`), and the open claims of one deal."""

    hands: dict[int, Counter] = field(default_factory=dict)
    claims: dict[int, list[Claim]] = field(default_factory=dict)
    pool: Counter = field(default_factory=Counter, repr=False)
    suits: Counter = field(default_factory=Counter, repr=False)
    left: dict[int, int] = field(default_factory=dict, repr=False)
    watching: list[Claim] = field(default_factory=list, repr=False)
    closed: set[int] = field(default_factory=set, repr=False)  # the plays found
    proposed: tuple | None = field(default=None, repr=False)  # the claims of the play last judged, for its evolve

    def propose(self, key: tuple, claims: list[Claim]) -> None:
        """The claims of a play just judged (`key` says which play, in which trick): its `evolve` takes them
        instead of making them again."""
        self.proposed = (key, claims)

    def proposal(self, key: tuple) -> list[Claim] | None:
        proposed, self.proposed = self.proposed, None
        return proposed[1] if proposed is not None and proposed[0] == key else None

    @classmethod
    def dealt(cls, copies: Counter, seats: Iterable[int], size: int, hands: dict[int, list[Card]],
              turned: Card | None = None) -> Knowledge:
        """What is known when a deal starts: the deck's `copies`, `size` cards to each of `seats`, the hands
        entered, and the card turned up."""
        known = {seat: Counter(cards) for seat, cards in hands.items()}
        pool = Counter({same_card(card): count for card, count in copies.items()})  # the played cards' objects
        for hand in known.values():
            pool.subtract(hand)
        if turned is not None:
            pool[turned] -= 1
        suits = Counter()
        for card, count in pool.items():
            suits[card.suit] += count
        return cls(hands=known, pool=pool, suits=suits, left={seat: size for seat in seats})

    def knows_hand(self, seat: int) -> bool:
        return seat in self.hands

    def hand(self, seat: int) -> Counter:
        return self.hands[seat]

    def held_by_others(self, seat: int, card: Card) -> int:
        """How many copies of `card` sit, unplayed, in the known hands of the other players."""
        return sum(hand[card] for other, hand in self.hands.items() if other != seat)

    def forget_hand(self, seat: int) -> None:
        """The table let a card stand that the given hand did not hold: that hand is no longer known, and the
        cards it still held are unseen again (each open claim is counted again)."""
        hand = self.hands.pop(seat, None)
        if not hand:
            return
        self.pool.update(hand)
        for card, count in hand.items():
            self.suits[card.suit] += count
        for claims in self.claims.values():
            for claim in claims:
                if claim.count is not None:
                    claim.slack = claim.count(self) - self.left.get(claim.seat, 0)

    def claim(self, claim: Claim) -> Finding | None:
        """Keeps a claim of a play just applied (its card out of the pool, its player's `left` lowered).

        A claim already proven false is a finding at once, proven by its own play: a play recorded before the
        referee refused such plays, or let stand by the table.
        """
        if claim.seq in self.closed:
            return None  # its play is found already
        verdict = None
        if claim.count is not None:
            if not claim.counted:
                claim.slack = claim.count(self) - self.left.get(claim.seat, 0)
            if claim.slack < 0:
                verdict = claim.short(self, False)
        if verdict is None and claim.watch is not None:
            verdict = claim.watch(self, False)
        if verdict is not None:
            self.close({claim.seq})
            return self.found(claim, verdict, claim.seq)
        if claim.watch is not None:
            self.watching.append(claim)
        self.claims.setdefault(claim.seat, []).append(claim)
        return None

    def open_claims(self, seat: int) -> list[Claim]:
        return list(self.claims.get(seat, ()))

    def take(self, seat: int, card: Card) -> bool:
        """`seat` plays `card`: out of its known hand, or out of the pool (True). A known hand that does not hold
        it is let go first. (A count that falls to 0 stays in the pool: no count adds it.)"""
        left = self.left
        if seat in left:
            left[seat] -= 1
        if self.hands:
            hand = self.hands.get(seat)
            if hand is not None:
                held = hand.get(card, 0)
                if held > 0:
                    if held == 1:
                        del hand[card]
                    else:
                        hand[card] = held - 1
                    return False
                self.forget_hand(seat)
        pool = self.pool
        count = pool.get(card, 0)
        if count > 0:
            pool[card] = count - 1
            if card.suit is not None:
                self.suits[card.suit] -= 1
        return True

    def remove(self, seat: int, card: Card) -> None:
        self.take(seat, card)

    def would_short(self, seat: int, card: Card, claims: Iterable[Claim]) -> Verdict | None:
        """The first of `claims`, made by `seat` playing `card` (not applied yet), that is already proven false:
        asked before the play is recorded, so that it is refused.

        A claim always allows its own card, so the play takes one allowed card out of the pool and one out of the
        player's need: a count is asked as it stands (the slack is the same before and after). A watch is asked
        with the card and the need taken out, as the play leaves them.
        """
        watching = []
        for claim in claims:
            if claim.count is not None:
                claim.slack = claim.count(self) - self.left.get(seat, 0)
                claim.counted = True  # kept by `claim` when the play is recorded next, as it leaves the slack
                if claim.slack < 0:
                    return claim.short(self, True)
            if claim.watch is not None:
                watching.append(claim)
        if not watching:
            return None
        suits, left = self.suits, self.left
        suits[card.suit] -= 1
        left[seat] -= 1
        try:
            for claim in watching:
                verdict = claim.watch(self, True)
                if verdict:
                    return verdict
            return None
        finally:
            suits[card.suit] += 1
            left[seat] += 1

    def played(self, seat: int, card: Card, proof_seq: int, trick: int) -> list[Finding]:
        """`seat` plays `card` in event `proof_seq`, trick number `trick`: the claims it proves false, by the card
        itself (the same player's claims) or by what it leaves in the pool (every player's)."""
        findings = self.test(seat, (card,), proof_seq, trick)
        if self.take(seat, card) and self.claims:
            for other, claims in self.claims.items():
                if other == seat:
                    continue
                for claim in claims:
                    allowed = claim.allowed
                    if allowed is not None and allowed(card):
                        claim.slack -= 1
                        if claim.slack < 0:
                            findings.append(self.found(claim, claim.short(self, False), proof_seq))
        if self.watching:
            for claim in self.watching:
                verdict = claim.watch(self, False)
                if verdict is not None:
                    findings.append(self.found(claim, verdict, proof_seq))
        if findings:
            self.close({finding.seq for finding in findings})
        return findings

    def found(self, claim: Claim, verdict: Verdict, proof_seq: int) -> Finding:
        code, message, *details = verdict
        return Finding(claim.seq, claim.seat, code, message, proof_seq, claim.deal, claim.trick,
                       dict(details[0]) if details else {})

    def close(self, seqs: set[int]) -> None:
        """The plays `seqs` are found: their claims are closed, so a play is found at most once."""
        self.closed |= seqs
        for seat, claims in self.claims.items():
            self.claims[seat] = [claim for claim in claims if claim.seq not in seqs]
        self.watching = [claim for claim in self.watching if claim.seq not in seqs]

    def test(self, seat: int, cards: Iterable[Card], proof_seq: int, trick: int) -> list[Finding]:
        """Hold `cards`, just shown by `seat` in event `proof_seq` in trick number `trick`, against that seat's
        open claims.

        Each claim disproved becomes a finding and is closed (with the other claims of its play), so a play is
        found at most once.
        """
        findings = []
        seen: set[int] = set()
        cards = list(cards)
        for claim in self.claims.get(seat, ()):
            if claim.seq in seen:
                continue
            verdict = next((v for card in cards if (v := claim.disproof(card, trick))), None)
            if verdict is not None:
                seen.add(claim.seq)
                findings.append(self.found(claim, verdict, proof_seq))
        if seen:
            self.close(seen)
        return findings


def same_card(card: Card) -> Card:
    """The card as a play reads it (one object per card: a count looks it up without comparing)."""
    return _parse_card(card.text, card.suit is not None)
