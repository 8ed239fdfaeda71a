"""Event formats: each event says the format it was written in, and the engine reads every older one.

An event is written in the current format (`written`), which it names in its `format` field; an event without
one is format 1. Reading an event (`upgrade`) brings it to the current format one step at a time, in this one
place, so that the games' `evolve` and every reader of a log see events of one shape only, and an old log
replays to the state it always had.

- **Format 1**: events as recorded before they named their format. A play let stand against a rule carries
  `illegal` as `{code, message}`, and warnings are `{code, message, seat}`: they were recorded before verdicts
  carried their details.
- **Format 2**: the event says `"format": 2`; `illegal` and every warning carry `details` (`{}` when the event
  was recorded without them). Format 1's messages for the rules that look into a hand (follow suit, play
  higher, play the lowest...) named the other cards of a known hand ("Ann must play 8 or higher (8 Q)"),
  which a reader without the key must not see: format 2 says those in the rule's own sentence.

A match's header (game, players, options, stake) is read the same way: an option the game gained after the
match was created is the rule the match was played by: the option's default, or, where the option keeps an
earlier rule (its `earlier`, such as Ogurets' `joker_overtakes_king`: true for a match created before the
revised king rule), that rule.
"""

from __future__ import annotations

from collections.abc import Callable

from .verdicts import CODES

HAND_RULES = frozenset({"must_play_higher", "must_play_lowest", "must_follow_suit", "must_trump"})
"""The verdicts whose format-1 messages named other cards of a known hand."""
LET_STAND = "Let stand: "

CURRENT = 2
"""The format every new event is written in."""


def said_by_the_rule(verdict: dict) -> dict:
    """A format-1 verdict with `details`, and in the rule's own words where its message looked into a hand."""
    verdict = {**verdict, "details": verdict.get("details", {})}
    if verdict.get("code") in HAND_RULES:
        prefix = LET_STAND if verdict.get("message", "").startswith(LET_STAND) else ""
        verdict["message"] = prefix + CODES[verdict["code"]].sentence
    return verdict


def details_recorded(event: dict) -> dict:
    """Format 1 -> 2: `illegal` and the warnings carry `details` and name no card of a hand, and the event says
    its format."""
    event = dict(event)
    if "illegal" in event:
        event["illegal"] = said_by_the_rule(event["illegal"])
    if "warnings" in event:
        event["warnings"] = [said_by_the_rule(warning) for warning in event["warnings"]]
    event["format"] = 2
    return event


STEPS: tuple[Callable[[dict], dict], ...] = (details_recorded,)
"""STEPS[n - 1] reads an event of format n in format n + 1."""


def format_of(event: dict) -> int:
    version = event.get("format", 1)
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= CURRENT:
        raise ValueError(f"event {event.get('seq')} is written in format {version!r}; this referee reads formats 1 "
                         f"to {CURRENT}")
    return version


def upgrade(event: dict) -> dict:
    """The event in the current format (itself when it already is)."""
    for step in STEPS[format_of(event) - 1:]:
        event = step(event)
    return event


def written(event: dict) -> dict:
    """A new event, as it is recorded: in the current format."""
    return {**event, "format": CURRENT}


def header_read(header: dict, defaults: dict) -> dict:
    """A match's header with the options the game gained since the match was created, at `defaults`: for each
    option, what a match created without it was played by."""
    return {**header, "options": {**defaults, **header["options"]}}

