"""What the parts measure with: a percentile of latencies, the CPU and memory of a server's workers (read from
`/proc`: the master's children) and of the benchmark's own process."""

from __future__ import annotations

import os
import resource
from pathlib import Path


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def worker_rss(master: int) -> float:
    """The resident memory of the server's workers (the master's children), MiB."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    total = 0
    for pid in children:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total / 2**20


def worker_cpu(master: int) -> float:
    """The CPU seconds the server's workers (the master's children) used so far, all their threads."""
    total = 0
    for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
