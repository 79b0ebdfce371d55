"""Proposals made, edited and decided through the services, on a real database."""

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from accounts.limits import TooManyRequests
from catalog.models import Card, CardRevision, CardSet, Visibility
from catalog.services import card_update
from contributions.models import Proposal, ProposalStatus
from contributions.services import (
    PROPOSALS_PER_HOUR,
    ProposalClosed,
    ProposalConflict,
    ProposalInvalid,
    ProposalStale,
    proposal_accept,
    proposal_create,
    proposal_reject,
    proposal_request_changes,
    proposal_update,
    proposal_withdraw,
)
from validator.engine import CardDocumentError

pytestmark = pytest.mark.django_db

Change = Callable[[Card, int], dict[str, Any]]
EVIDENCE = "My copy of Super Munchkin: the card shows 4 Treasures."


def _propose(proposer: User, card: Card, document: dict[str, Any], **extra: Any) -> Proposal:
    return proposal_create(
        proposer=proposer,
        card_set=card.card_set,
        card=card,
        document=document,
        evidence=EVIDENCE,
        **extra,
    )


def test_a_change_stores_the_base_revision_and_the_engine_dump(
    proposer: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    assert proposal.status == ProposalStatus.OPEN
    assert proposal.base_revision == generic_guy.revision
    assert proposal.base_document == generic_guy.document
    assert proposal.document["treasures"] == 4
    assert proposal.name == "Generic Guy"
    # Nothing changes on the card until a curator accepts.
    generic_guy.refresh_from_db()
    assert generic_guy.treasures is None


def test_the_photo_is_stored_without_its_exif_and_gps(
    proposer: User, generic_guy: Card, with_treasures: Change, gps_photo: SimpleUploadedFile
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4), photo=gps_photo)
    with proposal.photo.open("rb") as stored:
        data = stored.read()
    assert b"Exif" not in data
    assert b"PhoneMaker" not in data
    with Image.open(io.BytesIO(data)) as image:
        assert dict(image.getexif()) == {}
        assert image.size == (64, 48)
    # The stored name says nothing of the upload's.
    assert "card" not in str(proposal.photo.name).rsplit("/", 1)[-1]


def test_a_photo_over_the_art_limits_is_refused_and_nothing_is_stored(
    proposer: User, generic_guy: Card, with_treasures: Change, settings: Any
) -> None:
    settings.ART_MAX_PIXELS = 100
    image = io.BytesIO()
    Image.new("RGB", (20, 20)).save(image, format="PNG")
    upload = SimpleUploadedFile("big.png", image.getvalue(), content_type="image/png")
    with pytest.raises(ProposalInvalid) as refused:
        _propose(proposer, generic_guy, with_treasures(generic_guy, 4), photo=upload)
    assert refused.value.field == "photo"
    assert "20x20" in refused.value.message
    assert Proposal.objects.count() == 0


def test_a_file_that_is_not_an_image_is_refused(
    proposer: User, generic_guy: Card, with_treasures: Change
) -> None:
    upload = SimpleUploadedFile("card.jpg", b"not a picture at all", content_type="image/jpeg")
    with pytest.raises(ProposalInvalid, match="could not be read"):
        _propose(proposer, generic_guy, with_treasures(generic_guy, 4), photo=upload)


def test_a_document_that_does_not_parse_names_the_path_and_the_nearest_word(
    proposer: User, generic_guy: Card
) -> None:
    document = {**generic_guy.document, "kind": "monstr"}
    with pytest.raises(CardDocumentError) as refused:
        _propose(proposer, generic_guy, document)
    [error] = refused.value.errors
    assert error.path == "kind"
    assert "monster" in error.message
    assert Proposal.objects.count() == 0


@pytest.mark.parametrize(
    ("evidence", "word"), [("", "say where"), ("   ", "say where"), ("x" * 2001, "2001")]
)
def test_evidence_is_required_and_bounded(
    proposer: User, generic_guy: Card, with_treasures: Change, evidence: str, word: str
) -> None:
    with pytest.raises(ProposalInvalid) as refused:
        proposal_create(
            proposer=proposer,
            card_set=generic_guy.card_set,
            card=generic_guy,
            document=with_treasures(generic_guy, 4),
            evidence=evidence,
        )
    assert refused.value.field == "evidence"
    assert word in refused.value.message


