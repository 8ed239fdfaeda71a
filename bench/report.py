"""The benchmarks' results as markdown: the targets first, then each part."""

from __future__ import annotations

import os
import platform
from datetime import UTC, datetime

from . import capacity
from .load import CHANGED, INSERT, KEPT_ALIVE, NEW_CONNECTIONS, POST, UNCHANGED, Run
from .measure import percentile

TARGETS = {"post": 1.25, "post_loaded": 1.25, "writes": 1.0, "poll": 1.0, "growth": 1.2, "follow_p95": 0.300,
           "tables": 2000, "cpu_per_tap": 0.0012}
NEW_CONNECTION_TARGETS = {"post": 1.3, "post_loaded": 1.3, "writes": 0.75}  # the goals before the kept-alive ones
LAYER_SQLITE = "SQLite (queries, commit, fsync)"


HISTORY = "\n# History\n"  # bench/results.md's runs before the latest, written by hand under what a run writes


def written(text: str, before: str) -> str:
    """bench/results.md from a run's `text`, keeping the history that the file held under the last run's parts."""
    at = before.find(HISTORY)
    return text if at < 0 else text.rstrip("\n") + "\n" + before[at:]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def verdict(ratio: float, goal: float) -> str:
    return "met" if ratio <= goal else "**not met**"


def at_least(value: float, goal: float) -> str:
    return "met" if value >= goal else "**not met**"


def held_tables(steps: list) -> int:
    """The most tables of a step that met both goals, in the steps before the first that missed."""
    held = 0
    for step in steps:
        if not step.held():
            break
        held = step.tables
    return held


def markdown(results: dict) -> str:
    growth = results["growth"]
    steps = results["capacity"]
    follow_p95 = steps[0].follow_p(0.95)
    tables = held_tables(steps)
    busiest = held_step(steps)
    memory = max(row["bytes"] / row["matches"] * 1000 / 2**20 for row in results["memory"])
    service: Run = results["service"][KEPT_ALIVE]
    poll = service.p50(UNCHANGED) / service.p50(INSERT)
    grown = growth.ratio("posts")
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = http_targets(results, KEPT_ALIVE, TARGETS, "kept alive")
    rows += [
        ["polling an unchanged match, `304`, one client kept alive, p50 ms", ms(service.p50(UNCHANGED)),
         ms(service.p50(INSERT)), f"{poll:.2f}", f"≤ {TARGETS['poll']}", verdict(poll, TARGETS["poll"])],
        [f"a play at event {growth.late:,} against one at event {growth.early}, p50 ms",
         ms(p50(growth.posts["late"])), ms(p50(growth.posts["early"])), f"{grown:.2f}",
         f"≤ {TARGETS['growth']}", verdict(grown, TARGETS["growth"])],
        [f"a follower sees a new event, p95 ms ({steps[0].tables} tables)", ms(follow_p95), "", "",
         f"≤ {TARGETS['follow_p95'] * 1000:.0f}", verdict(follow_p95, TARGETS["follow_p95"])],
        ["tables one server holds (tap p99 < 100 ms, every follower within 1 s)", f"{tables:,}", "", "",
         f"≥ {TARGETS['tables']:,}", at_least(tables, TARGETS["tables"])],
        [f"server CPU per tap, ms (its three followers' messages included; {busiest.tables:,} tables)"
         if busiest else "server CPU per tap, ms", ms(busiest.cpu_per_tap()) if busiest else "", "", "",
         f"≤ {TARGETS['cpu_per_tap'] * 1000:.1f}",
         verdict(busiest.cpu_per_tap(), TARGETS["cpu_per_tap"]) if busiest else "**not met**"],
        ["memory per 1,000 active matches, MiB (the most of any game, part 4)", f"{memory:.0f}", "", "",
         "reported", ""],
    ]
    rows += http_targets(results, NEW_CONNECTIONS, NEW_CONNECTION_TARGETS, "a new connection per request")
    parts = [
        "# Kibic's benchmarks",
        "",
        f"`make bench`, {when}: Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"gunicorn with {results['workers']} gevent workers (`gunicorn.conf.py`) on 127.0.0.1 for Kibic and for "
        "the baseline alike; the clients run on the same machine. The **baseline** is the floor of this stack: "
        "a minimal Flask view (`bench/baseline.py`) that inserts one row into SQLite in one transaction with "
        "Kibic's storage settings (WAL, `synchronous=FULL`), on one connection per process held open, the fast "
        "way to use SQLite. The headline is a client's connection **kept alive** across its requests, as a phone "
        "keeps its own (latencies from sending the request to the last byte of its answer); the same measured "
        "with a new connection per request (latencies from connecting) stand below them. Ratios compare "
        "numbers measured in this same run."
        + (" **A `--quick` smoke run: too small to quote.**" if results["quick"] else ""),
        "",
        "## Targets",
        "",
        table(["target", "Kibic", "baseline", "ratio", "goal", ""], rows),
        "",
        engine_part(results["engine"]),
        http_part(results),
        growth_part(growth),
        memory_part(results["memory"]),
        capacity_part(steps),
        profile_part(results["profile"]),
    ]
    return "\n".join(parts)


