"""The proposal pages: proposing (form errors like the editor's, nothing stored), the
proposal page and its review (accept, reject, ask for changes, the stale flow), the photo
served without its metadata, the queue, the profile's section and the links to propose.

Expected values come from the Super Munchkin fixture (Generic Guy: Level 14, Treasures
unknown) and from the rules of issue 18, never from the pages' own output."""

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from authoring.editor import split_document
from authoring.previews import PREVIEW_PER_MINUTE
from catalog.models import Card, CardSet
from catalog.services import card_update
from contributions.models import Proposal, ProposalStatus
from contributions.services import proposal_create
from tests.conftest import PASSWORD
from tests.contributions.conftest import jpeg_with_gps


@pytest.fixture(autouse=True)
def private_media(settings: Any, tmp_path: Any) -> None:
    """Photos are written to a folder of the test's own, not the site's media."""
    settings.MEDIA_ROOT = tmp_path


EVIDENCE = "My own copy of the card: the Treasures number is in the bottom corner."


def form_data(
    document: dict[str, Any], *, evidence: str = EVIDENCE, base_revision: int | None = None
) -> dict[str, Any]:
    """What the propose form posts for a card document (the editor's split)."""
    values, text = split_document(document)
    data: dict[str, Any] = {"document_yaml": text, "evidence": evidence}
    for key, value in values.items():
        if value is True:
            data[key] = "on"
        elif value is False:
            continue
        else:
            data[key] = "" if value is None else value
    if base_revision is not None:
        data["base_revision"] = base_revision
    return data


