"""Who may open each proposal page and do each action, written by hand from issue 18's rules:

- proposing is for any signed-in user; anonymous users are sent to sign in (every page);
- a proposal exists only for its proposer and the curators of its set (staff, or members of
  the set's curator group): anyone else gets a 404, before anything else is checked;
- only a curator of its set decides (accept, reject, ask for changes): the proposer gets 403;
- only the proposer edits or withdraws: a curator (who can see it) gets 403;
- the review queue is for curators of any set: 403 for anyone else.

The proposal is alice's open correction to Generic Guy (Super Munchkin), with a photo."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from catalog.models import Card
from contributions.models import Proposal, ProposalStatus
from contributions.services import proposal_create
from tests.conftest import PASSWORD
from tests.contributions.conftest import jpeg_with_gps

ROLES = ("proposer", "other", "curator", "other_curator", "staff", "anonymous")
LOGIN = "login"  # a redirect to the sign-in page
DONE = "done"  # the action happened: a redirect back to the proposal

# (name, method, expected per role in ROLES order)
MATRIX: list[tuple[str, str, tuple[Any, ...]]] = [
    ("propose_new", "get", (200, 200, 200, 200, 200, LOGIN)),
    ("propose_change", "get", (200, 200, 200, 200, 200, LOGIN)),
    ("propose_preview", "post", (200, 200, 200, 200, 200, LOGIN)),
    ("proposal_list", "get", (200, 200, 200, 200, 200, LOGIN)),
    ("review_queue", "get", (403, 403, 200, 200, 200, LOGIN)),
    ("proposal_detail", "get", (200, 404, 200, 404, 200, LOGIN)),
    ("proposal_photo", "get", (200, 404, 200, 404, 200, LOGIN)),
    ("proposal_face", "get", (200, 404, 200, 404, 200, LOGIN)),
    ("proposal_edit", "get", (200, 404, 403, 404, 403, LOGIN)),
    ("proposal_withdraw", "post", (DONE, 404, 403, 404, 403, LOGIN)),
    ("proposal_accept", "post", (403, 404, DONE, 404, DONE, LOGIN)),
    ("proposal_reject", "post", (403, 404, DONE, 404, DONE, LOGIN)),
    ("proposal_request_changes", "post", (403, 404, DONE, 404, DONE, LOGIN)),
]

# What each successful action leaves the proposal as.
AFTER = {
    "proposal_withdraw": ProposalStatus.WITHDRAWN,
    "proposal_accept": ProposalStatus.ACCEPTED,
    "proposal_reject": ProposalStatus.REJECTED,
    "proposal_request_changes": ProposalStatus.CHANGES_REQUESTED,
}

CASES = [
    pytest.param(name, method, role, expected, id=f"{name}-{role}")
    for name, method, row in MATRIX
    for role, expected in zip(ROLES, row, strict=True)
]


@pytest.fixture
def proposal(proposer: User, generic_guy: Card) -> Proposal:
    return proposal_create(
        proposer=proposer,
        card_set=generic_guy.card_set,
        document={**generic_guy.document, "treasures": 2},
        evidence="My copy of the card.",
        card=generic_guy,
        photo=SimpleUploadedFile("card.jpg", jpeg_with_gps(), content_type="image/jpeg"),
    )


@pytest.fixture(autouse=True)
def private_media(settings: Any, tmp_path: Any) -> None:
    """Photos are written to a folder of the test's own, not the site's media."""
    settings.MEDIA_ROOT = tmp_path


def _url(name: str, proposal: Proposal, card: Card) -> str:
    code = card.card_set.code
    if name in ("propose_new", "propose_preview"):
        return reverse(f"contributions:{name}", args=[code])
    if name == "propose_change":
        return reverse("contributions:propose_change", args=[code, card.slug])
    if name in ("proposal_list", "review_queue"):
        return reverse(f"contributions:{name}")
    return reverse(f"contributions:{name}", args=[proposal.pk])


@pytest.mark.parametrize(("name", "method", "role", "expected"), CASES)
def test_who_may_do_what(
    request: pytest.FixtureRequest,
    proposal: Proposal,
    generic_guy: Card,
    name: str,
    method: str,
    role: str,
    expected: Any,
) -> None:
    client = Client()
    if role != "anonymous":
        user: User = request.getfixturevalue(role)
        assert client.login(username=user.username, password=PASSWORD)
    url = _url(name, proposal, generic_guy)
    data = {"note": "Checked against the rulebook."} if method == "post" else None
    response = client.post(url, data) if method == "post" else client.get(url)
    proposal.refresh_from_db()
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
    elif expected == DONE:
        assert response.status_code == 302
        assert response["Location"] == reverse("contributions:proposal_detail", args=[proposal.pk])
        assert proposal.status == AFTER[name]
    else:
        assert response.status_code == expected
    if expected != DONE:
        assert proposal.status == ProposalStatus.OPEN  # a refusal changes nothing


@pytest.mark.parametrize(
    "name", ["proposal_withdraw", "proposal_accept", "proposal_reject", "proposal_request_changes"]
)
def test_actions_are_post_only(proposal: Proposal, curator: User, name: str) -> None:
    client = Client()
    assert client.login(username=curator.username, password=PASSWORD)
    response = client.get(reverse(f"contributions:{name}", args=[proposal.pk]))
    assert response.status_code == 405


def test_actions_need_the_csrf_token(proposal: Proposal, curator: User) -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.login(username=curator.username, password=PASSWORD)
    response = client.post(reverse("contributions:proposal_accept", args=[proposal.pk]))
    assert response.status_code == 403
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.OPEN


def test_an_unknown_proposal_is_a_404_even_for_staff(staff: User, proposal: Proposal) -> None:
    client = Client()
    assert client.login(username=staff.username, password=PASSWORD)
    url = reverse("contributions:proposal_detail", args=[proposal.pk + 1000])
    assert client.get(url).status_code == 404
