"""A club's ratings: per member and game, from the places of the finished matches (`referee.club` summaries).

Why this library and this model. A Kibic match seats 2 to 8 players and ends in places that players may share (ex
aequo). Elo and Glicko rate a game between two; a table of five would have to be cut into ten pairs. `openskill`
(MIT licence, maintained, no dependencies of its own, wheels compiled with mypyc) implements Weng and Lin's Bayesian
approximation ("A Bayesian Approximation Method for Online Ranking", JMLR 2011), the family TrueSkill belongs to: a
rating is a belief about a skill, a mean `mu` and an uncertainty `sigma` that shrinks as the member plays. Of its
models, **Plackett-Luce** rates the whole ranking of a match in one update, however many players, and takes a tie
as equal ranks. The library's defaults are kept: a newcomer is 25 ± 25/3, and the `ordinal` shown and ranked by is
openskill's own `mu - 3 sigma` (the skill 99.7 % likely to be above it): 0 for a newcomer, rising with good places
and with certainty, so a member with one lucky win does not top the table.

Deterministic: the matches are rated one after another in `referee.club.ORDER` (day, then `at`, then id), each
player a team of one, ranked by their place. Each update starts from the ratings the earlier matches left, so a
correction or the deletion of an earlier match changes every rating after it: the ratings are recomputed from
the summaries (`ratings`). That costs one `rate` call per match, 0.1 to 0.3 ms on this two-core box: a quarter to
half a second for a club's 2,000 matches (`python -m bench.club`), too slow for every read. So the store recomputes
them when a finished match changes (or is deleted) and keeps them beside the summaries; `Ratings.add` extends them by
one match in the common case, a match that comes last in `ORDER`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from openskill.models import PlackettLuce, PlackettLuceRating

from referee.club import finished, order_key

MODEL = PlackettLuce()
"""openskill's Plackett-Luce model with its default parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""


class Ratings:
    """The ratings as they stand after the finished matches added, in order (`add`)."""

    def __init__(self, model: PlackettLuce = MODEL) -> None:
        self.model = model
        self.games: dict[str, dict[str, PlackettLuceRating]] = {}  # game -> member -> rating
        self.matches: dict[tuple[str, str], int] = {}  # (member, game) -> matches rated
        self.after: dict[tuple[str, str], PlackettLuceRating] = {}  # (match, member) -> the rating it left
        self.last: tuple | None = None

    def add(self, summary: Mapping) -> None:
        """One more finished match, later in `ORDER` than every match added before (else recompute: `ratings`)."""
        key = order_key(summary)
        if not summary["final"]:
            raise ValueError("only a finished match has places to rate")
        if self.last is not None and key < self.last:
            raise ValueError(f"match {summary['match']} comes before the latest rated: rate them all again")
        self.last = key
        game, players = summary["game"], summary["players"]
        held = self.games.setdefault(game, {})
        teams = [[held.get(player["member"]) or self.model.rating(name=player["member"])] for player in players]
        rated = self.model.rate(teams, ranks=[float(player["place"]) for player in players])
        for player, (rating,) in zip(players, rated, strict=True):
            held[player["member"]] = self.after[summary["match"], player["member"]] = rating
            self.matches[player["member"], game] = self.matches.get((player["member"], game), 0) + 1

    def shown(self) -> dict[str, dict[str, dict]]:
        """Member -> game -> `{"mu", "sigma", "ordinal", "matches"}`, the first three as openskill gives them."""
        out: dict[str, dict[str, dict]] = {}
        for game, held in sorted(self.games.items()):
            for member, rating in held.items():
                out.setdefault(member, {})[game] = {"mu": rating.mu, "sigma": rating.sigma,
                                                    "ordinal": rating.ordinal(),
                                                    "matches": self.matches[member, game]}
        return dict(sorted(out.items()))


    def rating_after(self, match: str, member: str) -> dict | None:
        """The member's rating as the match left it, `{"mu", "sigma", "ordinal"}`; None for a match not rated."""
        rating = self.after.get((match, member))
        return None if rating is None else {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}


def ratings(summaries: Iterable[Mapping], start: str | None = None,
            end: str | None = None) -> dict[str, dict[str, dict]]:
    """Every member's rating per game over the finished matches from `start` to `end` (days, both included), rated
    from scratch in `ORDER`: a season's ratings start afresh with its first day."""
    book = Ratings()
    for summary in sorted(finished(summaries, start, end), key=order_key):
        book.add(summary)
    return book.shown()


def ordinals(shown: Mapping[str, Mapping[str, Mapping]], game: str) -> dict[str, float]:
    """Member -> ordinal in `game`, for a season's table by rating (`referee.club.season_table`)."""
    return {member: games[game]["ordinal"] for member, games in shown.items() if game in games}
