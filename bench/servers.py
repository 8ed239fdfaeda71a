"""gunicorn on a free loopback port, started and stopped by the benchmarks: the tests' own launcher."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from gunicorn_server import Gunicorn, gunicorn  # noqa: E402

WORKERS = 2
# The capacity steps start a thousand tables and more from this one address: the creation limit is lifted.
os.environ["KIBIC_CREATION_LIMIT"] = "none"

__all__ = ["WORKERS", "Gunicorn", "gunicorn"]