def signed_in(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def change_url(card: Card) -> str:
    return reverse("contributions:propose_change", args=[card.card_set.code, card.slug])


def proposal_of(user: User, card: Card, treasures: int = 2) -> Proposal:
    return proposal_create(
        proposer=user,
        card_set=card.card_set,
        document={**card.document, "treasures": treasures},
        evidence=EVIDENCE,
        card=card,
    )


# -- proposing ------------------------------------------------------------------------------


def test_the_change_form_opens_on_the_cards_document(proposer: User, generic_guy: Card) -> None:
    page = signed_in(proposer).get(change_url(generic_guy))
    assert page.status_code == 200
    form = page.context["form"]
    # The fixture: Generic Guy is a Level 14 monster.
    assert form.initial["name"] == "Generic Guy"
    assert form.initial["level"] == 14
    assert form.initial["base_revision"] == generic_guy.revision
    assert "art" not in form.fields
    assert "your own words" in page.content.decode()


def test_unknown_stats_are_blank_fields_that_stay_unknown(
    proposer: User, generic_guy: Card
) -> None:
    """The fixture has Generic Guy's Treasures as null: the form shows a blank Treasures field
    (not `treasures: null` in the YAML), and sending it back untouched changes nothing."""
    client = signed_in(proposer)
    form = client.get(change_url(generic_guy)).context["form"]
    assert "treasures" not in form.initial["document_yaml"]
    assert form.initial.get("treasures") is None
    data = {k: ("" if v is None else v) for k, v in form.initial.items()}
    data["evidence"] = EVIDENCE
    response = client.post(change_url(generic_guy), data)
    assert response.status_code == 400
    assert "changes nothing" in response.content.decode()
    data["treasures"] = 3
    assert client.post(change_url(generic_guy), data).status_code == 302
    proposal = Proposal.objects.get()
    assert proposal.document["treasures"] == 3
    assert proposal.document["levels_gained"] is None  # still there, still unknown


def test_proposing_generic_guys_treasures_with_a_photo(
    proposer: User, generic_guy: Card, gps_photo: SimpleUploadedFile
) -> None:
    data = form_data({**generic_guy.document, "treasures": 4}, base_revision=generic_guy.revision)
    response = signed_in(proposer).post(change_url(generic_guy), {**data, "photo": gps_photo})
    proposal = Proposal.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("contributions:proposal_detail", args=[proposal.pk])
    assert proposal.document["treasures"] == 4
    assert proposal.card == generic_guy
    assert proposal.base_revision == generic_guy.revision
    assert proposal.proposer == proposer
    assert proposal.photo


def test_proposing_a_new_card(proposer: User, super_catalog: CardSet) -> None:
    document = {
        "name": "Gelatinous Octahedron Mk II",
        "kind": "monster",
        "deck": "door",
        "copies": 1,
        "level": 2,
        "treasures": 1,
        "notes": "A Level 2 foe worth one Treasure; its Bad Stuff is not known yet.",
        "encoding": {"status": "text_only", "reason": "only its numbers are known"},
    }
    url = reverse("contributions:propose_new", args=[super_catalog.code])
    response = signed_in(proposer).post(url, form_data(document))
    assert response.status_code == 302
    proposal = Proposal.objects.get()
    assert proposal.is_new_card and proposal.name == "Gelatinous Octahedron Mk II"


def test_a_misspelt_word_shows_the_nearest_and_stores_nothing(
    proposer: User, generic_guy: Card
) -> None:
    data = form_data({**generic_guy.document, "treasures": 2})
    data["document_yaml"] += "bad_stufff: []\n"
    line = data["document_yaml"].count("\n")  # the misspelt key is the YAML's last line
    response = signed_in(proposer).post(change_url(generic_guy), data)
    assert response.status_code == 400
    body = response.content.decode()
    assert "did you mean &#x27;bad_stuff&#x27;" in body
    assert f'data-line="{line}"' in body
    assert Proposal.objects.count() == 0


def test_a_kind_that_is_not_one_is_refused_on_its_field(proposer: User, generic_guy: Card) -> None:
    data = form_data({**generic_guy.document, "treasures": 2}) | {"kind": "monstr"}
    response = signed_in(proposer).post(change_url(generic_guy), data)
    assert response.status_code == 400
    assert response.context["form"].errors["kind"]
    assert Proposal.objects.count() == 0


def test_the_evidence_is_required(proposer: User, generic_guy: Card) -> None:
    data = form_data({**generic_guy.document, "treasures": 2}, evidence="")
    response = signed_in(proposer).post(change_url(generic_guy), data)
    assert response.status_code == 400
    assert response.context["form"].errors["evidence"]
    assert Proposal.objects.count() == 0


def test_a_change_that_changes_nothing_is_refused(proposer: User, generic_guy: Card) -> None:
    response = signed_in(proposer).post(change_url(generic_guy), form_data(generic_guy.document))
    assert response.status_code == 400
    assert "changes nothing" in response.content.decode()
    assert Proposal.objects.count() == 0


def test_a_custom_sets_propose_pages_are_404(alice: User, bob: User) -> None:
    """Decided: 404, as for a set that does not exist: a custom set takes no proposals (its
    owner edits it), and a private one must not show it exists."""
    custom = CardSet.objects.create(code="alice-mine", name="Mine", owner=alice, official=False)
    client = signed_in(bob)
    assert client.get(reverse("contributions:propose_new", args=[custom.code])).status_code == 404
    assert (
        client.post(reverse("contributions:propose_new", args=[custom.code]), {}).status_code == 404
    )


def test_the_live_preview_draws_the_proposed_card(proposer: User, generic_guy: Card) -> None:
    url = reverse("contributions:propose_preview", args=[generic_guy.card_set.code])
    data = form_data({**generic_guy.document, "treasures": 2})
    del data["evidence"]
    body = signed_in(proposer).post(url, data).json()
    assert body["ok"] is True
    assert body["face"].startswith("data:image/png;base64,")
    data["document_yaml"] += "bad_stufff: []\n"
    body = signed_in(proposer).post(url, data).json()
    assert body["ok"] is False
    assert "bad_stuff" in body["errors"][0]["message"]
    assert Proposal.objects.count() == 0


def test_the_live_preview_is_rate_limited(proposer: User, generic_guy: Card) -> None:
    url = reverse("contributions:propose_preview", args=[generic_guy.card_set.code])
    client = signed_in(proposer)
    codes = [client.post(url, {}).status_code for _ in range(PREVIEW_PER_MINUTE + 1)]
    assert codes[:-1] == [200] * PREVIEW_PER_MINUTE
    assert codes[-1] == 429


# -- the photo ------------------------------------------------------------------------------


def test_the_served_photo_has_no_exif_and_no_gps(
    proposer: User, generic_guy: Card, gps_photo: SimpleUploadedFile
) -> None:
    original = jpeg_with_gps()
    assert b"PhoneMaker" in original  # the test photo does carry EXIF
    data = form_data({**generic_guy.document, "treasures": 2})
    signed_in(proposer).post(change_url(generic_guy), {**data, "photo": gps_photo})
    proposal = Proposal.objects.get()
    response = signed_in(proposer).get(reverse("contributions:proposal_photo", args=[proposal.pk]))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert response["X-Content-Type-Options"] == "nosniff"
    served = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert b"PhoneMaker" not in served
    with Image.open(io.BytesIO(served)) as image:
        assert image.size == (64, 48)
        exif = image.getexif()
        assert len(exif) == 0
        assert not exif.get_ifd(0x8825)


# -- the proposal page and the review --------------------------------------------------------


def test_the_proposal_page_shows_the_face_before_the_report(
    proposer: User, generic_guy: Card
) -> None:
    proposal = proposal_of(proposer, generic_guy, treasures=3)
    page = signed_in(proposer).get(reverse("contributions:proposal_detail", args=[proposal.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert EVIDENCE in body
    assert 'data-testid="proposed-values"' in body
    assert body.index('data-testid="proposal-face"') < body.index('data-testid="proposal-check"')
    assert page.context["proposed_values"] == [("Treasures", "3")]
    face = signed_in(proposer).get(reverse("contributions:proposal_face", args=[proposal.pk]))
    assert face.status_code == 200 and face.content.startswith(b"\x89PNG")


def test_a_curator_accepts_and_the_card_takes_the_treasures(
    proposer: User, curator: User, generic_guy: Card
) -> None:
    proposal = proposal_of(proposer, generic_guy, treasures=4)
    revision = generic_guy.revision
    response = signed_in(curator).post(
        reverse("contributions:proposal_accept", args=[proposal.pk]),
        {"reviewed_revision": revision},
    )
    assert response.status_code == 302
    generic_guy.refresh_from_db()
    assert generic_guy.document["treasures"] == 4
    assert generic_guy.revision == revision + 1
    latest = generic_guy.revisions.get(number=revision + 1)
    assert latest.proposed_by == proposer and latest.evidence == EVIDENCE
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.ACCEPTED and proposal.reviewed_by == curator


def test_rejecting_needs_a_reason_the_proposer_then_reads(
    proposer: User, curator: User, generic_guy: Card
) -> None:
    proposal = proposal_of(proposer, generic_guy)
    url = reverse("contributions:proposal_reject", args=[proposal.pk])
    assert signed_in(curator).post(url, {"note": ""}).status_code == 400
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.OPEN
    assert signed_in(curator).post(url, {"note": "The photo shows 3, not 2."}).status_code == 302
    page = signed_in(proposer).get(reverse("contributions:proposal_detail", args=[proposal.pk]))
    assert "The photo shows 3, not 2." in page.content.decode()
    assert page.context["proposal"].status == ProposalStatus.REJECTED


def test_changes_asked_for_then_the_proposers_new_version(
    proposer: User, curator: User, generic_guy: Card
) -> None:
    proposal = proposal_of(proposer, generic_guy, treasures=2)
    url = reverse("contributions:proposal_request_changes", args=[proposal.pk])
    assert signed_in(curator).post(url, {"note": "Which printing?"}).status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.CHANGES_REQUESTED
    edit = reverse("contributions:proposal_edit", args=[proposal.pk])
    client = signed_in(proposer)
    form = client.get(edit).context["form"]
    assert form.initial["treasures"] == 2 and form.initial["evidence"] == EVIDENCE
    data = form_data(
        {**generic_guy.document, "treasures": 3},
        evidence="First printing, my copy.",
        base_revision=generic_guy.revision,
    )
    assert client.post(edit, data).status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.OPEN
    assert proposal.document["treasures"] == 3
    assert proposal.evidence == "First printing, my copy."


def test_withdrawing(proposer: User, generic_guy: Card) -> None:
    proposal = proposal_of(proposer, generic_guy)
    url = reverse("contributions:proposal_withdraw", args=[proposal.pk])
    assert signed_in(proposer).post(url).status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.WITHDRAWN
    # A decided proposal does not move again: 409 with the page.
    assert signed_in(proposer).post(url).status_code == 409


def test_the_stale_flow(proposer: User, curator: User, staff: User, generic_guy: Card) -> None:
    proposal = proposal_of(proposer, generic_guy, treasures=2)
    base = generic_guy.revision
    # Someone saves the card after the proposal: another field changes.
    card_update(
        card=generic_guy,
        actor=staff,
        document={**generic_guy.document, "levels_gained": 1},
        base_revision=base,
    )
    generic_guy.refresh_from_db()
    assert generic_guy.revision == base + 1
    accept = reverse("contributions:proposal_accept", args=[proposal.pk])
    client = signed_in(curator)
    # The curator's page showed revision `base`: a 409 asking for a fresh look.
    response = client.post(accept, {"reviewed_revision": base})
    assert response.status_code == 409
    body = response.content.decode()
    assert f"revision {base} → {base + 1}" in body
    assert 'data-testid="three-way"' in body
    keys = {row["key"] for row in response.context["three_way_rows"]}
    assert keys == {"treasures", "levels_gained"}
    assert response.context["reviewed_revision"] == base + 1
    generic_guy.refresh_from_db()
    assert generic_guy.revision == base + 1  # nothing written
    # After the fresh look: accepted, and the newer revision's Levels gained stay.
    assert client.post(accept, {"reviewed_revision": base + 1}).status_code == 302
    generic_guy.refresh_from_db()
    assert generic_guy.revision == base + 2
    assert generic_guy.document["treasures"] == 2
    assert generic_guy.document["levels_gained"] == 1


def test_a_reviewed_revision_that_is_not_a_number_is_a_400(
    proposer: User, curator: User, generic_guy: Card
) -> None:
    proposal = proposal_of(proposer, generic_guy)
    url = reverse("contributions:proposal_accept", args=[proposal.pk])
    assert signed_in(curator).post(url, {"reviewed_revision": "abc"}).status_code == 400


# -- the queue, the list and the profile ----------------------------------------------------


def test_the_queue_flags_stale_and_duplicate_proposals(
    proposer: User, other: User, curator: User, staff: User, generic_guy: Card
) -> None:
    proposal_of(proposer, generic_guy)
    card_update(
        card=generic_guy,
        actor=staff,
        document={**generic_guy.document, "levels_gained": 1},
        base_revision=generic_guy.revision,
    )
    new = {
        "name": "Wandering Duplicate",
        "kind": "monster",
        "deck": "door",
        "level": 3,
        "treasures": 1,
        "notes": "A Level 3 foe worth one Treasure.",
        "encoding": {"status": "text_only", "reason": "numbers only"},
    }
    for user in (proposer, other):
        proposal_create(
            proposer=user, card_set=generic_guy.card_set, document=new, evidence=EVIDENCE
        )
    page = signed_in(curator).get(reverse("contributions:review_queue"))
    assert page.status_code == 200
    body = page.content.decode()
    assert body.count('data-testid="flag-stale"') == 1
    assert body.count('data-testid="flag-duplicate"') == 2  # each names the other
    assert len(page.context["rows"]) == 3


def test_the_queue_refuses_an_unknown_status_or_set(curator: User, super_catalog: CardSet) -> None:
    url = reverse("contributions:review_queue")
    client = signed_in(curator)
    assert client.get(url, {"status": "maybe"}).status_code == 400
    assert client.get(url, {"set": "munchkin-core"}).status_code == 400  # not theirs
    assert client.get(url, {"set": super_catalog.code, "status": "all"}).status_code == 200


def test_the_profile_lists_the_owners_proposals_to_them_only(
    proposer: User, other: User, generic_guy: Card
) -> None:
    proposal = proposal_of(proposer, generic_guy)
    url = reverse("catalog:profile", args=[proposer.username])
    mine = signed_in(proposer).get(url).content.decode()
    assert 'data-testid="profile-proposals"' in mine
    assert reverse("contributions:proposal_detail", args=[proposal.pk]) in mine
    for client in (signed_in(other), Client()):
        theirs = client.get(url).content.decode()
        assert 'data-testid="profile-proposals"' not in theirs


def test_a_curators_profile_links_the_queue_with_its_count(
    proposer: User, curator: User, generic_guy: Card
) -> None:
    proposal_of(proposer, generic_guy)
    page = signed_in(curator).get(reverse("catalog:profile", args=[curator.username]))
    body = page.content.decode()
    assert reverse("contributions:review_queue") in body
    assert "1 proposal waiting" in body


def test_the_proposers_list(proposer: User, other: User, generic_guy: Card) -> None:
    mine = proposal_of(proposer, generic_guy)
    proposal_of(other, generic_guy, treasures=5)
    page = signed_in(proposer).get(reverse("contributions:proposal_list"))
    assert [p.pk for p in page.context["proposals"]] == [mine.pk]


# -- the links on the catalog's pages --------------------------------------------------------


def test_the_card_page_links_to_propose_a_correction(proposer: User, generic_guy: Card) -> None:
    url = reverse("catalog:card_detail", args=[generic_guy.card_set.code, generic_guy.slug])
    assert "Propose a correction" in signed_in(proposer).get(url).content.decode()
    anonymous = Client().get(url).content.decode()
    assert "Sign in to propose a correction" in anonymous


def test_the_set_page_links_to_propose_a_missing_card(
    proposer: User, super_catalog: CardSet
) -> None:
    url = reverse("catalog:set_detail", args=[super_catalog.code])
    assert "Propose a missing card" in signed_in(proposer).get(url).content.decode()
    assert "Sign in to propose a missing card" in Client().get(url).content.decode()


def test_a_conflict_is_refused_with_the_fields_named(
    proposer: User, curator: User, staff: User, generic_guy: Card
) -> None:
    proposal = proposal_of(proposer, generic_guy, treasures=2)
    base = generic_guy.revision
    card_update(
        card=generic_guy,
        actor=staff,
        document={**generic_guy.document, "treasures": 3},
        base_revision=base,
    )
    accept = reverse("contributions:proposal_accept", args=[proposal.pk])
    response = signed_in(curator).post(accept, {"reviewed_revision": base + 1})
    assert response.status_code == 409
    assert [row["key"] for row in response.context["conflicts"]] == ["treasures"]
    assert "Conflict: both changed it" in response.content.decode()
    generic_guy.refresh_from_db()
    assert generic_guy.revision == base + 1 and generic_guy.document["treasures"] == 3


def test_the_proposal_page_flags_a_duplicate_new_card(
    proposer: User, other: User, curator: User, super_catalog: CardSet
) -> None:
    document = {
        "name": "Twice Proposed",
        "kind": "monster",
        "deck": "door",
        "level": 5,
        "treasures": 2,
        "notes": "A Level 5 foe worth two Treasures.",
        "encoding": {"status": "text_only", "reason": "numbers only"},
    }
    first = proposal_create(
        proposer=proposer, card_set=super_catalog, document=document, evidence=EVIDENCE
    )
    second = proposal_create(
        proposer=other, card_set=super_catalog, document=document, evidence=EVIDENCE
    )
    page = signed_in(curator).get(reverse("contributions:proposal_detail", args=[second.pk]))
    assert "Also proposed in" in page.content.decode()
    assert [p.pk for p in page.context["review"].duplicates] == [first.pk]
    assert "by alice" in page.content.decode()


def test_too_many_proposals_is_a_429_and_stores_nothing(
    proposer: User, generic_guy: Card, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("contributions.services.PROPOSALS_PER_HOUR", 1)
    client = signed_in(proposer)
    first = form_data({**generic_guy.document, "treasures": 2})
    assert client.post(change_url(generic_guy), first).status_code == 302
    second = form_data({**generic_guy.document, "treasures": 3})
    response = client.post(change_url(generic_guy), second)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Too many proposals" in response.content.decode()
    assert Proposal.objects.count() == 1


def test_a_curator_sees_no_review_buttons_on_their_own_proposal(
    curator: User, staff: User, generic_guy: Card
) -> None:
    proposal = proposal_create(
        proposer=curator,
        card_set=generic_guy.card_set,
        card=generic_guy,
        document={**generic_guy.document, "treasures": 4},
        evidence="My own copy.",
    )
    url = reverse("contributions:proposal_detail", args=[proposal.pk])
    accept = reverse("contributions:proposal_accept", args=[proposal.pk])
    own = signed_in(curator).get(url).content.decode()
    assert accept not in own
    assert 'data-testid="own-proposal-note"' in own
    assert accept in signed_in(staff).get(url).content.decode()
    assert signed_in(curator).post(accept).status_code == 403
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.OPEN
