"""gunicorn's settings for Kibic: `kibic serve` (and `make serve`), the tests' server and the benchmarks all start
it with these (a clone's `gunicorn.conf.py` reads them from here).

gevent workers: each connection is a greenlet, not a worker or a thread, so a phone that sends its request
slowly, or a follower holding its stream open for the whole evening, costs a little memory and nothing
else; docs/contributing.md's "Serving" says why this model and not sync or threaded workers.
"""

import importlib.util as _importlib_util
import sys as _sys
from pathlib import Path as _Path


def _standalone(name: str):
    """api/<name>.py by itself, not as part of the package: the master process never imports the app (Flask and
    the rest), which its gevent workers import once gevent has patched them."""
    key = f"kibic_{name}_for_gunicorn"
    if key not in _sys.modules:
        spec = _importlib_util.spec_from_file_location(key, _Path(__file__).resolve().with_name(f"{name}.py"))
        _sys.modules[key] = _importlib_util.module_from_spec(spec)
        spec.loader.exec_module(_sys.modules[key])
    return _sys.modules[key]


_found = _standalone("settings").load()  # a bad KIBIC_* value stops the start here, naming it

# gevent's worker, with at most KIBIC_MAX_CONNECTIONS_PER_CLIENT connections from one client address in each worker
# and a deadline on each request's body (`api/worker.py`)
worker_class = _standalone("worker").KibicWorker.configured(_found)
workers = _found.workers  # KIBIC_WORKERS; `--workers` beats it
worker_connections = 5000  # per worker: open streams and slow clients, each a greenlet
timeout = 30  # a worker whose loop is stuck this long (not a slow client: those wait in their greenlets) is restarted
keepalive = 5  # seconds a connection waits for its next request's head, the head's bytes included
# A stop (or a reload's old workers) ends the streams at once, whole (`api/stream.py`: the pages reconnect), and
# finishes the requests on their way: a head arrives within `keepalive`, its body within 10 s of it (`api/worker.py`),
# so a request still arriving is whole within 15 s; this leaves its answer 5 s more, then cuts what is left
graceful_timeout = 20
logger_class = _standalone("logs").GunicornLogger  # time, level, process, request id on each line; ids cut in access
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'  # the request (ids cut), status, bytes, latency
control_socket_disable = True  # gunicorn 24+: no control socket shared by every gunicorn of the user


def post_worker_init(worker):
    """What the worker loaded to serve (modules, the app) is never garbage: Python's full collections, which
    stop the loop while they look at every object they track, leave it out from now on, and what outlives a full
    collection too (the matches held), but for one full collection every ten minutes (`api/collector.py`)."""
    from api import collector  # here, in the worker, which has loaded the app (and gevent patched what it patches)

    collector.install()
    worker.log.info("Worker ready with pid: %s", worker.pid)  # it takes connections from now on (the tests wait for it)


def child_exit(server, worker):
    """In the master, once a worker has exited (however: a crash in its boot, a SIGKILL): its slot on the workers'
    board is cleared, so that no older worker told to stop waits for it to be ready (`api/worker.py`)."""
    gone = getattr(worker, "gone", None)
    if gone is not None:
        gone()
