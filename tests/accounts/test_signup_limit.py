"""The sign-up limit (accounts/services.py `user_sign_up`, docs/security.md "Fairness"): at most
SIGNUPS_PER_HOUR new accounts from one client address an hour, refused with a 429, Retry-After
and the reason at the form, and nothing made."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD, StoppedClock

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"
FLOODER = "203.0.113.7"
NEIGHBOUR = "198.51.100.20"


def sign_up(username: str, *, address: str = FLOODER, password: str = PASSWORD) -> Any:
    """One sign-up from a fresh browser (a signed-up one is logged in and sent away)."""
    return Client(REMOTE_ADDR=address).post(
        SIGNUP, {"username": username, "password1": password, "password2": password}
    )


def test_one_address_gets_its_hourly_accounts_then_a_429_at_the_form_and_no_account() -> None:
    limit = settings.SIGNUPS_PER_HOUR
    for n in range(limit):
        assert sign_up(f"fresh{n}").status_code == 302
    assert User.objects.count() == limit

    refused = sign_up("one-too-many")
    assert refused.status_code == 429
    # The stopped clock stands 30 min 30 s into its hour: the count starts again in 1,770 s.
    assert refused["Retry-After"] == "1770"
    assert refused.templates[0].name == "accounts/signup.html"
    form = refused.context["form"]
    message = (
        f"Too many new accounts: at most {limit} an hour from your address. "
        "Try again in 30 minutes."
    )
    assert form.non_field_errors() == [message]
    assert message in refused.content.decode()
    # The refusal changed nothing: no account, nobody logged in.
    assert not User.objects.filter(username="one-too-many").exists()
    assert User.objects.count() == limit
    assert SESSION_KEY not in refused.wsgi_request.session


def test_the_count_is_per_address_and_starts_again_the_next_hour(
    stopped_rate_clock: StoppedClock,
) -> None:
    limit = settings.SIGNUPS_PER_HOUR
    for n in range(limit):
        sign_up(f"fresh{n}")
    assert sign_up("late").status_code == 429
    # Another address is not held back by the flood.
    assert sign_up("neighbour", address=NEIGHBOUR).status_code == 302
    stopped_rate_clock.now += 30 * 60
    assert sign_up("late").status_code == 302
    assert User.objects.filter(username__in=["neighbour", "late"]).count() == 2


def test_only_sign_ups_that_make_an_account_count() -> None:
    # Forms with an error (a weak password here) make nothing and use none of the hour's count.
    for n in range(settings.SIGNUPS_PER_HOUR + 5):
        assert sign_up(f"typo{n}", password="password").status_code == 200
    assert User.objects.count() == 0
    for n in range(settings.SIGNUPS_PER_HOUR):
        assert sign_up(f"fresh{n}").status_code == 302
    assert sign_up("one-too-many").status_code == 429


def test_behind_a_proxy_the_client_address_counts(settings: Any) -> None:
    settings.NUM_PROXIES = 1
    proxy = "10.0.0.2"

    def through_proxy(username: str, client_address: str) -> Any:
        return Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=client_address).post(
            SIGNUP, {"username": username, "password1": PASSWORD, "password2": PASSWORD}
        )

    for n in range(settings.SIGNUPS_PER_HOUR):
        assert through_proxy(f"fresh{n}", FLOODER).status_code == 302
    assert through_proxy("late", FLOODER).status_code == 429
    # The proxy's own address is shared by every client behind it: another client signs up.
    assert through_proxy("neighbour", NEIGHBOUR).status_code == 302
