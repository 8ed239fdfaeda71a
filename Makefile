# Kibic: `make serve` runs the service, `make test` runs the whole suite; both install what is missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed

.PHONY: serve test bench lint install

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) --access-logfile - 'api:create_app()'

test: $(STAMP)
	$(PY) -m ruff check referee api webui tests bench
	$(PY) -m api.contract --check
	$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc = 5 ]; then echo "pytest collected no test: the suite is missing or mis-configured"; fi; \
	exit $$rc

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) -m bench $(BENCH_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check referee api webui tests bench
