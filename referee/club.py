"""A club across evenings: its members' figures, head to head, a season's table, and the ledger of debts.

A club's people are **members**, told apart by the ids the club gives them (their names live with the club, so a
name erased is erased everywhere: nothing here holds one). Everything is worked out from **summaries**, one small
record per match (`summarize`), made from the folded match once after the match changes (an event, an undo, a
correction) and kept beside it (gone with it when it is deleted; `api.clubs` stores it). The figures, the head to
head and the table are sums over the summaries of a date range; nothing refolds a log to answer them. A match's summary:

    {"match": "m1", "evening": "e1", "game": "ogorek", "date": "2025-03-07", "at": "2025-03-07T19:02:11Z",
     "final": true,
     "players": [{"member": "ann", "place": 1, "net": "2.00",
                  "figures": {"deals": 4, "minus_points": 12, "illegal_found": 0, "illegal_let_stand": 0}}, ...]}

`players` come in seat order; `place` is the first of the places the player shares (1 = the winner; while the
match is played, as if stopped now, as its settlement shows it); `net` is the player's money in the match;
`figures` are what the game tallies (`Game.tallies`, `Game.tally`: a figure the game does not keep is absent,
never 0) and, in every game, the illegal plays found after the fact (`illegal_found`) and let stand
(`illegal_let_stand`). `date` is the evening's day (YYYY-MM-DD), the day a date range filters by, both ends
included; `at` (any text that sorts in time, such as an ISO 8601 instant) orders the matches of a day: `ORDER`.

Only finished matches count in the figures, the head to head and the table (a match still played has no places
yet). Money is settled by evening (`evening_summary`, as `referee.evening` settles it); the club's `ledger` adds up
the finished evenings and the payments marked, and nets what is still owed into the fewest transfers.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date as Date
from decimal import Decimal
from fractions import Fraction

from .evening import settle_people
from .games import GAMES
from .match import Match
from .settlement import CENT
from .verdicts import InvalidInput, Rejected

ORDER = ("date", "at", "match")
"""The order of matches: by day, then `at` within the day, then id. Ratings follow it (`api.ratings`)."""

TALLIES = ("deals", "minus_points", "lives_lost", "bids", "exact_bids", "deals_lost")
"""Every figure a game may tally (`Game.tallies`), in the order they are shown."""

RATIOS = {"minus_points_per_deal": ("minus_points", "deals", 1, 2), "exact_bids_pct": ("exact_bids", "bids", 100, 1)}
"""Figures worked out from two tallies, when a game keeps both: name -> (part, whole, scale, decimals)."""

DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", re.ASCII)
AMOUNT = re.compile(r"^[0-9]{1,7}(\.[0-9]{1,4})?$", re.ASCII)
BY = ("points", "money", "rating")
DEFAULT_RULE = {"by": "points", "points": [3, 2, 1]}
MAX_PLACE_POINTS = 1000


def order_key(summary: Mapping) -> tuple:
    return tuple(summary.get(name) or "" for name in ORDER)


# --- a match's summary ---------------------------------------------------------------------------------------------
def summarize(match: Match, members: Sequence[str], *, match_id: str, date: str, at: str = "",
              evening: str | None = None) -> dict:
    """The summary of a match whose seats are held by `members` (one id per seat, each once), on the evening's day
    `date`. It is the match as a reader without the key knows it (`Match.public`): what only the hands entered
    proved stays out until they may show."""
    if len(members) != len(match.players) or len(set(members)) != len(members):
        raise ValueError("one member per seat, each once")
    seen = match.public()
    state = seen.state
    players = []
    for entry in seen.settlement()["players"]:
        seat = entry["seat"]
        found = [finding for finding in state.findings if finding.seat == seat]
        let_stand = sum(1 for finding in found if finding.proof_seq == finding.seq)
        figures = {**seen.game.tally(state, seat), "illegal_found": len(found) - let_stand,
                   "illegal_let_stand": let_stand}
        players.append({"member": members[seat], "place": entry["place"], "net": entry["net"], "figures": figures})
    return {"match": match_id, "evening": evening, "game": seen.game.name, "date": check_day(date), "at": at,
            "final": state.finished, "players": players}


# --- date ranges ---------------------------------------------------------------------------------------------------
def check_day(value: object, field: str = "date") -> str:
    """A day as YYYY-MM-DD, a real one."""
    if isinstance(value, str) and DAY.match(value):
        try:
            Date.fromisoformat(value)
            return value
        except ValueError:
            pass
    raise InvalidInput("bad_date", f"{field} is a day written as YYYY-MM-DD, such as 2025-03-07.",
                       {field: value if isinstance(value, str) else None})


def check_range(start: object = None, end: object = None) -> tuple[str | None, str | None]:
    """From `start` to `end`, both included; either may be None (no bound)."""
    first = None if start is None else check_day(start, "from")
    last = None if end is None else check_day(end, "to")
    if first and last and first > last:
        raise InvalidInput("bad_date", f"The range ends ({last}) before it starts ({first}).",
                           {"from": first, "to": last})
    return first, last


def finished(summaries: Iterable[Mapping], start: str | None = None, end: str | None = None,
             game: str | None = None) -> Iterator[Mapping]:
    """The finished matches from `start` to `end` (of `game` only, when given)."""
    for summary in summaries:
        day = summary["date"]
        if summary["final"] and (start is None or day >= start) and (end is None or day <= end) \
                and (game is None or summary["game"] == game):
            yield summary


# --- figures across evenings ---------------------------------------------------------------------------------------
class Figures:
    """One member's figures in one game, added up match by match."""

    __slots__ = ("matches", "wins", "places", "place_sum", "sums")

    def __init__(self) -> None:
        self.matches = self.wins = self.place_sum = 0
        self.places: dict[int, int] = {}
        self.sums: dict[str, int] = {}

    def add(self, player: Mapping) -> None:
        place, places, sums = player["place"], self.places, self.sums
        self.matches += 1
        self.wins += place == 1
        places[place] = places.get(place, 0) + 1
        self.place_sum += place
        for name, value in player["figures"].items():
            sums[name] = sums.get(name, 0) + value

    def shown(self) -> dict:
        sums = self.sums
        named = [name for name in TALLIES if name in sums] + sorted(set(sums) - set(TALLIES))
        out = {"matches": self.matches, "wins": self.wins,
               "places": {str(place): self.places[place] for place in sorted(self.places)},
               "average_place": round(self.place_sum / self.matches, 2) if self.matches else None,
               **{name: sums[name] for name in named}}
        for name, (part, whole, scale, decimals) in RATIOS.items():
            if part in sums and whole in sums:
                out[name] = round(scale * sums[part] / sums[whole], decimals) if sums[whole] else None
        return out


