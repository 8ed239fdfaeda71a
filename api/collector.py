"""Python's full garbage collections in a server process, kept to the objects made since the last one.

A full collection looks at every object that could be part of a cycle, and a gevent worker's loop, with every
tap and stream it serves, waits while it does. With a room of tables held (`make bench`'s capacity steps: 1,600
matches over two workers) a full collection took 40 to 160 ms, every ten to twenty seconds: the slowest taps of
the step.

What survives a full collection lives long: the matches held, the app. `Collector`, called by the collector at
the end of each full collection, freezes it (`gc.freeze`): the next full collections look only at what was made
since. A frozen object is still freed when its last reference goes (a match is no cycle: `tests/engine/test_match.py`).
What freezing could keep is a cycle that frozen objects form once they are garbage: every `COMPLETE_EVERY`
seconds the collector unfreezes everything instead, and the next full collection looks at all of it once and
frees such cycles.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

COMPLETE_EVERY = 600.0  # seconds between full collections that look at everything
FULL_AFTER = 2  # collections of the middle generation between two full ones (Python's default: 10)
OLDEST = len(gc.get_count()) - 1  # the generation a full collection is named by


class Collector:
    """A `gc.callbacks` entry: freezes what each full collection leaves, unfreezes all every `every` seconds."""

    def __init__(self, every: float = COMPLETE_EVERY, clock: Callable[[], float] = time.monotonic):
        self.every, self.clock = every, clock
        self.complete = clock()  # when everything was last unfrozen

    def __call__(self, phase: str, info: dict) -> None:
        if phase != "stop" or info["generation"] != OLDEST:
            return
        now = self.clock()
        if now - self.complete >= self.every:
            self.complete = now
            gc.unfreeze()
        else:
            gc.freeze()


def install(every: float = COMPLETE_EVERY) -> Collector:
    """Freezes what is loaded now (the modules, the app) and keeps full collections short from now on."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)
    collector = Collector(every)
    gc.callbacks.append(collector)
    return collector
