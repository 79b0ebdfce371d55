"""Who may do what on the proposals API: anonymous, the proposer, another user, a curator of
the proposal's set (its group), a curator of another set, and staff, on every endpoint.

The table is written by hand from issue 18's rules: anyone signed in may propose; a proposal
exists only for its proposer and the set's curators (404 for everyone else, so a stranger
never learns of it or reads its evidence); only curators decide (403 for the proposer), only
the proposer withdraws (403 for a curator); a request without a user is 401. Every cell runs
on a fresh proposal and checks both the answer and whether the write happened."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from catalog.models import Card, CardSet
from contributions.models import Proposal, ProposalStatus
from contributions.services import proposal_create

ROLES = ("anonymous", "proposer", "other", "curator", "other_curator", "staff")


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str  # {id}: the proposal's id
    body: dict[str, Any]
    # The proposal's status after a success (None: the endpoint does not change it).
    done: str | None
    expect: dict[str, int]


DECIDE = {
    "anonymous": 401,
    "proposer": 403,
    "other": 404,
    "curator": 200,
    "other_curator": 404,
    "staff": 200,
}
READ = {
    "anonymous": 401,
    "proposer": 200,
    "other": 404,
    "curator": 200,
    "other_curator": 404,
    "staff": 200,
}

ENDPOINTS = [
    Endpoint("detail", "get", "/api/proposals/{id}/", {}, None, READ),
    Endpoint(
        "list",
        "get",
        "/api/proposals/",
        {},
        None,
        {role: 401 if role == "anonymous" else 200 for role in ROLES},
    ),
    Endpoint("accept", "post", "/api/proposals/{id}/accept/", {}, "accepted", DECIDE),
    Endpoint(
        "reject",
        "post",
        "/api/proposals/{id}/reject/",
        {"reason": "The printed card says otherwise."},
        "rejected",
        DECIDE,
    ),
    Endpoint(
        "request-changes",
        "post",
        "/api/proposals/{id}/request-changes/",
        {"message": "Please add a photo."},
        "changes_requested",
        DECIDE,
    ),
    Endpoint(
        "update",
        "patch",
        "/api/proposals/{id}/",
        {"effects": None, "evidence": "My copy, looked at again."},  # effects: see the test
        "open",
        {
            "anonymous": 401,
            "proposer": 200,
            "other": 404,
            "curator": 403,
            "other_curator": 404,
            "staff": 403,
        },
    ),
    Endpoint(
        "withdraw",
        "post",
        "/api/proposals/{id}/withdraw/",
        {},
        "withdrawn",
        {
            "anonymous": 401,
            "proposer": 200,
            "other": 404,
            "curator": 403,
            "other_curator": 404,
            "staff": 403,
        },
    ),
]

# Whose proposals each role lists (of the one proposal alice made).
LISTS_IT = {
    "proposer": True,
    "other": False,
    "curator": True,
    "other_curator": False,
    "staff": True,
}


@pytest.fixture
def people(
    proposer: User, other: User, curator: User, other_curator: User, staff: User
) -> dict[str, User | None]:
    return {
        "anonymous": None,
        "proposer": proposer,
        "other": other,
        "curator": curator,
        "other_curator": other_curator,
        "staff": staff,
    }


@pytest.fixture
def client_as(people: dict[str, User | None]) -> Callable[[str], APIClient]:
    def make(role: str) -> APIClient:
        client = APIClient()
        user = people[role]
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def proposal(proposer: User, generic_guy: Card) -> Proposal:
    return proposal_create(
        proposer=proposer,
        card_set=generic_guy.card_set,
        card=generic_guy,
        document={**generic_guy.document, "treasures": 2},
        evidence="My copy of the card.",
    )


CELLS = [(endpoint, role) for endpoint in ENDPOINTS for role in ROLES]


@pytest.mark.parametrize(("endpoint", "role"), CELLS, ids=[f"{e.name}-{r}" for e, r in CELLS])
def test_proposal_endpoints(
    endpoint: Endpoint,
    role: str,
    proposal: Proposal,
    client_as: Callable[[str], APIClient],
) -> None:
    client = client_as(role)
    url = endpoint.path.format(id=proposal.pk)
    call = getattr(client, endpoint.method)
    body = dict(endpoint.body)
    if "effects" in body:  # the proposer's new version: Treasures 3 instead of 2
        body["effects"] = {**proposal.document, "treasures": 3}
    response = call(url, body, format="json") if endpoint.method != "get" else call(url)
    expected = endpoint.expect[role]
    assert response.status_code == expected, (endpoint.name, role, response.content)
    answer = response.json()
    proposal.refresh_from_db()
    if expected >= 400:
        assert answer["object"] == "error" and answer["status"] == expected
        assert "evidence" not in response.content.decode()
        assert proposal.status == ProposalStatus.OPEN  # nothing was written
        assert proposal.reviewed_by is None
        assert proposal.document["treasures"] == 2 and proposal.evidence == "My copy of the card."
        return
    if endpoint.done is not None:
        assert proposal.status == endpoint.done and answer["status"] == endpoint.done
    else:
        assert proposal.status == ProposalStatus.OPEN
    if endpoint.name == "list":
        assert [item["id"] for item in answer["data"]] == ([proposal.pk] if LISTS_IT[role] else [])
    elif endpoint.name == "detail":
        assert answer["evidence"] == "My copy of the card."
    elif endpoint.name == "update":
        assert proposal.document["treasures"] == 3 and answer["effects"]["treasures"] == 3
        assert proposal.evidence == "My copy, looked at again."


@pytest.mark.parametrize("role", ROLES)
def test_proposing(
    role: str, super_catalog: CardSet, generic_guy: Card, client_as: Callable[[str], APIClient]
) -> None:
    """Anyone signed in proposes (curators and staff too); anonymous is 401."""
    response = client_as(role).post(
        f"/api/sets/{super_catalog.code}/proposals/",
        {
            "card": generic_guy.pk,
            "effects": {**generic_guy.document, "treasures": 2},
            "evidence": "My copy of the card.",
        },
        format="json",
    )
    expected = 401 if role == "anonymous" else 201
    assert response.status_code == expected, response.content
    assert Proposal.objects.count() == (0 if role == "anonymous" else 1)
    if role == "anonymous":
        assert response["WWW-Authenticate"] == "Token"
