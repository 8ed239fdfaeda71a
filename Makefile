# Kibic: `make serve` runs the service (`kibic serve`, with the runtime dependencies only), `make test` runs the
# whole suite (adding the test tools); both install what is missing, at the versions pinned in constraints.txt.
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
RUN_STAMP := $(VENV)/.installed-runtime
CONSTRAINTS := -c constraints.txt
DATA ?=
BENCH_STAMP := $(VENV)/.bench-installed
# The tests share the cores in TEST_WORKERS processes; those that time something (marked `timed`: a real gunicorn
# under load, slow clients, streams, deadlines) run after them, apart, so that their timings are the code's own and
# not the other tests'. A real gunicorn that times nothing (`server` alone:
# durability, backups, the README's sessions) shares the cores. Three processes on two cores: a browser test waits on the page
# and the server for part of its time, which a third process fills (measured: the browser tests 760 s in two processes,
# 570 s in five, with the cores 88% busy in four; since a phone passes the page's 0.35 s of settling on the taps' own
# clock, the browser tests take 339 s in three with the cores 93% busy).
TEST_WORKERS ?= 3
# The tests that time something spend most of their time waiting on purpose (connections held, a body trickled, a
# reload's grace): they run two files at a time, each file whole in one process, the cores then half idle (measured:
# 52% busy, 45 s instead of 72 s one at a time; the slowest answer they time 7 ms against its 1 s deadline).
TIMED_WORKERS ?= 2
# The suite starts some hundred Python processes (its test processes, each gunicorn and its workers, the command line
# run as a user runs it): with PYTHONDONTWRITEBYTECODE set (some machines set it), each would compile Kibic's modules
# from source again and pytest would rewrite the assertions of every test module again in each of its processes
# (measured: a test process collects in 13 s without the compiled files, 6 s with them; a process importing the app
# 0.5 s against 0.38 s). The compiled files go to __pycache__ beside their modules (ignored by git).
test: export PYTHONDONTWRITEBYTECODE :=

.PHONY: serve test bench lint install

$(RUN_STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $(CONSTRAINTS) -e .
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP)
	$(PY) -m pip install --quiet $(CONSTRAINTS) -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

serve: $(RUN_STAMP)
	$(VENV)/bin/kibic serve --port $(PORT) $(if $(DATA),--data $(DATA)) \
		$(if $(HTTPS),--host $(HTTPS_HOST) --https --https-port $(HTTPS_PORT) $(foreach name,$(NAMES),--name $(name)),--host $(HOST))

test: $(STAMP)
	$(PY) -m ruff check referee api webui tests bench
	$(PY) -m api.contract --check
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal -m "not timed" $(PYTEST_ARGS); shared=$$?; \
	$(PY) -m pytest -n $(TIMED_WORKERS) --dist loadfile -m timed $(PYTEST_ARGS); alone=$$?; \
	if [ $$shared = 5 ] && [ $$alone = 5 ]; then echo "pytest collected no test: the suite is missing or mis-configured"; exit 5; fi; \
	for rc in $$shared $$alone; do if [ $$rc != 0 ] && [ $$rc != 5 ]; then exit $$rc; fi; done

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet $(CONSTRAINTS) -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) -m bench $(BENCH_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check referee api webui tests bench
