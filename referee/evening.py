"""A game night: several matches at one table, one settlement, and the figures to argue about.

An evening is its matches, in the order they were started. Its **people** are names, told apart as names
are within a match (`same_name`): Ann may sit in seat 0 of one match and seat 2 of the next. Each person's
net is the sum of their nets in the evening's matches, a match still being played counting "as if stopped
now"; the evening is settled once, with the fewest transfers over the whole evening (`fewest_transfers`).

Figures are what each match keeps: a figure a game does not keep (minus points outside Ogórek, lives
outside Ogurets, bids outside Oh Hell) is None, never 0.
"""

from __future__ import annotations

import unicodedata
from decimal import Decimal

from .match import Match, same_name, visible
from .settlement import fewest_transfers
from .verdicts import InvalidInput

MAX_EVENING_NAME = 80
MAX_PEOPLE = 12  # the fewest transfers try every group of people: 2^12 of them stay quick
MAX_MATCHES = 60


def check_evening_name(name: object) -> str:
    """An evening's name: 1 to 80 characters, something visible, no control characters."""
    if not isinstance(name, str):
        raise InvalidInput("bad_evening_name", "name is the evening's name, as text.")
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= MAX_EVENING_NAME or not any(visible(char) for char in name):
        raise InvalidInput("bad_evening_name", f"An evening's name has 1 to {MAX_EVENING_NAME} characters, "
                           "at least one of them a letter, a digit or a sign that can be seen.")
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise InvalidInput("bad_evening_name", "An evening's name cannot hold control characters (a line break, "
                           "a tab, ...).")
    return name


def people_count(tables: list[list[str]]) -> int:
    """How many people sit at these tables (lists of names), a name counted once however it is written."""
    return len({same_name(name) for names in tables for name in names})


def figures(match: Match, seat: int, place: int | None) -> dict:
    """One player's figures in one match; what the game does not keep is None."""
    state, game = match.state, match.game.name
    found = [f for f in state.findings if f.seat == seat]
    hands = [h for h in state.history if h.get("bids") is not None and h["bids"][seat] is not None]
    exact = sum(1 for h in hands if h["bids"][seat] == h["taken"][seat])
    start_lives = match.options.get("lives")
    lives = state.lives[seat]
    return {
        "matches": 1,
        "won": 1 if state.finished and place == 1 else 0,
        "places": [place],
        "minus_points": state.scores[seat] if game == "ogorek" else None,
        "lives_lost": start_lives - lives if lives is not None and isinstance(start_lives, int) else None,
        "bids": len(hands) if game == "oh_hell" else None,
        "exact_bids": exact if game == "oh_hell" else None,
        "exact_bids_pct": percent(exact, len(hands)) if game == "oh_hell" else None,
        "illegal_found": sum(1 for f in found if f.proof_seq != f.seq),
        "illegal_let_stand": sum(1 for f in found if f.proof_seq == f.seq),
    }


def percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def add_figures(total: dict, more: dict) -> dict:
    """Two players' figures summed (a person's over the evening); None stays None only when both are."""
    out = {}
    for name in ("matches", "won", "illegal_found", "illegal_let_stand"):
        out[name] = total[name] + more[name]
    out["places"] = total["places"] + more["places"]
    for name in ("minus_points", "lives_lost", "bids", "exact_bids"):
        mine, theirs = total[name], more[name]
        out[name] = None if mine is None and theirs is None else (mine or 0) + (theirs or 0)
    out["exact_bids_pct"] = percent(out["exact_bids"], out["bids"]) if out["bids"] is not None else None
    return out


NO_FIGURES = {"matches": 0, "won": 0, "places": [], "minus_points": None, "lives_lost": None, "bids": None,
              "exact_bids": None, "exact_bids_pct": None, "illegal_found": 0, "illegal_let_stand": 0}


def evening(matches: list[tuple[str, Match]]) -> dict:
    """The evening over its matches (id, match), oldest first: each match with its players' places, nets and
    figures, the people with their nets and figures, and the fewest transfers that settle it all."""
    people: dict[str, int] = {}  # same_name -> index in `names`
    names: list[str] = []
    nets: list[Decimal] = []
    totals: list[dict] = []
    shown = []
    for match_id, match in matches:
        money = match.settlement()
        players = []
        for entry in money["players"]:
            seat, name = entry["seat"], match.players[entry["seat"]]
            person = people.setdefault(same_name(name), len(names))
            if person == len(names):
                names.append(name)
                nets.append(Decimal(0))
                totals.append(dict(NO_FIGURES))
            net = Decimal(entry["net"])
            nets[person] += net
            mine = figures(match, seat, entry["place"])
            totals[person] = add_figures(totals[person], mine)
            players.append({"seat": seat, "name": name, "person": names[person], "place": entry["place"],
                            "net": entry["net"], "figures": mine})
        shown.append({"id": match_id, "game": match.game.name, "stake": str(match.stake),
                      "status": "finished" if match.state.finished else "playing", "final": money["final"],
                      "players": players})
    return {
        "final": bool(shown) and all(m["final"] for m in shown),
        "matches": shown,
        "people": [{"name": name, "net": str(nets[i]), "figures": totals[i]} for i, name in enumerate(names)],
        "transfers": settle_people(dict(zip(names, nets, strict=True))),
    }


def settle_people(nets: dict[str, Decimal]) -> list[dict]:
    """The fewest transfers that settle people's nets (person -> net, in the order they came to the table), from
    and to a person, the amounts as text. The nets sum to zero."""
    assert sum(nets.values(), Decimal(0)) == 0, "money must sum to zero"
    people = list(nets)
    return [{"from": people[t["from"]], "to": people[t["to"]], "amount": str(t["amount"])}
            for t in fewest_transfers(dict(enumerate(nets.values())))]


FIGURE_COLUMNS = ("matches", "won", "places", "minus_points", "lives_lost", "bids", "exact_bids", "exact_bids_pct",
                  "illegal_found", "illegal_let_stand")


def figures_rows(summary: dict) -> list[list[str]]:
    """The evening's figures as rows of text, a header first: one row per person over the evening, then one
    per player per match. An empty cell is a figure the game does not keep; places are listed with "/"."""
    def cells(figures: dict) -> list[str]:
        return ["/".join("" if p is None else str(p) for p in value) if name == "places"
                else "" if value is None else str(value)
                for name, value in ((name, figures[name]) for name in FIGURE_COLUMNS)]

    rows = [["match", "game", "name", "net", *FIGURE_COLUMNS]]
    rows += [["evening", "", person["name"], person["net"], *cells(person["figures"])] for person in summary["people"]]
    for match in summary["matches"]:
        rows += [[match["id"], match["game"], player["name"], player["net"], *cells(player["figures"])]
                 for player in match["players"]]
    return rows
