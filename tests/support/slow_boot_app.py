"""Kibic's app for gunicorn, whose loading takes `KIBIC_TEST_SLOW_BOOT_SECONDS` longer once the file named by
`KIBIC_TEST_SLOW_BOOT_FILE` exists: the workers a reload starts then load the app as slowly as on a busy machine
(the app's imports alone take 0.6 to 3 s), while the workers started first were quick."""

import os
import time
from pathlib import Path

from api import create_app as kibic_app


def create_app():
    mark = os.environ.get("KIBIC_TEST_SLOW_BOOT_FILE")
    if mark and Path(mark).exists():
        time.sleep(float(os.environ.get("KIBIC_TEST_SLOW_BOOT_SECONDS", "3")))
    return kibic_app()
