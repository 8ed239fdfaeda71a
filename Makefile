# Kibic: `make serve` runs the service, `make test` runs the whole suite; both install what is missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# `make serve HTTPS=1`: the phones at the table over HTTPS on the club's own network (api/tls.py), on every
# address of the box unless HOST is given; NAMES="club.lan ..." adds names the phones reach it by.
HTTPS_PORT ?= 8443
HTTPS_HOST := $(if $(filter command line environment,$(origin HOST)),$(HOST),0.0.0.0)
NAMES ?=
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
ifdef HTTPS
	$(PY) -m api.tls serve --host $(HTTPS_HOST) --port $(PORT) --https-port $(HTTPS_PORT) $(foreach name,$(NAMES),--name $(name)) -- --access-logfile -
else
	$(VENV)/bin/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) --access-logfile - 'api:create_app()'
endif

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
