# Kibic: `make serve` runs the service, `make test` runs the whole suite; both install what is missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed
# The tests share the cores in TEST_WORKERS processes; those that start a real gunicorn (marked `server`: load,
# slow clients, streams, durability) or time a loop (`timed`) run after them, alone, so that their timings are
# the code's own and not the other tests'.
TEST_WORKERS ?= 2

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
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal -m "not (server or timed)" $(PYTEST_ARGS); shared=$$?; \
	$(PY) -m pytest -m "server or timed" $(PYTEST_ARGS); alone=$$?; \
	if [ $$shared = 5 ] && [ $$alone = 5 ]; then echo "pytest collected no test: the suite is missing or mis-configured"; exit 5; fi; \
	for rc in $$shared $$alone; do if [ $$rc != 0 ] && [ $$rc != 5 ]; then exit $$rc; fi; done

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) -m bench $(BENCH_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check referee api webui tests bench