def figures(summaries: Iterable[Mapping], start: str | None = None, end: str | None = None,
            members: Iterable[str] | None = None) -> dict[str, dict[str, dict]]:
    """Member -> game -> figures over the finished matches from `start` to `end` (of `members` only, when given):
    matches, wins, places (how often each), average_place, the game's tallies, the illegal plays, and the ratios
    of `RATIOS` (minus points per deal, the % of bids made exactly; None when there is nothing to divide by)."""
    wanted = None if members is None else set(members)
    totals: dict[str, dict[str, Figures]] = {}
    for summary in finished(summaries, start, end):
        game = summary["game"]
        for player in summary["players"]:
            member = player["member"]
            if wanted is None or member in wanted:
                by_game = totals.setdefault(member, {})
                (by_game.get(game) or by_game.setdefault(game, Figures())).add(player)
    return {member: {game: total.shown() for game, total in sorted(games.items())}
            for member, games in sorted(totals.items())}


def head_to_head(summaries: Iterable[Mapping], one: str, other: str, start: str | None = None,
                 end: str | None = None) -> dict:
    """Two members over the finished matches they played together: per game and in all, how many, how often each
    placed better than the other, and how often they shared a place (`level`)."""
    if one == other:
        raise ValueError("head to head is between two members")

    def new() -> dict:
        return {"matches": 0, "ahead": {one: 0, other: 0}, "level": 0}

    games: dict[str, dict] = {}
    total = new()
    for summary in finished(summaries, start, end):
        places = {player["member"]: player["place"] for player in summary["players"]}
        if one not in places or other not in places:
            continue
        mine, theirs = places[one], places[other]
        for tally in (games.setdefault(summary["game"], new()), total):
            tally["matches"] += 1
            if mine == theirs:
                tally["level"] += 1
            else:
                tally["ahead"][one if mine < theirs else other] += 1
    return {"members": [one, other], "games": dict(sorted(games.items())), "total": total}


def member_matches(summaries: Iterable[Mapping], member: str, start: str | None = None, end: str | None = None,
                   game: str | None = None, rule: object = None) -> list[dict]:
    """The member's finished matches from `start` to `end` (of `game` only, when given), the latest first (`ORDER`
    reversed): each with its day, game, the member's place among how many `players`, the `points` the place scores
    by the club's `rule` (None when its table is not by points), the member's `net` money and `figures`."""
    rule = check_rule(DEFAULT_RULE if rule is None else rule)
    points = rule.get("points")
    played = []
    for summary in finished(summaries, start, end, game):
        mine = next((player for player in summary["players"] if player["member"] == member), None)
        if mine is None:
            continue
        place = mine["place"]
        played.append({"match": summary["match"], "evening": summary["evening"], "date": summary["date"],
                       "at": summary["at"], "game": summary["game"], "place": place,
                       "players": len(summary["players"]),
                       "points": None if points is None else (points[place - 1] if place <= len(points) else 0),
                       "net": mine["net"], "figures": dict(mine["figures"])})
    return sorted(played, key=order_key, reverse=True)


