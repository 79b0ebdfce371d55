"""The proposals API against its own OpenAPI schema, as a signed-in curator (by token) who
also proposes: whatever schemathesis sends, no 5xx, and every answer matches the schema.

tests/fuzz/test_schemathesis.py calls these operations anonymously (all 401); this file is
where their bodies and parameters are really read."""

import io
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from accounts.models import ApiToken, new_token_key, token_digest
from cardsite.wsgi import application
from catalog.models import Card
from contributions.services import proposal_create
from tests.contributions.conftest import SUPER_SET

# The slow tier (make test-slow, run by CI): fuzzing at full depth.
pytestmark = pytest.mark.slow

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    path_regex=r"proposals"
)


@pytest.fixture
def token(transactional_db: None) -> Callable[[], str]:
    """Super Munchkin, a staff member's token (a curator of every official set) and one of
    their proposals (id 1 on a fresh database), made once per operation."""
    made: list[str] = []

    def ensure() -> str:
        if not made:
            call_command("load_catalog", str(SUPER_SET), stdout=io.StringIO())
            user = User.objects.create_user("fuzz", is_staff=True)
            key = new_token_key()
            ApiToken.objects.create(user=user, name="fuzz", digest=token_digest(key), hint=key[:8])
            card = Card.objects.get(name="Generic Guy")
            proposal_create(
                proposer=user,
                card_set=card.card_set,
                card=card,
                document={**card.document, "treasures": 2},
                evidence="fuzz",
            )
            made.append(key)
        return made[0]

    return ensure


@schema.parametrize()
@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_proposals_api_matches_its_schema(
    case: schemathesis.Case[Any], token: Callable[[], str]
) -> None:
    key = token()
    cache.clear()  # the hourly proposal limit and the write throttle
    response = case.call_and_validate(
        headers={"Authorization": f"Token {key}"},
        checks=[not_a_server_error, response_schema_conformance],
    )
    assert response.status_code != 401, response.text
