"""`python -m api`: the development server on 127.0.0.1:8000 (`make serve` runs the real one)."""

from . import create_app

create_app().run(host="127.0.0.1", port=8000)