# --- a season's table ----------------------------------------------------------------------------------------------
def check_rule(rule: object) -> dict:
    """The club's rule for its table: `{"by": "points", "points": [3, 2, 1]}` (points for 1st, 2nd, ... place; a
    place beyond the list scores 0), `{"by": "money"}` (net money) or `{"by": "rating"}` (the ratings' ordinal)."""
    most = max(game.max_players for game in GAMES.values())
    if not isinstance(rule, dict) or rule.get("by") not in BY or set(rule) - {"by", "points"}:
        raise InvalidInput("bad_club_rule", "A club's table ranks by points per place ({\"by\": \"points\", "
                           "\"points\": [3, 2, 1]}), by net money ({\"by\": \"money\"}) or by rating "
                           "({\"by\": \"rating\"}).")
    if rule["by"] != "points":
        if "points" in rule:
            raise InvalidInput("bad_club_rule", f"Points per place belong to a table by points, not by {rule['by']}.")
        return {"by": rule["by"]}
    points = rule.get("points")
    if not isinstance(points, list) or not 1 <= len(points) <= most or not all(
            isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= MAX_PLACE_POINTS for p in points):
        raise InvalidInput("bad_club_rule", f"points is a list of 1 to {most} whole numbers from 0 to "
                           f"{MAX_PLACE_POINTS}: the points for 1st, 2nd, ... place.", {"points": points})
    if any(later > earlier for earlier, later in itertools.pairwise(points)):
        raise InvalidInput("bad_club_rule", "A better place never scores fewer points than a worse one.",
                           {"points": points})
    return {"by": "points", "points": list(points)}


def season_table(summaries: Iterable[Mapping], rule: object = None, start: str | None = None,
                 end: str | None = None, game: str | None = None,
                 ratings: Mapping[str, float] | None = None) -> list[dict]:
    """The standings over the finished matches from `start` to `end` (of `game` only, when given) by the club's
    `rule` (`check_rule`; `DEFAULT_RULE` when None), best first: each member who played, with their `place`,
    `value` (points as a number; net money as text; the rating's ordinal from `ratings`, member -> ordinal, or
    None for a member without one), matches, wins and average place.

    Ties, in this order: the rule's value, the higher first (a member without a rating last); then more wins;
    then the better (lower) average place. Members equal in all three share the place (1, 1, 3) and are listed
    by member id.
    """
    rule = check_rule(DEFAULT_RULE if rule is None else rule)
    by, points = rule["by"], rule.get("points", [])
    rows: dict[str, list] = {}  # member -> [value, matches, wins, place_sum]
    for summary in finished(summaries, start, end, game):
        for player in summary["players"]:
            place = player["place"]
            row = rows.get(player["member"]) or rows.setdefault(player["member"], [0 if by == "points" else
                                                                                     Decimal(0), 0, 0, 0])
            if by == "points":
                row[0] += points[place - 1] if place <= len(points) else 0
            elif by == "money":
                row[0] += Decimal(player["net"])
            row[1] += 1
            row[2] += place == 1
            row[3] += place
    if by == "rating":
        for member, row in rows.items():
            row[0] = None if ratings is None else ratings.get(member)

    def rank(item: tuple[str, list]) -> tuple:
        value, matches, wins, place_sum = item[1]
        return (value is None, -(value or 0), -wins, Fraction(place_sum, matches))

    table, place, last = [], 0, None
    for index, (member, row) in enumerate(sorted(rows.items(), key=lambda item: (rank(item), item[0]))):
        if rank((member, row)) != last:
            place, last = index + 1, rank((member, row))
        value, matches, wins, place_sum = row
        table.append({"place": place, "member": member, "value": amount_text(value) if by == "money" else value,
                      "matches": matches, "wins": wins, "average_place": round(place_sum / matches, 2)})
    return table


# --- the ledger ----------------------------------------------------------------------------------------------------
def evening_summary(evening: str, date: str, at: str, matches: Iterable[Mapping]) -> dict:
    """An evening's money from its matches' summaries, as `referee.evening` settles it: each member's net, the
    fewest transfers (the same ones, the people being the members), and whether every match is finished."""
    ordered = sorted(matches, key=order_key)
    nets: dict[str, Decimal] = {}
    for summary in ordered:
        for player in summary["players"]:
            nets[player["member"]] = nets.get(player["member"], Decimal(0)) + Decimal(player["net"])
    return {"evening": evening, "date": check_day(date), "at": at,
            "final": bool(ordered) and all(summary["final"] for summary in ordered),
            "nets": {member: str(net) for member, net in nets.items()}, "transfers": settle_people(nets)}


