"""The API against its own OpenAPI schema (schemathesis): no 5xx, responses match the schema.

Every operation is called anonymously: reads answer with data, writes must answer 401 (never
500). The schema itself, its docs page and the PDF proxies (binary) are left out.
"""

from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from cardsite.wsgi import application
from tests.fuzz import load_core_catalog

# The slow tier (make test-slow, run by CI): fuzzing at full depth.
pytestmark = pytest.mark.slow

# Loaded when the module is collected: the schema is generated without the database.
schema = (
    schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    .exclude(path_regex=r"^/api/(schema|docs)/")
    .exclude(path="/api/proxies/")
)


# The operations that read the catalog; the others (writes, packs) answer 401 anonymously.
NEEDS_CATALOG = {
    ("GET", path)
    for path in (
        "/api/sets/",
        "/api/sets/{code}/",
        "/api/cards/",
        "/api/cards/{card_id}/",
        "/api/cards/named/",
        "/api/cards/autocomplete/",
    )
} | {
    ("POST", "/api/validate/"),
    ("POST", "/api/scenarios/run/"),
    ("POST", "/api/cards/collection/"),
}


@pytest.fixture
def catalog(transactional_db: None) -> Callable[[], None]:
    """Loads the core set once per operation that needs it (a second of work each).

    Transactional: the WSGI handler closes the connection after each request, which a test
    wrapped in one transaction would not survive."""
    loaded: list[bool] = []

    def ensure() -> None:
        if not loaded:
            load_core_catalog()
            loaded.append(True)

    return ensure


# Operations only a logged-in user may call.
AUTH_ONLY = {
    ("POST", "/api/sets/"),
    ("PATCH", "/api/sets/{code}/"),
    ("DELETE", "/api/sets/{code}/"),
    ("POST", "/api/cards/"),
    ("PATCH", "/api/cards/{card_id}/"),
    ("DELETE", "/api/cards/{card_id}/"),
    ("POST", "/api/packs/"),
    ("GET", "/api/packs/{pack_id}/"),
    ("POST", "/api/packs/{pack_id}/tts/"),
    ("GET", "/api/packs/{pack_id}/tts/{export_id}/"),
    ("GET", "/api/packs/{pack_id}/tts/{export_id}/download.zip"),
    ("GET", "/api/packs/{pack_id}/tts/{export_id}/saved-object.json"),
    ("POST", "/api/packs/{pack_id}/tts/{export_id}/link/"),
    # Proposals (contributions/api.py): every one of them needs a user.
    ("POST", "/api/sets/{code}/proposals/"),
    ("GET", "/api/proposals/"),
    ("GET", "/api/proposals/{proposal_id}/"),
    ("PATCH", "/api/proposals/{proposal_id}/"),
    ("POST", "/api/proposals/{proposal_id}/accept/"),
    ("POST", "/api/proposals/{proposal_id}/reject/"),
    ("POST", "/api/proposals/{proposal_id}/request-changes/"),
    ("POST", "/api/proposals/{proposal_id}/withdraw/"),
}


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_matches_its_schema(
    case: schemathesis.Case[Any], catalog: Callable[[], None]
) -> None:
    operation = (case.operation.method.upper(), case.operation.path)
    if operation in NEEDS_CATALOG:
        catalog()
    cache.clear()  # validate and scenarios/run are throttled per address
    response = case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])
    if operation in AUTH_ONLY and case.method.upper() != "OPTIONS":
        # Anonymous: 401. A path parameter the URL pattern refuses (a negative id, say) falls
        # through to the catch-all /api/ view: the JSON 404. An empty one can make the path
        # another endpoint's (/api/packs/ takes POST only): 405.
        assert response.status_code in (401, 404, 405), (case.method, response.status_code)
