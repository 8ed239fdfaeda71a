"""Part 1: random full matches per second of each game, through `referee.Match` alone (no HTTP, no storage)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .tables import MATCHES


@dataclass
class EngineResult:
    game: str
    matches: int
    events: int
    seconds: float

    @property
    def matches_per_second(self) -> float:
        return self.matches / self.seconds

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds


def run(seconds: float = 3.0, most: int = 2000, seed: int = 1) -> list[EngineResult]:
    """Each game plays random matches for about `seconds` (at most `most` matches)."""
    results = []
    for game, play in MATCHES.items():
        rng = random.Random(seed)
        matches = events = 0
        start = time.perf_counter()
        while matches < most and time.perf_counter() - start < seconds:
            events += play(rng).seq
            matches += 1
        results.append(EngineResult(game, matches, events, time.perf_counter() - start))
    return results