def ledger(evenings: Iterable[Mapping], payments: Iterable[Mapping] = ()) -> dict:
    """The club's money: each finished evening's nets and transfers and each payment marked, in time (`at`; an evening
    before a payment at the same time), kept as the `history`; each member's `balances` after all of them (what
    they are owed, or owe when negative); and the fewest `transfers` that settle what is still owed, unpaid debts
    of earlier evenings netted with the later ones (`referee.settlement.fewest_transfers`: the fewest for up to
    its `EXACT_UPTO` members with a balance, a short settlement beyond). An evening still being played is `open`,
    its transfers as if stopped now, and owes nothing yet.

    A payment is `{"id", "at", "from", "to", "amount", "by"}` (`check_payment` makes one): money that changed
    hands, counted as it was paid whatever changes later (a correction of a match may leave the payer owed back).
    """
    balances: dict[str, Decimal] = {}
    history, still_open = [], []
    for evening in sorted(evenings, key=lambda e: (e["at"], e["evening"])):
        entry = {"type": "evening", "evening": evening["evening"], "date": evening["date"], "at": evening["at"],
                 "nets": dict(evening["nets"]), "transfers": list(evening["transfers"])}
        if not evening["final"]:
            still_open.append(entry)
            continue
        for member, net in evening["nets"].items():
            balances[member] = balances.get(member, Decimal(0)) + Decimal(net)
        history.append(entry)
    for payment in payments:
        amount = Decimal(payment["amount"])
        balances[payment["from"]] = balances.get(payment["from"], Decimal(0)) + amount
        balances[payment["to"]] = balances.get(payment["to"], Decimal(0)) - amount
        history.append({"type": "paid", **{key: payment[key] for key in ("id", "at", "from", "to", "amount", "by")}})
    history.sort(key=lambda entry: (entry["at"], entry["type"] != "evening", entry.get("evening") or entry["id"]))
    owed = {member: balances[member] for member in sorted(balances) if balances[member] != 0}
    transfers = [{**t, "amount": amount_text(Decimal(t["amount"]))} for t in settle_people(owed)]
    return {"balances": {member: amount_text(balances[member]) for member in sorted(balances)},
            "transfers": transfers, "history": history, "open": still_open}


def check_payment(now: Mapping, payment: object) -> dict:
    """A mark "paid" on one of the ledger's transfers as it stands `now` (`ledger`): `{"from", "to", "by"}` and
    optionally `amount` (all that is owed when left out, or a part of it); `by` is the payer or the payee. The
    payment as it is recorded (the store adds its `id` and `at`)."""
    if not isinstance(payment, dict) or not all(isinstance(payment.get(key), str) for key in ("from", "to", "by")):
        raise InvalidInput("bad_payment", "A payment names the member who paid (from), the member paid (to) and "
                           "who marks it (by), as in {\"from\": \"m1\", \"to\": \"m2\", \"by\": \"m1\"}.")
    payer, payee, by = payment["from"], payment["to"], payment["by"]
    owed = next((t for t in now["transfers"] if t["from"] == payer and t["to"] == payee), None)
    if owed is None:
        raise Rejected("not_owed", f"{payer} owes {payee} nothing in the club's ledger.",
                       details={"from": payer, "to": payee})
    most = Decimal(owed["amount"])
    amount = payment.get("amount", owed["amount"])
    if not isinstance(amount, str) or not AMOUNT.match(amount) or Decimal(amount) == 0:
        raise InvalidInput("bad_payment", "amount is the money paid, written as text, like \"2.50\".",
                           {"amount": amount if isinstance(amount, str) else None})
    if Decimal(amount) > most:
        raise Rejected("not_owed", f"{payer} owes {payee} {owed['amount']}, not {amount}.",
                       details={"from": payer, "to": payee, "owed": owed["amount"]})
    if by not in (payer, payee):
        raise Rejected("not_payer_or_payee", "A payment is marked paid by the member who paid or the member paid.",
                       details={"by": by, "from": payer, "to": payee})
    return {"from": payer, "to": payee, "amount": amount_text(Decimal(amount)), "by": by}


def amount_text(amount: Decimal) -> str:
    """Money as text: to the cent, or finer when it is (a stake may have 4 decimals)."""
    cents = amount.quantize(CENT)
    return str(cents) if cents == amount else str(amount.normalize())