def test_a_proposal_that_changes_nothing_is_refused(proposer: User, generic_guy: Card) -> None:
    with pytest.raises(ProposalInvalid, match="changes nothing"):
        _propose(proposer, generic_guy, dict(generic_guy.document))


def test_an_anonymous_user_cannot_propose(generic_guy: Card, with_treasures: Change) -> None:
    with pytest.raises(PermissionDenied):
        _propose(AnonymousUser(), generic_guy, with_treasures(generic_guy, 4))  # type: ignore[arg-type]


@pytest.mark.parametrize("visibility", [Visibility.PUBLIC, Visibility.PRIVATE])
def test_custom_sets_take_no_proposals(proposer: User, bob: User, visibility: str) -> None:
    custom = CardSet.objects.create(
        code="bob-set", name="Bob's", official=False, owner=bob, visibility=visibility
    )
    with pytest.raises(ProposalInvalid) as refused:
        proposal_create(
            proposer=proposer,
            card_set=custom,
            document={"name": "X", "deck": "door", "kind": "curse", "encoding": {"status": "full"}},
            evidence=EVIDENCE,
        )
    assert refused.value.field == "set"


def test_a_card_of_another_set_is_refused(
    proposer: User, generic_guy: Card, other_official_set: CardSet, with_treasures: Change
) -> None:
    with pytest.raises(ProposalInvalid) as refused:
        proposal_create(
            proposer=proposer,
            card_set=other_official_set,
            card=generic_guy,
            document=with_treasures(generic_guy, 4),
            evidence=EVIDENCE,
        )
    assert refused.value.field == "card"


def test_an_unknown_base_revision_is_refused(
    proposer: User, generic_guy: Card, with_treasures: Change
) -> None:
    with pytest.raises(ProposalInvalid) as refused:
        _propose(proposer, generic_guy, with_treasures(generic_guy, 4), base_revision=99)
    assert refused.value.field == "base_revision"


NEW_CARD = {
    "name": "Doctor Test Pattern",
    "deck": "door",
    "kind": "monster",
    "copies": 1,
    "level": 8,
    "treasures": 2,
    "notes": "A villain whose touch rusts your gear; the rest of the card is not known yet.",
    "encoding": {"status": "text_only", "reason": "its text is not known yet"},
}


def test_a_new_card_named_like_an_existing_one_is_refused(
    proposer: User, super_catalog: CardSet
) -> None:
    with pytest.raises(ProposalInvalid) as refused:
        proposal_create(
            proposer=proposer,
            card_set=super_catalog,
            document={**NEW_CARD, "name": "generic guy"},
            evidence=EVIDENCE,
        )
    assert refused.value.field == "name"
    assert "Generic Guy" in refused.value.message


def test_accepting_records_proposer_curator_and_evidence_on_a_new_revision(
    proposer: User, curator: User, generic_guy: Card, with_treasures: Change
) -> None:
    before = generic_guy.revision
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    accepted = proposal_accept(proposal=proposal, curator=curator)
    generic_guy.refresh_from_db()
    assert generic_guy.revision == before + 1
    assert generic_guy.treasures == 4
    revision = CardRevision.objects.get(card=generic_guy, number=before + 1)
    assert revision.changed_by == curator
    assert revision.proposed_by == proposer
    assert revision.evidence == EVIDENCE
    assert revision.source == f"proposal #{proposal.pk}"
    assert accepted.status == ProposalStatus.ACCEPTED
    assert accepted.reviewed_by == curator
    assert accepted.accepted_revision == revision


def test_accepting_a_new_card_adds_it_to_the_set(
    proposer: User, staff: User, super_catalog: CardSet
) -> None:
    proposal = proposal_create(
        proposer=proposer, card_set=super_catalog, document=NEW_CARD, evidence=EVIDENCE
    )
    proposal_accept(proposal=proposal, curator=staff)
    card = Card.objects.get(card_set=super_catalog, name="Doctor Test Pattern")
    assert (card.level, card.treasures, card.revision) == (8, 2, 1)
    assert card.revisions.get().proposed_by == proposer


