"""Who sees which proposal, the curators' queue, and what a review shows."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from catalog.models import Card, CardSet
from catalog.services import card_update
from contributions.models import Proposal
from contributions.selectors import (
    curated_sets,
    is_curator,
    proposal_face,
    proposal_get,
    proposal_list,
    proposal_review,
    review_queue,
    user_proposals,
)
from contributions.services import proposal_create, proposal_reject

pytestmark = pytest.mark.django_db

Change = Callable[[Card, int], dict[str, Any]]


@pytest.fixture
def proposal(proposer: User, generic_guy: Card, with_treasures: Change) -> Proposal:
    return proposal_create(
        proposer=proposer,
        card_set=generic_guy.card_set,
        card=generic_guy,
        document=with_treasures(generic_guy, 4),
        evidence="Seen on my own copy.",
    )


# Who may open a proposal: its proposer and the curators of its set (staff curate every
# official set); a stranger, the curator of another set and an anonymous visitor may not.
SEES = {
    "proposer": True,
    "curator": True,
    "staff": True,
    "other": False,
    "other_curator": False,
    "anonymous": False,
}


@pytest.mark.parametrize(("who", "sees"), SEES.items())
def test_who_sees_a_proposal(
    request: pytest.FixtureRequest, proposal: Proposal, who: str, sees: bool
) -> None:
    viewer = AnonymousUser() if who == "anonymous" else request.getfixturevalue(who)
    found = proposal_get(proposal_id=proposal.pk, viewer=viewer)
    assert (found is not None) is sees
    listed = list(proposal_list(viewer=viewer))
    assert (proposal in listed) is sees


def test_curators_and_their_sets(
    super_catalog: CardSet,
    other_official_set: CardSet,
    curator: User,
    other_curator: User,
    staff: User,
    other: User,
) -> None:
    assert list(curated_sets(viewer=curator)) == [super_catalog]
    assert list(curated_sets(viewer=other_curator)) == [other_official_set]
    assert set(curated_sets(viewer=staff)) == {super_catalog, other_official_set}
    assert list(curated_sets(viewer=other)) == []
    assert is_curator(viewer=curator, card_set=super_catalog)
    assert not is_curator(viewer=curator, card_set=other_official_set)
    curator.is_active = False
    assert not is_curator(viewer=curator, card_set=super_catalog)


def test_the_queue_holds_open_proposals_of_curated_sets_oldest_first(
    proposal: Proposal, proposer: User, curator: User, other_curator: User, generic_guy: Card
) -> None:
    later = proposal_create(
        proposer=proposer,
        card_set=generic_guy.card_set,
        card=generic_guy,
        document={**generic_guy.document, "treasures": 5},
        evidence="A second look.",
    )
    assert list(review_queue(viewer=curator)) == [proposal, later]
    assert list(review_queue(viewer=other_curator)) == []
    assert list(review_queue(viewer=proposer)) == []  # not a curator: no queue
    proposal_reject(proposal=later, curator=curator, reason="Duplicate of the first.")
    assert list(review_queue(viewer=curator)) == [proposal]
    assert list(review_queue(viewer=curator, status="rejected")) == [later]
    assert list(review_queue(viewer=curator, set_code="munchkin-core")) == []
    assert list(user_proposals(user=proposer)) == [later, proposal]


def test_a_review_shows_the_change_the_face_and_the_report(proposal: Proposal) -> None:
    review = proposal_review(proposal=proposal)
    assert review.changed_fields == ["treasures"]
    assert any(line.kind == "add" and "treasures: 4" in line.text for line in review.diff)
    assert any(line.kind == "del" and "treasures: null" in line.text for line in review.diff)
    assert not review.stale and review.three_way is None
    face = proposal_face(proposal=proposal)
    assert face is not None and face.startswith(b"\x89PNG")
    # Generic Guy is text-only in the fixture: the validator warns that it is not encoded.
    assert review.status == "warn"
    assert any("not encoded" in message for message in review.messages)
    assert review.duplicates == []


def test_a_stale_review_shows_the_three_documents(
    proposal: Proposal, staff: User, generic_guy: Card
) -> None:
    card_update(
        card=generic_guy,
        actor=staff,
        document={**generic_guy.document, "treasures": 3},
        base_revision=generic_guy.revision,
    )
    fresh = proposal_get(proposal_id=proposal.pk, viewer=staff)
    assert fresh is not None
    review = proposal_review(proposal=fresh)
    assert review.stale
    assert review.three_way is not None
    [row] = review.three_way.conflicts
    assert (row.key, row.base, row.current, row.proposed) == ("treasures", None, 3, 4)


def test_new_card_proposals_of_the_same_name_are_flagged(
    proposer: User, other: User, super_catalog: CardSet
) -> None:
    document = {
        "name": "Doctor Test Pattern",
        "deck": "door",
        "kind": "monster",
        "level": 6,
        "treasures": 2,
        "notes": "A villain invented for this test.",
        "encoding": {"status": "text_only", "reason": "made up"},
    }
    first = proposal_create(
        proposer=proposer, card_set=super_catalog, document=document, evidence="box"
    )
    second = proposal_create(
        proposer=other,
        card_set=super_catalog,
        document={**document, "name": "doctor test pattern"},
        evidence="box",
    )
    assert proposal_review(proposal=first).duplicates == [second]
    assert proposal_review(proposal=second).duplicates == [first]
