"""Password guessing on the log-in page (issue 15, item 8), with the real password hasher."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.test import override_settings

from tests.abuse.conftest import Probed

# The slow tier (make test-slow, run by CI): each hostile request runs in a bounded child process.
pytestmark = pytest.mark.slow

PASSWORD = "correct-horse-battery-9"
ATTACKER = "203.0.113.7"
DEFAULT_FREE_FAILURES = 5  # LOGIN_FREE_FAILURES as the child process reads it


@pytest.fixture
def victim(probe: Callable[..., Probed]) -> User:
    # Stored with the site's real hasher (the tests' fast one is unknown to the child).
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        hashed = make_password(PASSWORD)
    return User.objects.create(username="victim", password=hashed)


def login(password: str) -> dict[str, Any]:
    return {
        "method": "POST",
        "path": "/accounts/login/",
        "data": {"username": "victim", "password": password},
        "remote_addr": ATTACKER,
    }


def test_the_right_password_after_a_hundred_wrong_ones_is_refused(
    probe: Callable[..., Probed], victim: User
) -> None:
    """The reproduction: 100 wrong passwords in a row, then the right one, which logged in."""
    answer = probe({**login(PASSWORD), "before": [login(f"guess-{n}") for n in range(100)]})
    assert answer.status == 429, answer
    assert answer.within_budget(), answer
    assert answer.retry_after is not None and int(answer.retry_after) >= 1
    assert "Too many failed log-ins for this account from your address" in answer.body
    assert f"Try again in {answer.retry_after} seconds" in answer.body


def test_guesses_during_the_lockout_cost_no_hashing(
    probe: Callable[..., Probed], victim: User
) -> None:
    """Once the pair waits, a guess is refused before the hasher runs: 94 of them together
    cost less than the budget of one request (each real check is a fraction of a second)."""
    answer = probe(
        {
            **login("guess"),
            "before": [login(f"guess-{n}") for n in range(DEFAULT_FREE_FAILURES + 1)],
            "repeat": 94,
        }
    )
    assert answer.statuses == [429] * 94, answer
    assert answer.within_budget(), answer