def http_targets(results: dict, way: str, goals: dict, said: str) -> list[list[str]]:
    """The targets' rows of part 2 for one way of connecting."""
    service: Run = results["service"][way]
    base, loaded = results["loads"][way]
    clients = results["clients"]
    post = service.p50(POST) / service.p50(INSERT)
    post_loaded = loaded.p50(POST) / base.p50(INSERT)
    writes = loaded.rps() / base.rps()
    return [
        [f"posting a play, one client, {said}, p50 ms", ms(service.p50(POST)), ms(service.p50(INSERT)),
         f"{post:.2f}", f"≤ {goals['post']}", verdict(post, goals["post"])],
        [f"posting a play, {clients} clients at once, {said}, p50 ms", ms(loaded.p50(POST)), ms(base.p50(INSERT)),
         f"{post_loaded:.2f}", f"≤ {goals['post_loaded']}", verdict(post_loaded, goals["post_loaded"])],
        [f"writes per second, {clients} clients at once, {said}", f"{loaded.rps():.0f}", f"{base.rps():.0f}",
         f"{writes:.2f}", f"≥ {goals['writes']}", at_least(writes, goals["writes"])],
    ]


def held_step(steps: list):
    """The step of the most tables that met both goals, before the first that missed (None: none did)."""
    held = None
    for step in steps:
        if not step.held():
            break
        held = step
    return held


