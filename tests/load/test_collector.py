"""A server process's full garbage collections look only at what was made since the last one (`api/collector.py`),
and everything once every ten minutes, so that a cycle among frozen objects is freed too."""

from __future__ import annotations

import gc
import logging
import os
import runpy
import weakref
from pathlib import Path
from types import SimpleNamespace

import pytest

from api import collector
from api.collector import Collector


class Node:
    "an object that can be part of a cycle and be watched by a weak reference"


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def restored():
    """The test process's collector as it was: its callbacks, thresholds, and nothing frozen."""
    callbacks, threshold = list(gc.callbacks), gc.get_threshold()
    yield
    gc.callbacks[:] = callbacks
    gc.set_threshold(*threshold)
    gc.unfreeze()
    gc.collect()


def test_a_full_collection_freezes_what_it_leaves_and_the_next_looks_at_what_came_after(restored):
    gc.unfreeze()
    gc.callbacks.append(Collector(clock=Clock()))
    held = [Node() for _ in range(20_000)]
    watched = weakref.ref(held[7])
    gc.collect()
    assert gc.get_freeze_count() >= len(held)
    assert len(gc.get_objects(generation=collector.OLDEST)) < 1_000  # what a full collection would look at
    later = [Node() for _ in range(3_000)]
    gc.collect()
    assert len(gc.get_objects(generation=collector.OLDEST)) < 1_000
    assert gc.get_freeze_count() >= len(held) + len(later)
    del held[7]  # a frozen object is freed when its last reference goes, as any other
    assert watched() is None


def test_a_cycle_among_frozen_objects_is_freed_by_the_complete_collection(restored):
    clock = Clock()
    gc.callbacks.append(Collector(every=600, clock=clock))
    node = Node()
    node.itself = node
    watched = weakref.ref(node)
    gc.collect()  # frozen
    del node
    gc.collect()
    assert watched() is not None, "a frozen cycle waits for the complete collection"
    clock.now += 599
    gc.collect()
    assert watched() is not None
    clock.now += 1
    gc.collect()  # its end unfreezes everything
    gc.collect()  # and this one looks at all of it
    assert watched() is None
    assert gc.get_freeze_count() > 0, "what the complete collection left is frozen again"


def test_the_servers_workers_keep_their_full_collections_short(restored):
    settings = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    settings["post_worker_init"](SimpleNamespace(log=logging.getLogger("gunicorn.error"), pid=os.getpid()))
    assert any(isinstance(callback, Collector) for callback in gc.callbacks)
    assert gc.get_threshold()[2] == collector.FULL_AFTER
    assert gc.get_freeze_count() > 0
