"""gunicorn's settings for Kibic live in the package, `api/gunicorn_conf.py` (`kibic serve` runs with them): this
file lets `gunicorn --config gunicorn.conf.py 'api:create_app()'` in a clone (the tests' server, the benchmarks)
run with the same. Read as a file, not imported: gunicorn's master never imports the app."""

import runpy
from pathlib import Path

globals().update({name: value for name, value in runpy.run_path(
    str(Path(__file__).resolve().with_name("api") / "gunicorn_conf.py")).items() if not name.startswith("__")})