def p50(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def engine_part(results) -> str:
    rows = [[r.game, str(r.matches), f"{r.events / r.matches:.0f}", f"{r.matches_per_second:.0f}",
             f"{r.events_per_second:,.0f}"] for r in results]
    return "\n".join([
        "## 1. The engine",
        "",
        "Random full matches through `referee.Match` (four players; Dureń: two, a series of five deals), "
        "played by the tests' table simulators (`tests/support/*_table.py`) from shuffled decks, blind (the referee "
        "is not told the hands), each checking its moves against `expected()` as it goes. One process, no "
        "storage.",
        "",
        table(["game", "matches", "events per match", "matches/s", "events/s"], rows),
        "",
    ])


def http_part(results: dict) -> str:
    clients, turns = results["clients"], results.get("turns", 4)
    one, loaded = [], []
    for way in (KEPT_ALIVE, NEW_CONNECTIONS):
        service: Run = results["service"][way]
        one += [[way, kind, str(len(service.latencies[kind])), ms(service.p50(kind)), ms(service.p99(kind)),
                 f"{service.p50(kind) / service.p50(INSERT):.2f}"] for kind in (INSERT, POST, CHANGED, UNCHANGED)]
        base, kibic = results["loads"][way]
        loaded += [[way, f"baseline: {clients} clients inserting", str(base.requests()), f"{base.rps():.0f}",
                    ms(base.p50(INSERT)), ms(base.p99(INSERT)), cpu_per_write(base), "1.00"],
                   [way, f"Kibic: {clients} scorers posting plays", str(kibic.requests()), f"{kibic.rps():.0f}",
                    ms(kibic.p50(POST)), ms(kibic.p99(POST)), cpu_per_write(kibic),
                    f"{kibic.rps() / base.rps():.2f} (writes/s), {kibic.p50(POST) / base.p50(INSERT):.2f} (p50)"
                    + (f", {kibic.cpu / kibic.requests() / (base.cpu / base.requests()):.2f} (CPU per write)"
                       if kibic.cpu and base.cpu else "")]]
    kibic = results["loads"][KEPT_ALIVE][1]
    return "\n".join([
        "## 2. Over HTTP",
        "",
        "Both ways a phone may connect: its connection **kept alive** across its requests (the headline; a "
        "connection is opened before the clock starts), and **a new connection per request**, where setting the "
        "connection up (and gunicorn's accepting it) is part of every request, on both servers alike.",
        "",
        "**One client, no queue**: a round is a baseline insert, an Ogurets event posted to Kibic (a play; "
        "one in 29 is a deal), a poll that finds it (`200`, with the ETag) and a poll that finds nothing new "
        "(`304`), so both servers are measured at the same moments; each round is made both ways, one after the "
        "other (which first alternating), each way on a match of its own.",
        "",
        table(["connection", "request", "count", "p50 ms", "p99 ms", "p50 / baseline p50"], one),
        "",
        f"**{clients} clients at once**, one request after another for the same time: "
        f"{clients} clients inserting into the baseline, and {clients} scorers posting Ogurets events to "
        "Kibic, each on a match of its own, in alternating turns "
        f"({turns} each way of {kibic.seconds / turns:.1f} s, the servers taking turns at going first, each "
        "side's turns pooled), so that the machine's other work falls on both alike. The client is "
        "one asyncio process speaking HTTP itself, on the same two cores, doing as little as it can: Kibic's "
        "events are played on the engine before the clock starts, and of each answer only the status is read. "
        "Every write is a commit with its sync to disk, and SQLite lets one writer in at a time: the disk's "
        "syncs bound both. With connections kept alive, a connection stays with the worker that accepted it: "
        "how a turn's connections fall on the two workers moves that turn's figures.",
        "",
        table(["connection", "run", "requests", "req/s", "p50 ms", "p99 ms", "server CPU ms per write",
               "against the baseline"], loaded),
        "",
        "Server CPU per write: the CPU time the server's two workers used while the turns' clocks ran (all their "
        "threads, from `/proc`) over its writes. Less noisy than the wall clock when other work shares the "
        "cores: it counts what the server did, not how long it waited for a core.",
        "",
    ])


def cpu_per_write(run: Run) -> str:
    return ms(run.cpu / run.requests()) if run.cpu else ""


def capacity_part(steps: list) -> str:
    rows = [[f"{step.tables:,}", f"{len(step.taps):,}", ms(percentile_of(step.taps, 0.5)), ms(step.tap_p99()),
             ms(step.follow_p(0.5)), ms(step.follow_p(0.95)), ms(step.follow_max()), str(step.missed),
             f"{step.rss_mib:.0f}", cpu_share(step.server_cpu, step), ms(step.cpu_per_tap()),
             cpu_share(step.client_cpu, step),
             f"{step.load:.1f}", probe_figures(step.machine), step_verdict(step)] for step in steps]
    return "\n".join([
        "## 5. Capacity: tables on one server",
        "",
        f"One asyncio client on the same machine plays the tables: each table's scorer taps an event every "
        f"{capacity.TAP_EVERY:.0f} s (events of random legal Oh Hell and Ogurets matches), and {capacity.FOLLOWERS} "
        "phones follow it on the stream. A step runs its tables for its time; the follower delay runs from the "
        "tap's answer to the stream message that carries it. A step holds when a tap's p99 is under "
        f"{capacity.TAP_P99_GOAL * 1000:.0f} ms and every follower got every tap within "
        f"{capacity.FOLLOW_GOAL:.0f} s; the steps stop at the first that misses.",
        "",
        table(["tables", "taps", "tap p50 ms", "tap p99 ms", "follow p50 ms", "follow p95 ms", "follow max ms",
               "missed", "workers' RSS MiB", "server CPU", "server CPU ms per tap", "client CPU", "load average",
               "probe: commit p99 / max, wake-up late p99 / max, ms", ""], rows),
        "",
        "Server and client CPU: the cores' time each used over the whole step (its tables set up, the taps, the "
        "wait for the last messages), the server's two workers with all their threads (2.00 would be both "
        "cores), from `/proc`. Server CPU per tap: the workers' CPU time from the first tap to the last "
        "tap's messages over the taps: the tap, its followers' messages and the looks for new events. "
        "The load average is the machine's at the end of the step: above 2, other work "
        "than this benchmark's was waiting for the same two cores. The probe (`bench/probe.py`, a process "
        "of its own beside the step) commits a row to a SQLite file of its own every 20 ms with the same "
        "settings and sleeps in between: how long its commits took (the disk's sync) and how late its sleeps "
        "ended (the wait for a core) is what the machine did to any program during the step, the tail no "
        "tap could beat.",
        "",
    ])


def step_verdict(step) -> str:
    return "held" if step.held() else "**missed**" + (f" ({step.errors[0][:60]})" if step.errors else "")


def probe_figures(machine: dict) -> str:
    if not machine:
        return ""
    commits, late = machine["commits"], machine["late"]
    return f"{ms(commits['p99'])} / {ms(commits['max'])}, {ms(late['p99'])} / {ms(late['max'])}"


def cpu_share(seconds: float, step) -> str:
    """CPU seconds over the step's whole wall time (tables set up, taps, the last messages): cores in use."""
    return f"{seconds / step.wall:.2f}" if step.wall else ""


def percentile_of(values: list[float], q: float) -> float:
    return percentile(values, q) if values else float("inf")


def growth_part(growth) -> str:
    rows = [
        ["post a play, p50 ms", ms(p50(growth.posts["early"])), ms(p50(growth.posts["late"])),
         f"{growth.ratio('posts'):.2f}"],
        ["poll that finds it (`200`), p50 ms", ms(p50(growth.polls["early"])), ms(p50(growth.polls["late"])),
         f"{growth.ratio('polls'):.2f}"],
        ["size of the state, bytes", f"{growth.sizes['early']:,}", f"{growth.sizes['late']:,}",
         f"{growth.sizes['late'] / growth.sizes['early']:.2f}"],
    ]
    return "\n".join([
        "## 3. Growth",
        "",
        f"One Ogurets match (four players, a threshold no deal reaches, so it never ends) logged through HTTP "
        f"up to event {growth.late:,}; then plays on it alternate with plays on a new match at event "
        f"{growth.early} ({len(growth.posts['late'])} each).",
        "",
        table(["", f"at event {growth.early}", f"at event {growth.late:,}", "ratio"], rows),
        "",
    ])


def memory_part(rows: list[dict]) -> str:
    lines = [[row["game"], str(row["matches"]), f"{row['events']:.0f}", f"{row['bytes'] / 2**20:.1f}",
              f"{row['bytes'] / row['matches'] * 1000 / 2**20:.1f}"] for row in rows]
    return "\n".join([
        "## 4. Memory",
        "",
        "Matches folded into one server process's cache (a child process each game), each logged up to "
        "about 150 events (a shorter match whole): the growth of the process's resident set.",
        "",
        table(["game", "matches held", "events per match", "RSS growth, MiB", "MiB per 1,000 matches"], lines),
        "",
    ])


def profile_part(profile: dict | None) -> str:
    if profile is None:
        return "## Where the time goes\n\npyinstrument is not installed (`pip install -e '.[bench]'`).\n"
    kinds = list(profile)
    layers = sorted({name for _, shares in profile.values() for name in shares},
                    key=lambda name: -profile[kinds[0]][1].get(name, 0))
    rows = [[name] + [f"{profile[kind][1].get(name, 0) * 100:.0f} %" for kind in kinds] for name in layers]
    rows.append(["in-process time per request, ms"] + [ms(profile[kind][0]) for kind in kinds])
    seconds, shares = profile[kinds[0]]
    sqlite = shares.get(LAYER_SQLITE, 0)
    return "\n".join([
        "## Where the time goes",
        "",
        "pyinstrument (cProfile's own times where pyinstrument is not installed) over Ogurets plays and polls "
        "served in-process by the Flask test client (no network, no gunicorn), summed by the layer of the code "
        "they were in:",
        "",
        table(["layer"] + kinds, rows),
        "",
        f"**The remaining cost.** A play took {ms(seconds)} ms in-process (the test client's own work included), "
        f"{sqlite * 100:.0f} % of it in SQLite: "
        "the commit's sync to disk that the baseline pays too, and the one indexed read the baseline does not "
        "make (the match's latest seq and the events logged since, in one statement; the match's key is checked "
        "against its hash kept in memory). The rest is what refereeing costs beyond the floor: Flask "
        "routing the request, marshmallow checking the body, the engine deciding the play and applying it to "
        "the match held in memory, and the state that answers it, built and encoded as JSON. None of it grows "
        "with the match (part 3). A poll that finds nothing new makes one indexed read and builds nothing.",
        "",
    ])