@pytest.mark.parametrize("who", ["proposer", "other", "other_curator"])
def test_only_curators_of_the_set_accept_reject_or_ask(
    request: pytest.FixtureRequest, who: str, generic_guy: Card, with_treasures: Change
) -> None:
    proposer = User.objects.create_user("pat")
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    actor: User = proposer if who == "proposer" else request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        proposal_accept(proposal=proposal, curator=actor)
    with pytest.raises(PermissionDenied):
        proposal_reject(proposal=proposal, curator=actor, reason="no")
    with pytest.raises(PermissionDenied):
        proposal_request_changes(proposal=proposal, curator=actor, message="why")
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.OPEN
    generic_guy.refresh_from_db()
    assert generic_guy.treasures is None


def test_a_stale_proposal_needs_a_fresh_review_and_keeps_the_newer_revision(
    proposer: User, curator: User, staff: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    newer = {**generic_guy.document, "notes": "A newer note from another edit."}
    card_update(card=generic_guy, actor=staff, document=newer, base_revision=generic_guy.revision)
    generic_guy.refresh_from_db()
    current = generic_guy.revision
    assert proposal.card is not None
    proposal.card.refresh_from_db()
    assert proposal.is_stale
    with pytest.raises(ProposalStale) as stale:
        proposal_accept(proposal=proposal, curator=curator)
    assert stale.value.current_revision == current
    with pytest.raises(ProposalStale):
        proposal_accept(proposal=proposal, curator=curator, reviewed_revision=current - 1)
    generic_guy.refresh_from_db()
    assert generic_guy.revision == current  # nothing written by the refusals
    proposal_accept(proposal=proposal, curator=curator, reviewed_revision=current)
    generic_guy.refresh_from_db()
    assert generic_guy.treasures == 4
    assert generic_guy.document["notes"] == "A newer note from another edit."
    assert generic_guy.revision == current + 1


def test_a_stale_proposal_that_conflicts_writes_nothing(
    proposer: User, curator: User, staff: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    card_update(
        card=generic_guy,
        actor=staff,
        document=with_treasures(generic_guy, 3),
        base_revision=generic_guy.revision,
    )
    generic_guy.refresh_from_db()
    with pytest.raises(ProposalConflict) as conflict:
        proposal_accept(proposal=proposal, curator=curator, reviewed_revision=generic_guy.revision)
    assert [row.key for row in conflict.value.conflicts] == ["treasures"]
    revision = generic_guy.revision
    generic_guy.refresh_from_db()
    assert (generic_guy.treasures, generic_guy.revision) == (3, revision)
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.OPEN


def test_a_reviewed_revision_older_than_the_card_is_refused_even_when_not_stale(
    proposer: User, curator: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    with pytest.raises(ProposalStale):
        proposal_accept(
            proposal=proposal, curator=curator, reviewed_revision=generic_guy.revision + 1
        )


def test_reject_needs_a_reason_and_is_final(
    proposer: User, curator: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    with pytest.raises(ProposalInvalid) as refused:
        proposal_reject(proposal=proposal, curator=curator, reason="  ")
    assert refused.value.field == "reason"
    rejected = proposal_reject(proposal=proposal, curator=curator, reason="The photo is blurry.")
    assert (rejected.status, rejected.review_note) == ("rejected", "The photo is blurry.")
    with pytest.raises(ProposalClosed):
        proposal_accept(proposal=proposal, curator=curator)
    with pytest.raises(ProposalClosed):
        proposal_withdraw(proposal=proposal, actor=proposer)


def test_changes_asked_then_made_put_the_proposal_back_in_the_queue(
    proposer: User, curator: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    asked = proposal_request_changes(
        proposal=proposal, curator=curator, message="Add the photo of the card's back."
    )
    assert asked.status == ProposalStatus.CHANGES_REQUESTED
    with pytest.raises(ProposalClosed):  # waiting for the proposer, not for review
        proposal_accept(proposal=proposal, curator=curator)
    with pytest.raises(PermissionDenied):
        proposal_update(
            proposal=proposal,
            actor=curator,
            document=with_treasures(generic_guy, 5),
            evidence=EVIDENCE,
        )
    updated = proposal_update(
        proposal=proposal,
        actor=proposer,
        document=with_treasures(generic_guy, 5),
        evidence=EVIDENCE + " Photo of the back added.",
    )
    assert (updated.status, updated.document["treasures"]) == ("open", 5)
    proposal_accept(proposal=updated, curator=curator)
    generic_guy.refresh_from_db()
    assert generic_guy.treasures == 5


def test_withdraw_is_the_proposers_own(
    proposer: User, other: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    with pytest.raises(PermissionDenied):
        proposal_withdraw(proposal=proposal, actor=other)
    assert proposal_withdraw(proposal=proposal, actor=proposer).status == "withdrawn"


def test_accepting_a_duplicate_new_card_after_the_first_is_a_conflict(
    proposer: User, other: User, curator: User, super_catalog: CardSet
) -> None:
    first = proposal_create(
        proposer=proposer, card_set=super_catalog, document=NEW_CARD, evidence=EVIDENCE
    )
    second = proposal_create(
        proposer=other, card_set=super_catalog, document=NEW_CARD, evidence=EVIDENCE
    )
    proposal_accept(proposal=first, curator=curator)
    with pytest.raises(ProposalConflict, match="now has a card named"):
        proposal_accept(proposal=second, curator=curator)
    assert Card.objects.filter(card_set=super_catalog, name="Doctor Test Pattern").count() == 1


def test_proposals_per_hour_are_limited(proposer: User, super_catalog: CardSet) -> None:
    for number in range(PROPOSALS_PER_HOUR):
        proposal_create(
            proposer=proposer,
            card_set=super_catalog,
            document={**NEW_CARD, "name": f"Thug Number {number}"},
            evidence=EVIDENCE,
        )
    with pytest.raises(TooManyRequests):
        proposal_create(
            proposer=proposer,
            card_set=super_catalog,
            document={**NEW_CARD, "name": "One Thug Too Many"},
            evidence=EVIDENCE,
        )
    assert Proposal.objects.count() == PROPOSALS_PER_HOUR


def test_a_curator_never_reviews_their_own_proposal(
    curator: User, staff: User, generic_guy: Card, with_treasures: Change
) -> None:
    proposal = _propose(curator, generic_guy, with_treasures(generic_guy, 4))
    with pytest.raises(PermissionDenied, match="another curator"):
        proposal_accept(proposal=proposal, curator=curator)
    with pytest.raises(PermissionDenied, match="another curator"):
        proposal_reject(proposal=proposal, curator=curator, reason="mine")
    generic_guy.refresh_from_db()
    assert generic_guy.treasures is None
    proposal_accept(proposal=proposal, curator=staff)
    generic_guy.refresh_from_db()
    assert generic_guy.treasures == 4


def test_a_photo_over_the_byte_limit_is_refused_before_it_is_opened(
    proposer: User, generic_guy: Card, with_treasures: Change, settings: Any
) -> None:
    settings.ART_MAX_BYTES = 1024
    upload = SimpleUploadedFile("big.jpg", b"\xff\xd8" + b"0" * 4096, content_type="image/jpeg")
    with pytest.raises(ProposalInvalid) as refused:
        _propose(proposer, generic_guy, with_treasures(generic_guy, 4), photo=upload)
    assert (refused.value.field, refused.value.message) == ("photo", "a photo is limited to 1 KB")
    assert Proposal.objects.count() == 0


@pytest.mark.parametrize("action", ["reject", "changes"])
def test_a_review_note_is_bounded(
    proposer: User, curator: User, generic_guy: Card, with_treasures: Change, action: str
) -> None:
    proposal = _propose(proposer, generic_guy, with_treasures(generic_guy, 4))
    with pytest.raises(ProposalInvalid, match="at most 2000 characters"):
        if action == "reject":
            proposal_reject(proposal=proposal, curator=curator, reason="x" * 2001)
        else:
            proposal_request_changes(proposal=proposal, curator=curator, message="x" * 2001)
    proposal.refresh_from_db()
    assert (proposal.status, proposal.review_note) == ("open", "")
