"""The log-in lockout (accounts/limits.py, docs/security.md): per (username, address) pair an
exponential wait capped at LOGIN_LOCKOUT_MAX_SECONDS, per address a looser count, and never a
lockout that another address can impose on a user."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.auth.models import User
from django.test import Client, RequestFactory, override_settings

from accounts import limits
from tests.conftest import PASSWORD

LOGIN = "/accounts/login/"
ATTACKER = "203.0.113.7"
HOME = "198.51.100.20"


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(limits, "_now", clock)
    return clock


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every password the hasher checks (the CPU cost the lockout saves)."""
    seen: list[str] = []
    verify = MD5PasswordHasher.verify

    def spy(self: MD5PasswordHasher, password: str, encoded: str) -> bool:
        seen.append(password)
        return verify(self, password, encoded)

    monkeypatch.setattr(MD5PasswordHasher, "verify", spy)
    yield seen


def attempt(client: Client, password: str, *, address: str = ATTACKER, user: str = "alice") -> Any:
    return client.post(LOGIN, {"username": user, "password": password}, REMOTE_ADDR=address)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_a_hundred_wrong_passwords_lock_the_pair_and_the_right_one_waits(
    client: Client, alice: User, clock: Clock, hashed: list[str], settings: Any
) -> None:
    statuses = [attempt(client, f"guess-{n}").status_code for n in range(100)]
    free = settings.LOGIN_FREE_FAILURES
    # The free failures and the one that starts the first wait are checked; the rest wait.
    assert statuses[: free + 1] == [200] * (free + 1)
    assert set(statuses[free + 1 :]) == {429}
    assert len(hashed) == free + 1

    response = attempt(client, PASSWORD)
    assert response.status_code == 429
    assert not logged_in(client)
    assert len(hashed) == free + 1  # refused before any hashing
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= 2
    text = response.content.decode()
    assert "Too many failed log-ins for this account from your address" in text
    assert f"Try again in {retry_after} seconds" in text

    clock.now += retry_after
    response = attempt(client, PASSWORD)
    assert response.status_code == 302 and logged_in(client)


def test_the_wait_doubles_and_stops_at_the_cap(
    client: Client, alice: User, clock: Clock, settings: Any
) -> None:
    settings.LOGIN_FREE_FAILURES = 1
    settings.LOGIN_LOCKOUT_MAX_SECONDS = 30
    settings.LOGIN_ADDRESS_FAILURES = 1000
    waits = []
    for n in range(8):
        assert attempt(client, f"guess-{n}").status_code == 200
        refusal = limits.login_wait(username="alice", address=ATTACKER)
        waits.append(refusal.retry_after if refusal else 0)
        clock.now += waits[-1]
    assert waits == [0, 2, 4, 8, 16, 30, 30, 30]
    attempt(client, "one more")
    refused = attempt(client, "and another")
    assert refused.status_code == 429 and refused["Retry-After"] == "30"
    assert "up to 30 seconds" in refused.content.decode()


def test_an_attacker_elsewhere_does_not_lock_the_user_out(
    client: Client, alice: User, clock: Clock
) -> None:
    for n in range(30):
        attempt(client, f"guess-{n}")
    assert attempt(client, PASSWORD).status_code == 429
    home = Client()
    response = attempt(home, PASSWORD, address=HOME)
    assert response.status_code == 302 and logged_in(home)


def test_a_right_password_clears_the_pair(client: Client, alice: User, clock: Clock) -> None:
    for n in range(5):
        attempt(client, f"guess-{n}")
    assert attempt(client, PASSWORD).status_code == 302
    client.logout()
    for n in range(5):  # five free failures again
        assert attempt(client, f"guess-{n}").status_code == 200


def test_one_address_trying_many_usernames_is_stopped(
    client: Client, alice: User, clock: Clock, settings: Any
) -> None:
    settings.LOGIN_ADDRESS_FAILURES = 12
    for n in range(12):
        assert attempt(client, "guess", user=f"someone-{n}").status_code == 200
    response = attempt(client, PASSWORD)  # a fresh pair, but the address is spent
    assert response.status_code == 429
    text = response.content.decode()
    assert "at most 12 every 900 seconds, whatever the account" in text
    assert 1 <= int(response["Retry-After"]) <= 900
    assert attempt(Client(), PASSWORD, address=HOME).status_code == 302
    clock.now += int(response["Retry-After"])
    assert attempt(client, PASSWORD).status_code == 302


def test_the_admin_log_in_is_behind_the_same_lockout(
    client: Client, alice: User, clock: Clock
) -> None:
    User.objects.filter(pk=alice.pk).update(is_staff=True, is_superuser=True)
    for n in range(10):
        attempt(client, f"guess-{n}")
    response = client.post(
        "/admin/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR=ATTACKER
    )
    assert response.status_code == 200
    assert "Too many failed log-ins" in response.content.decode()
    assert not logged_in(client)


def test_the_forwarded_address_counts_only_behind_named_proxies() -> None:
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.9"
    )
    assert limits.client_address(request) == "10.0.0.1"
    with override_settings(NUM_PROXIES=1):
        assert limits.client_address(request) == "192.0.2.9"
    with override_settings(NUM_PROXIES=2):
        assert limits.client_address(request) == "6.6.6.6"
    with override_settings(NUM_PROXIES=5):
        assert limits.client_address(request) == "6.6.6.6"
