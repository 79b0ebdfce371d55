import io
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command

from accounts import limits
from catalog.exports import registered_instead
from tests.exporters import StandIn, stand_in_class
from validator.engine import SetDocument, load_set_file

REPO = Path(__file__).resolve().parent.parent
FIXTURE_SETS = REPO / "fixtures" / "sets"
CORE_SET = FIXTURE_SETS / "munchkin-core.yaml"


@pytest.fixture(scope="session")
def core_set_path() -> Path:
    return CORE_SET


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """The real hasher is slow on purpose; tests make many users and prove nothing with it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_bulk_data_ahead(settings: Any) -> None:
    """Catalog changes queue no remaking of the bulk data files (tests/bulk turn it on):
    other tests' writes would otherwise start background work they never wait for."""
    settings.BULK_DATA_AHEAD = False


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """Rate-limit and lockout counters (the default cache) start empty in every test, as
    they would on a new server: one test's requests never count against another's."""
    cache.clear()


class StoppedClock:
    """The rate limits' clock, standing still mid-minute and mid-hour (a test may move it)."""

    HOUR_START = 1_699_999_200.0  # a whole hour since the epoch

    def __init__(self, now: float = HOUR_START + 30 * 60 + 30) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def stopped_rate_clock(monkeypatch: pytest.MonkeyPatch) -> StoppedClock:
    """The rate limits count in fixed windows (a minute, an hour): on the real clock, a test
    whose requests straddle the turn of a minute sees its count start again. A loaded machine
    makes that likely, so every test counts on a clock that stands still unless it moves it."""
    clock = StoppedClock()
    monkeypatch.setattr(limits, "_now", clock)
    return clock


# The two users of most tests: one who owns things, one who tries to reach them.
PASSWORD = "correct-horse-battery-9"


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password=PASSWORD)


@pytest.fixture(scope="session")
def core_set() -> SetDocument:
    return load_set_file(CORE_SET)


@pytest.fixture
def core_catalog(db: None) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())


@pytest.fixture
def stand_in() -> Iterator[Callable[..., type[StandIn]]]:
    """Register a stand-in exporter (tests/exporters.py) in place of the site's of an
    identifier: `stand_in("pack-json")` returns its class, whose `calls` record each render.
    After the test the registry is as it was."""
    with ExitStack() as stack:

        def register(identifier: str, **options: Any) -> type[StandIn]:
            made = stand_in_class(identifier, **options)
            stack.enter_context(registered_instead(made))
            return made

        yield register
