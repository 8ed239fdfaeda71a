"""gunicorn's settings for Kibic: `make serve`, the tests' server and the benchmarks all start it with these.

gevent workers: each connection is a greenlet, not a worker or a thread, so a phone that sends its request
slowly, or a follower holding its stream open for the whole evening, costs a little memory and nothing
else; the README's "Serving" says why this model and not sync or threaded workers.
"""

worker_class = "gevent"
workers = 2
worker_connections = 5000  # per worker: open streams and slow clients, each a greenlet
timeout = 30  # a worker whose loop is stuck this long (not a slow client: those wait in their greenlets) is restarted
keepalive = 5  # seconds an idle kept-alive connection waits for its next request
graceful_timeout = 5  # streams never end by themselves: a restart cuts them after this (the page reconnects)


def post_worker_init(worker):
    """What the worker loaded to serve (modules, the app) is never garbage: Python's full collections, which
    stop the loop while they look at every object they track, leave it out from now on, and what outlives a full
    collection too (the matches held), but for one full collection every ten minutes (`api/collector.py`)."""
    from api import collector  # here, in the worker, which has loaded the app (and gevent patched what it patches)

    collector.install()
