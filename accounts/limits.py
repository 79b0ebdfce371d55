"""Who is asking, and how often: the counters behind every "too many requests" of the site.

A request is counted against its user (when logged in) and its client address. The counters
live in the default cache (`CACHE`): per web process with `memory`, shared by every process
and machine with `database`. They are fixed windows: a key per identity and window, counted up
with the cache's `incr`, forgotten when the window ends. The login lockout (`login_wait`,
`login_failed`, `login_succeeded`) is explained in docs/security.md.

A refusal is a `TooManyRequests` carrying its message and the seconds to wait; each view turns
it into a 429 with `Retry-After` (a picture, a page or the API's error object).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterable
from typing import Any, Final, Literal

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.db.models import QuerySet
from django.http import HttpRequest

# The clock of every window and wait (a test moves it instead of sleeping).
_now = time.time

Window = Literal["minute", "hour"]

# How long the failures of one (username, address) pair are remembered after the last one.
LOGIN_MEMORY_SECONDS = 24 * 3600


class TooManyRequests(Exception):
    """A request refused for now: `message` says why and when, `retry_after` in seconds."""

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = max(1, int(retry_after))


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent the request: REMOTE_ADDR, or, behind NUM_PROXIES proxies
    that each append the address they saw to X-Forwarded-For, the one the outermost proxy
    saw. With NUM_PROXIES=0 (the default) the header is ignored: any client could write it."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    hops = settings.NUM_PROXIES
    if hops <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")
        if part.strip()
    ]
    if not forwarded:
        return remote
    return forwarded[-min(hops, len(forwarded))]


def identities(request: HttpRequest) -> list[str]:
    """What a request is counted against: its user when logged in, and always its address
    (so that many accounts from one address share the address's count)."""
    user: AbstractBaseUser | AnonymousUser = request.user
    found = [f"address:{client_address(request)}"]
    if user.is_authenticated:
        found.insert(0, f"user:{user.pk}")
    return found


def _digest(text: str) -> str:
    # Cache keys stay short and printable whatever a username holds.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _count(key: str, *, timeout: int) -> int:
    """Add one to a counter, creating it (expiring after `timeout` s) when missing."""
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1


# The windows a rate is counted over, in seconds.
WINDOWS: Final[dict[Window, int]] = {"minute": 60, "hour": 3600}


def wait_text(seconds: int) -> str:
    """A wait in words: seconds up to two minutes, then whole minutes (rounded up)."""
    if seconds < 120:
        return f"{seconds} seconds"
    return f"{math.ceil(seconds / 60)} minutes"


def rate_limit(*, scope: str, idents: Iterable[str], limit: int, per: Window, what: str) -> None:
    """Count one request of `scope` against each identity; raise TooManyRequests when one of
    them has made more than `limit` in the current window (`per` minute or hour, a fixed
    window: the count starts again on the minute or the hour). `what` names the request in
    the message ("previews")."""
    now = _now()
    window = WINDOWS[per]
    start = int(now // window) * window
    wait = math.ceil(start + window - now)
    article = "an" if per == "hour" else "a"
    for ident in idents:
        key = f"rate:{scope}:{_digest(ident)}:{start}"
        if _count(key, timeout=window + 5) > limit:
            who = "your account" if ident.startswith("user:") else "your address"
            raise TooManyRequests(
                f"Too many {what}: at most {limit} {article} {per} from {who}. "
                f"Try again in {wait_text(wait)}.",
                retry_after=wait,
            )


# A refusal for too many jobs at once asks for this wait: a job takes seconds to a minute.
BUSY_RETRY_SECONDS = 30


def refuse_when_busy(
    *, active: int, limit: int, what: str, per: Literal["user", "address"] = "user"
) -> None:
    """Raise TooManyRequests when a user (or, `per="address"`, the client address, whatever
    its accounts) already has `limit` or more `what` ("simulations") waiting or running: the
    one refusal of every background job's per-user and per-address limit."""
    if active < limit:
        return
    if per == "user":
        holder, most = "You already have", "the most one user may have"
    else:
        holder, most = "Your address already has", "the most one address may have"
    raise TooManyRequests(
        f"{holder} {active} {what} waiting or running, {most} at a time ({limit}). "
        f"Try again in {BUSY_RETRY_SECONDS} seconds, when one of them has finished.",
        retry_after=BUSY_RETRY_SECONDS,
    )


def refuse_busy_jobs(
    *,
    waiting: QuerySet[Any],
    owner: dict[str, Any] | None,
    address: str,
    user_limit: int,
    address_limit: int,
    what: str,
) -> None:
    """Refuse a new background job past its user's limit (the `waiting` jobs matching `owner`,
    e.g. `{"owner_id": 7}`; None: no user), then past its address's (the `waiting` jobs
    `requested_from` it, whatever their accounts): the check every kind of job makes."""
    if owner is not None:
        refuse_when_busy(active=waiting.filter(**owner).count(), limit=user_limit, what=what)
    if address:
        active = waiting.filter(requested_from=address).count()
        refuse_when_busy(active=active, limit=address_limit, what=what, per="address")


# The longest address kept on a job (an IPv6 address with a zone fits).
ADDRESS_MAX_LENGTH = 64


def job_address(address: str) -> str:
    """The client address as a job keeps it, to count the address's jobs (see
    `lock_address`)."""
    return address[:ADDRESS_MAX_LENGTH]


def lock_address(address: str) -> None:
    """Inside a transaction: make the requests that count and queue jobs of one client
    address run one after another, so two at once cannot both pass its limit (the per-user
    limits lock the user's row for the same reason). PostgreSQL: a transaction-level advisory
    lock on the address; SQLite's IMMEDIATE transactions run one at a time already."""
    if not address or connection.vendor != "postgresql":
        return
    key = int.from_bytes(
        hashlib.sha256(b"jobs:" + address.encode()).digest()[:8], "big", signed=True
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


# -- logging in -------------------------------------------------------------------------------


def _pair_key(username: str, address: str) -> str:
    return f"login:pair:{_digest(username + chr(0) + address)}"


def _address_key(address: str, start: int) -> str:
    return f"login:address:{_digest(address)}:{start}"


def _window(now: float) -> tuple[int, int]:
    """The current window of the per-address count: (start, seconds)."""
    seconds = settings.LOGIN_LOCKOUT_MAX_SECONDS
    return int(now // seconds) * seconds, seconds


def _pair_delay(failures: int) -> int:
    """Seconds a pair waits after its `failures`-th failure: none for the first
    LOGIN_FREE_FAILURES, then 2, 4, 8, ... seconds, never more than LOGIN_LOCKOUT_MAX_SECONDS."""
    over = failures - settings.LOGIN_FREE_FAILURES
    if over <= 0:
        return 0
    return int(min(settings.LOGIN_LOCKOUT_MAX_SECONDS, 2 ** min(over, 30)))


def login_wait(*, username: str, address: str) -> TooManyRequests | None:
    """Whether a log-in attempt of `username` from `address` may check its password now; the
    refusal when not. Asking changes nothing: a refused attempt is not a failure."""
    now = _now()
    state = cache.get(_pair_key(username, address))
    if isinstance(state, dict):
        until = float(state.get("until", 0))
        if until > now:
            wait = math.ceil(until - now)
            return TooManyRequests(
                f"Too many failed log-ins for this account from your address "
                f"({int(state.get('failures', 0))} in a row). Try again in {wait} seconds; "
                f"the wait grows with each failure, up to "
                f"{settings.LOGIN_LOCKOUT_MAX_SECONDS} seconds.",
                retry_after=wait,
            )
    start, seconds = _window(now)
    failures = cache.get(_address_key(address, start), 0)
    if isinstance(failures, int) and failures >= settings.LOGIN_ADDRESS_FAILURES:
        wait = math.ceil(start + seconds - now)
        return TooManyRequests(
            f"Too many failed log-ins from your address: at most "
            f"{settings.LOGIN_ADDRESS_FAILURES} every {seconds} seconds, whatever the account. "
            f"Try again in {wait} seconds.",
            retry_after=wait,
        )
    return None


def login_failed(*, username: str, address: str) -> None:
    """Record a wrong password (or unknown username) from `address`: the pair's failures and
    its next wait, and the address's count for the current window."""
    now = _now()
    key = _pair_key(username, address)
    state = cache.get(key)
    failures = int(state.get("failures", 0)) + 1 if isinstance(state, dict) else 1
    cache.set(
        key,
        {"failures": failures, "until": now + _pair_delay(failures)},
        timeout=LOGIN_MEMORY_SECONDS,
    )
    start, seconds = _window(now)
    _count(_address_key(address, start), timeout=seconds + 5)


def login_succeeded(*, username: str, address: str) -> None:
    """A right password: the pair starts again from no failure (the address's count stays)."""
    cache.delete(_pair_key(username, address))
