"""The health check: one query, a tiny JSON answer, never cached, the same signed in or not."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_health_check_answers_ok_after_one_query(
    alice: User, signed_in: bool, django_assert_num_queries: Any
) -> None:
    client = Client()
    if signed_in:
        # A session cookie must not cost a session or user lookup.
        client.force_login(alice)
    with django_assert_num_queries(1):
        response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert len(response.content) < 40
    assert "no-store" in response["Cache-Control"]


def test_the_health_check_only_reads() -> None:
    assert Client().post("/healthz/").status_code == 405
    assert Client().head("/healthz/").status_code == 200
