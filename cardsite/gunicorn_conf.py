"""Gunicorn's settings for the card site (`manage.py serve` passes this file with `-c`).

Each value can be changed by the environment, so one machine's choice needs no edit here:
WEB_CONCURRENCY processes, each running the site (`cardsite.asgi:application`) on an event
loop with gunicorn's asgi worker. Connections wait on the loop, so slow clients hold no
thread; the requests' own code runs in WEB_THREADS threads per process (cardsite/asgi.py).
"""

import multiprocessing
import os

from cardsite.settings import env_bool

# Two processes per core, at least two, keep both cores busy while one waits on SQLite's lock.
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, 2 * multiprocessing.cpu_count())))
worker_class = "asgi"
asgi_lifespan = "off"  # Django has no startup or shutdown hooks to run
# A proxy PDF of 200 copies drawn from cold takes a few seconds; nothing takes a minute.
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
# A worker is replaced after this many requests (with jitter, so never all at once): any slow
# growth of memory in a long-lived process is bounded.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "5000"))
max_requests_jitter = max_requests // 10
# Access lines to stdout when asked (the load test leaves them off; a platform's router logs).
accesslog = "-" if os.environ.get("WEB_ACCESS_LOG", "").lower() in {"1", "true", "yes"} else None
errorlog = "-"
# Whether a request came over HTTPS is taken from a proxy's X-Forwarded-Proto only when the
# site is told to trust one (TRUST_X_FORWARDED_PROTO, which Django follows too), and then only
# from FORWARDED_ALLOW_IPS. Otherwise gunicorn honours no such header from anyone, loopback
# and Unix sockets included: a client cannot claim HTTPS and skip the redirect to it.
secure_scheme_headers: dict[str, str]
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
    secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
else:
    forwarded_allow_ips = ""
    secure_scheme_headers = {}
    forwarder_headers = ""
# The app (Django, the rules engine, the face renderer) is imported once, before the processes
# are forked: they start warm and share those pages of memory.
preload_app = True
# gunicorn's runtime control socket sits at one fixed path per user, where two sites (or a
# load test beside a running site) would collide; nothing here uses it.
control_socket_disable = True


def when_ready(server: object) -> None:
    """Import every view module in the parent too (Django loads the URLconf lazily, on a
    worker's first request, which then took seconds)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the attribute loads the URLconf
