"""The proposals API (contributions/api.py): proposing, listing, reading and deciding
proposals over HTTP; its refusals of bad input; a stale proposal never overwriting a newer
revision; the issue's "Done when" from proposal to completeness."""

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import override_settings
from PIL import Image
from rest_framework.test import APIClient

from accounts.models import ApiToken, new_token_key, token_digest
from catalog.models import Card, CardRevision, CardSet
from catalog.services import card_update, set_create
from contributions import services
from contributions.models import Proposal, ProposalStatus
from tests.contributions.conftest import jpeg_with_gps
from tests.factories import monster_document
from tests.hostile import nested_json

Change = Callable[[Card, int], dict[str, Any]]
EVIDENCE = "My own copy of Super Munchkin, the card in hand."


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert body["object"] == "error" and body["status"] == status, body
    assert body["details"] and body["errors"] and body["errors"][0]["message"], body
    if code is not None:
        assert body["code"] == code, body
    return body


def propose(client: APIClient, code: str, document: dict[str, Any], **body: Any) -> Any:
    return client.post(
        f"/api/sets/{code}/proposals/",
        {"effects": document, "evidence": EVIDENCE, **body},
        format="json",
    )


@pytest.fixture
def change_proposal(proposer: User, generic_guy: Card, with_treasures: Change) -> Proposal:
    """Alice's proposal of Generic Guy's Treasures (2), made against its current revision."""
    response = propose(
        client_for(proposer),
        "munchkin-super",
        with_treasures(generic_guy, 2),
        card=generic_guy.pk,
    )
    assert response.status_code == 201, response.content
    return Proposal.objects.get(pk=response.json()["id"])


# --------------------------------------------------------------------------------------------
# Proposing
# --------------------------------------------------------------------------------------------


def test_a_change_is_proposed_against_the_cards_revision(
    proposer: User, generic_guy: Card, with_treasures: Change
) -> None:
    response = propose(
        client_for(proposer),
        "munchkin-super",
        with_treasures(generic_guy, 2),
        card=generic_guy.pk,
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["object"] == "proposal"
    assert (body["set"], body["card"], body["name"]) == (
        "munchkin-super",
        generic_guy.pk,
        "Generic Guy",
    )
    assert body["status"] == "open" and body["new_card"] is False and body["stale"] is False
    assert body["base_revision"] == generic_guy.revision
    assert body["evidence"] == EVIDENCE and body["has_photo"] is False
    assert body["effects"]["treasures"] == 2 and body["effects"]["level"] == 14  # the fixture's
    assert body["url"].endswith(f"/proposals/{body['id']}/")
    stored = Proposal.objects.get(pk=body["id"])
    assert stored.proposer == proposer and stored.document["treasures"] == 2
    # Proposing writes nothing to the card.
    generic_guy.refresh_from_db()
    assert generic_guy.document.get("treasures") is None


def test_a_new_card_is_proposed_with_no_card_and_no_base(
    proposer: User, super_catalog: CardSet
) -> None:
    response = propose(client_for(proposer), "munchkin-super", monster_document("Brand New Foe"))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["card"] is None and body["new_card"] is True and body["base_revision"] is None
    assert body["name"] == "Brand New Foe"
    assert not Card.objects.filter(card_set=super_catalog, name="Brand New Foe").exists()


def test_a_token_proposes_like_a_session(proposer: User, super_catalog: CardSet) -> None:
    key = new_token_key()
    ApiToken.objects.create(user=proposer, name="t", digest=token_digest(key), hint=key[:8])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = propose(client, "munchkin-super", monster_document("Token Foe"))
    assert response.status_code == 201, response.content
    assert Proposal.objects.get().proposer == proposer


def test_a_photo_comes_as_multipart_and_loses_its_exif(
    proposer: User, curator: User, generic_guy: Card, with_treasures: Change
) -> None:
    photo = SimpleUploadedFile("card.jpg", jpeg_with_gps(), content_type="image/jpeg")
    with Image.open(io.BytesIO(jpeg_with_gps())) as original:
        assert original.getexif()  # the upload does carry EXIF, GPS included
    response = client_for(proposer).post(
        "/api/sets/munchkin-super/proposals/",
        {
            "card": str(generic_guy.pk),
            "effects": json.dumps(with_treasures(generic_guy, 2)),
            "evidence": EVIDENCE,
            "photo": photo,
        },
        format="multipart",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["has_photo"] is True and body["effects"]["treasures"] == 2
    proposal = Proposal.objects.get(pk=body["id"])
    with proposal.photo.open("rb") as stored, Image.open(stored) as image:
        assert not image.getexif() and "exif" not in image.info
    # The photo's address is in the detail only, and serves the proposer and curators.
    for user in (proposer, curator):
        detail = client_for(user).get(f"/api/proposals/{proposal.pk}/").json()
        assert detail["photo"] and detail["photo"].endswith(f"/proposals/{proposal.pk}/photo/")
        assert client_for(user).get(detail["photo"]).status_code == 200
    listed = client_for(proposer).get("/api/proposals/").json()["data"][0]
    assert "photo" not in listed and "evidence" not in listed


def test_a_multipart_document_that_is_not_json_is_refused(
    proposer: User, super_catalog: CardSet
) -> None:
    response = client_for(proposer).post(
        "/api/sets/munchkin-super/proposals/",
        {"effects": "{name: not json", "evidence": EVIDENCE},
        format="multipart",
    )
    body = assert_error(response, 400, "invalid")
    assert body["errors"][0]["path"] == "effects"
    assert not Proposal.objects.exists()


# --------------------------------------------------------------------------------------------
# Bad input: refused, nothing stored
# --------------------------------------------------------------------------------------------


def test_a_document_that_does_not_parse_gets_the_editors_errors(
    proposer: User, super_catalog: CardSet
) -> None:
    document = monster_document("Misspelt Foe", kind="monstr")
    body = assert_error(propose(client_for(proposer), "munchkin-super", document), 400, "invalid")
    paths = [e["path"] for e in body["errors"]]
    assert "effects.kind" in paths, body
    message = next(e["message"] for e in body["errors"] if e["path"] == "effects.kind")
    assert "monster" in message  # the nearest word
    assert not Proposal.objects.exists()


def test_a_custom_set_takes_no_proposals_even_public(proposer: User, other: User) -> None:
    for visibility in ("public", "private"):
        card_set = set_create(
            owner=proposer, code=f"own-{visibility}", name="Own", visibility=visibility
        )
        body = assert_error(
            propose(client_for(proposer), card_set.code, monster_document()), 400, "invalid"
        )
        assert body["errors"][0]["path"] == "set" and "official" in body["details"]
    # Someone else's private set does not exist for the requester.
    hidden = set_create(owner=other, code="bobs-secret", name="Secret", visibility="private")
    assert_error(propose(client_for(proposer), hidden.code, monster_document()), 404)
    assert_error(propose(client_for(proposer), "no-such-set", monster_document()), 404)
    assert not Proposal.objects.exists()


def test_a_private_official_set_takes_no_proposals(staff: User) -> None:
    CardSet.objects.create(
        code="hidden-official", name="Hidden", official=True, visibility="private"
    )
    # Staff may see it; it still takes no proposals.
    body = assert_error(propose(client_for(staff), "hidden-official", monster_document()), 400)
    assert body["errors"][0]["path"] == "set"


def test_a_card_of_another_set_or_none_is_refused(
    proposer: User, super_catalog: CardSet, core_catalog: None
) -> None:
    core_card = Card.objects.filter(card_set__code="munchkin-core").first()
    assert core_card is not None
    for card_id in (core_card.pk, 10**9):
        body = assert_error(
            propose(client_for(proposer), "munchkin-super", core_card.document, card=card_id),
            400,
            "invalid",
        )
        assert body["errors"][0]["path"] == "card"
    assert not Proposal.objects.exists()


def test_an_unknown_base_revision_is_refused(
    proposer: User, generic_guy: Card, with_treasures: Change
) -> None:
    client = client_for(proposer)
    document = with_treasures(generic_guy, 2)
    body = assert_error(
        propose(client, "munchkin-super", document, card=generic_guy.pk, base_revision=99), 400
    )
    assert body["errors"][0]["path"] == "base_revision"
    body = assert_error(
        propose(client, "munchkin-super", monster_document("Foe X"), base_revision=1), 400
    )
    assert body["errors"][0]["path"] == "base_revision"
    assert not Proposal.objects.exists()


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"evidence": "   "}, "evidence"),
        ({"evidence": None}, "evidence"),
        ({"effects": ["not", "a", "mapping"]}, "effects"),
        ({"colour": "red"}, "colour"),
        ({"card": "one"}, "card"),
    ],
)
def test_bad_keys_are_named(
    proposer: User, super_catalog: CardSet, body: dict[str, Any], path: str
) -> None:
    response = client_for(proposer).post(
        "/api/sets/munchkin-super/proposals/",
        {"effects": monster_document("Keyed Foe"), "evidence": EVIDENCE, **body},
        format="json",
    )
    errors = assert_error(response, 400)["errors"]
    assert errors[0]["path"] == path, errors
    assert not Proposal.objects.exists()


def test_a_change_that_changes_nothing_is_refused(proposer: User, generic_guy: Card) -> None:
    body = assert_error(
        propose(client_for(proposer), "munchkin-super", generic_guy.document, card=generic_guy.pk),
        400,
    )
    assert body["errors"][0]["path"] == "effects"


@pytest.mark.parametrize(
    "raw",
    [
        # 600 bytes of brackets: deeper than the reader's 40 levels.
        '{"effects": ' + nested_json(290) + ', "evidence": "x"}',
        # A number of 560 digits: longer than any the reader takes.
        '{"effects": {"name": "Big", "level": ' + "9" * 560 + '}, "evidence": "x"}',
    ],
)
def test_a_small_hostile_body_is_refused(proposer: User, super_catalog: CardSet, raw: str) -> None:
    assert len(raw) <= 620
    response = client_for(proposer).post(
        "/api/sets/munchkin-super/proposals/", raw, content_type="application/json"
    )
    assert_error(response, 400)
    assert not Proposal.objects.exists()


@override_settings(API_MAX_BODY_BYTES=1000)
def test_a_body_over_the_limit_is_refused(proposer: User, super_catalog: CardSet) -> None:
    response = propose(
        client_for(proposer), "munchkin-super", monster_document("Long Foe", notes="x" * 2000)
    )
    body = assert_error(response, 400)
    assert "1,000 bytes" in body["details"]
    assert not Proposal.objects.exists()


def test_proposals_past_the_hourly_limit_are_429(
    proposer: User, super_catalog: CardSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "PROPOSALS_PER_HOUR", 2)
    client = client_for(proposer)
    for name in ("Foe One", "Foe Two"):
        assert propose(client, "munchkin-super", monster_document(name)).status_code == 201
    response = propose(client, "munchkin-super", monster_document("Foe Three"))
    assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert Proposal.objects.count() == 2


# --------------------------------------------------------------------------------------------
# Lists and the detail
# --------------------------------------------------------------------------------------------


def test_the_list_holds_ones_own_and_a_curators_sets(
    proposer: User, other: User, curator: User, other_curator: User, super_catalog: CardSet
) -> None:
    mine = propose(client_for(proposer), "munchkin-super", monster_document("Alice Foe"))
    bobs = propose(client_for(other), "munchkin-super", monster_document("Bob Foe"))
    ids = {"alice": mine.json()["id"], "bob": bobs.json()["id"]}

    def listed(user: User, query: str = "") -> list[int]:
        body = client_for(user).get(f"/api/proposals/{query}").json()
        assert body["object"] == "list" and body["total"] == len(body["data"])
        assert body["has_more"] is False and body["next_page"] is None
        return [item["id"] for item in body["data"]]

    assert listed(proposer) == [ids["alice"]]
    assert listed(other) == [ids["bob"]]
    assert listed(curator) == [ids["bob"], ids["alice"]]  # newest first
    assert listed(other_curator) == []
    assert listed(curator, "?set=munchkin-super&status=open") == [ids["bob"], ids["alice"]]
    assert listed(curator, "?status=accepted") == []
    assert listed(curator, "?set=munchkin-other") == []


def test_an_unknown_status_names_the_valid_ones_and_the_nearest(proposer: User) -> None:
    body = assert_error(client_for(proposer).get("/api/proposals/?status=opne"), 400, "invalid")
    error = body["errors"][0]
    assert error["path"] == "status"
    assert "'open'" in error["message"]  # the nearest
    for status in ProposalStatus.values:
        assert status in error["message"]


@pytest.mark.parametrize("page", ["0", "two", "10001"])
def test_a_page_that_is_not_one_is_400(proposer: User, page: str) -> None:
    body = assert_error(client_for(proposer).get(f"/api/proposals/?page={page}"), 400)
    assert body["errors"][0]["path"] == "page"


def test_the_detail_holds_the_review(change_proposal: Proposal, curator: User) -> None:
    body = client_for(curator).get(f"/api/proposals/{change_proposal.pk}/").json()
    assert body["evidence"] == EVIDENCE and body["photo"] is None
    assert body["face"].endswith(f"/proposals/{change_proposal.pk}/face.png")
    face = client_for(curator).get(body["face"])
    assert face.status_code == 200 and face.content.startswith(b"\x89PNG")
    review = body["review"]
    assert review["changed_fields"] == ["treasures"]
    assert review["stale"] is False and review["three_way"] is None
    assert review["current_revision"] == change_proposal.base_revision
    added = [line["text"] for line in review["diff"] if line["kind"] == "add"]
    removed = [line["text"] for line in review["diff"] if line["kind"] == "del"]
    assert any("treasures: 2" in line for line in added), review["diff"]
    assert any("treasures" in line for line in removed), review["diff"]
    assert review["validation"] in ("pass", "warn", "fail")
    assert review["duplicates"] == [] and review["existing_card"] is None


def test_duplicate_new_cards_are_flagged(
    proposer: User, other: User, curator: User, super_catalog: CardSet
) -> None:
    first = propose(client_for(proposer), "munchkin-super", monster_document("Twin Foe"))
    second = propose(client_for(other), "munchkin-super", monster_document("twin foe"))
    assert first.status_code == second.status_code == 201
    ids = first.json()["id"], second.json()["id"]
    review = client_for(curator).get(f"/api/proposals/{ids[1]}/").json()["review"]
    assert review["duplicates"] == [ids[0]]
    review = client_for(curator).get(f"/api/proposals/{ids[0]}/").json()["review"]
    assert review["duplicates"] == [ids[1]]


# --------------------------------------------------------------------------------------------
# Decisions
# --------------------------------------------------------------------------------------------


def test_accepting_makes_a_revision_recording_proposer_and_evidence(
    change_proposal: Proposal, curator: User, proposer: User, generic_guy: Card
) -> None:
    before = generic_guy.revision
    response = client_for(curator).post(
        f"/api/proposals/{change_proposal.pk}/accept/", {}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "accepted" and body["card"] == generic_guy.pk
    assert body["accepted_revision"] == before + 1
    generic_guy.refresh_from_db()
    assert generic_guy.revision == before + 1 and generic_guy.document["treasures"] == 2
    revision = CardRevision.objects.get(card=generic_guy, number=before + 1)
    assert revision.proposed_by == proposer and revision.evidence == EVIDENCE
    # Decided: it cannot be decided again.
    again = client_for(curator).post(f"/api/proposals/{change_proposal.pk}/accept/")
    assert_error(again, 409, "closed")


def test_accepting_a_new_card_gives_its_id(
    proposer: User, curator: User, super_catalog: CardSet
) -> None:
    made = propose(client_for(proposer), "munchkin-super", monster_document("Accepted Foe"))
    response = client_for(curator).post(f"/api/proposals/{made.json()['id']}/accept/")
    assert response.status_code == 200, response.content
    card = Card.objects.get(card_set=super_catalog, name="Accepted Foe")
    assert response.json()["card"] == card.pk and response.json()["accepted_revision"] == 1


def test_reject_needs_a_reason_and_closes_the_proposal(
    change_proposal: Proposal, curator: User, proposer: User
) -> None:
    url = f"/api/proposals/{change_proposal.pk}"
    body = assert_error(client_for(curator).post(f"{url}/reject/", {}, format="json"), 400)
    assert body["errors"][0]["path"] == "reason"
    body = assert_error(
        client_for(curator).post(f"{url}/reject/", {"reason": "  "}, format="json"), 400
    )
    assert body["errors"][0]["path"] == "reason"
    response = client_for(curator).post(
        f"{url}/reject/", {"reason": "The box says 1 Treasure."}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "rejected"
    assert response.json()["review_note"] == "The box says 1 Treasure."
    # The proposer reads the reason.
    assert client_for(proposer).get(f"{url}/").json()["review_note"] == "The box says 1 Treasure."
    assert_error(client_for(curator).post(f"{url}/accept/"), 409, "closed")
    assert_error(client_for(proposer).post(f"{url}/withdraw/"), 409, "closed")


def test_changes_asked_for_wait_for_the_proposer(change_proposal: Proposal, curator: User) -> None:
    url = f"/api/proposals/{change_proposal.pk}"
    body = assert_error(client_for(curator).post(f"{url}/request-changes/", {}, format="json"), 400)
    assert body["errors"][0]["path"] == "message"
    response = client_for(curator).post(
        f"{url}/request-changes/", {"message": "Add a photo of the card."}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "changes_requested"
    assert_error(client_for(curator).post(f"{url}/accept/"), 409, "closed")
    assert_error(
        client_for(curator).post(f"{url}/request-changes/", {"message": "again"}, format="json"),
        409,
        "closed",
    )


def test_the_proposer_withdraws(change_proposal: Proposal, proposer: User) -> None:
    response = client_for(proposer).post(f"/api/proposals/{change_proposal.pk}/withdraw/")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    change_proposal.refresh_from_db()
    assert change_proposal.status == ProposalStatus.WITHDRAWN


# --------------------------------------------------------------------------------------------
# A stale proposal never overwrites a newer revision
# --------------------------------------------------------------------------------------------


def _edit(card: Card, staff: User, **changes: Any) -> Card:
    return card_update(
        card=card, actor=staff, document={**card.document, **changes}, base_revision=card.revision
    )


def test_a_stale_proposal_needs_a_review_then_keeps_the_newer_field(
    change_proposal: Proposal, curator: User, staff: User, generic_guy: Card
) -> None:
    base = change_proposal.base_revision
    assert base is not None
    edited = _edit(generic_guy, staff, level=15)  # another field than the proposal's
    url = f"/api/proposals/{change_proposal.pk}"
    detail = client_for(curator).get(f"{url}/").json()
    assert detail["stale"] is True and detail["review"]["current_revision"] == base + 1
    rows = {row["key"]: row for row in detail["review"]["three_way"]}
    assert rows["level"]["base"] == 14 and rows["level"]["current"] == 15
    assert rows["level"]["proposed"] == 14 and rows["level"]["conflict"] is False
    assert rows["treasures"]["current"] is None and rows["treasures"]["proposed"] == 2
    # Without a review of the current revision (or with an old one): 409, nothing written.
    body = assert_error(client_for(curator).post(f"{url}/accept/"), 409, "stale")
    assert body["errors"][0]["current_revision"] == base + 1
    assert str(base + 1) in body["details"]
    old = client_for(curator).post(f"{url}/accept/", {"reviewed_revision": base}, format="json")
    assert_error(old, 409, "stale")
    generic_guy.refresh_from_db()
    assert generic_guy.revision == edited.revision
    response = client_for(curator).post(
        f"{url}/accept/", {"reviewed_revision": base + 1}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["accepted_revision"] == base + 2
    generic_guy.refresh_from_db()
    assert generic_guy.document["level"] == 15  # the newer revision's field is kept
    assert generic_guy.document["treasures"] == 2


def test_a_stale_proposal_conflicting_in_a_field_writes_nothing(
    change_proposal: Proposal, curator: User, staff: User, generic_guy: Card
) -> None:
    base = change_proposal.base_revision
    assert base is not None
    _edit(generic_guy, staff, treasures=3)  # the same field, another value
    url = f"/api/proposals/{change_proposal.pk}/accept/"
    response = client_for(curator).post(url, {"reviewed_revision": base + 1}, format="json")
    body = assert_error(response, 409, "conflict")
    error = body["errors"][0]
    assert error["path"] == "effects.treasures"
    assert (error["base"], error["current"], error["proposed"]) == (None, 3, 2)
    generic_guy.refresh_from_db()
    assert generic_guy.revision == base + 1 and generic_guy.document["treasures"] == 3
    change_proposal.refresh_from_db()
    assert change_proposal.status == ProposalStatus.OPEN


# --------------------------------------------------------------------------------------------
# Done when (issue 18), through the API
# --------------------------------------------------------------------------------------------


def _completeness(client: APIClient) -> dict[str, Any]:
    body = client.get("/api/sets/munchkin-super/").json()
    assert "completeness" in body, "GET /api/sets/<code>/ has no completeness yet"
    return dict(body["completeness"])


def test_done_when_generic_guys_treasures(
    proposer: User,
    curator: User,
    generic_guy: Card,
    with_treasures: Change,
    tmp_path: Any,
) -> None:
    before = _completeness(APIClient())
    # The fixture knows Generic Guy's Level alone; its Treasures are the one stat missing
    # (the issue: "Generic Guy: Treasures unknown"), so proposing them completes its stats.
    document = with_treasures(generic_guy, 2)
    photo = SimpleUploadedFile("card.jpg", jpeg_with_gps(), content_type="image/jpeg")
    made = client_for(proposer).post(
        "/api/sets/munchkin-super/proposals/",
        {
            "card": str(generic_guy.pk),
            "effects": json.dumps(document),
            "evidence": EVIDENCE,
            "photo": photo,
        },
        format="multipart",
    )
    assert made.status_code == 201, made.content
    proposal = Proposal.objects.get(pk=made.json()["id"])
    with proposal.photo.open("rb") as stored, Image.open(stored) as image:
        assert not image.getexif()
    accepted = client_for(curator).post(f"/api/proposals/{proposal.pk}/accept/")
    assert accepted.status_code == 200, accepted.content
    generic_guy.refresh_from_db()
    revision = CardRevision.objects.get(card=generic_guy, number=generic_guy.revision)
    assert revision.proposed_by == proposer and revision.evidence == EVIDENCE
    after = _completeness(APIClient())
    assert after["stats_known"] == before["stats_known"] + 1
    out = tmp_path / "super.yaml"
    call_command(
        "export_set", "munchkin-super", "--fixture", "--output", str(out), stdout=io.StringIO()
    )
    text = out.read_text()
    entry = text[text.index("name: Generic Guy") :]
    entry = entry[: entry.index("\n  - name:")] if "\n  - name:" in entry else entry
    assert "treasures: 2" in entry, entry


# --------------------------------------------------------------------------------------------
# Conventions shared with the rest of the API
# --------------------------------------------------------------------------------------------


def test_a_session_without_its_csrf_token_is_refused(
    proposer: User, super_catalog: CardSet
) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(proposer)
    response = propose(client, "munchkin-super", monster_document("Forged Foe"))
    assert_error(response, 403)
    assert not Proposal.objects.exists()


def test_an_unknown_proposal_is_the_json_404(proposer: User) -> None:
    body = assert_error(client_for(proposer).get("/api/proposals/999999/"), 404, "not_found")
    assert "999999" in body["details"]


# The endpoints of issue 18, point 7, with the answers each documents.
SCHEMA_OPERATIONS = {
    ("/api/sets/{code}/proposals/", "post"): {"201", "400", "401", "404", "429"},
    ("/api/proposals/", "get"): {"200", "400", "401"},
    ("/api/proposals/{proposal_id}/", "get"): {"200", "401", "404"},
    ("/api/proposals/{proposal_id}/", "patch"): {"200", "400", "403", "404", "409"},
    ("/api/proposals/{proposal_id}/accept/", "post"): {"200", "400", "403", "404", "409"},
    ("/api/proposals/{proposal_id}/reject/", "post"): {"200", "400", "403", "404", "409"},
    ("/api/proposals/{proposal_id}/request-changes/", "post"): {"200", "403", "404", "409"},
    ("/api/proposals/{proposal_id}/withdraw/", "post"): {"200", "403", "404", "409"},
}


def test_the_schema_documents_every_proposal_endpoint(db: None) -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    for (path, method), statuses in SCHEMA_OPERATIONS.items():
        operation = schema["paths"][path][method]
        assert statuses <= set(operation["responses"]), (path, method)
    create = schema["paths"]["/api/sets/{code}/proposals/"]["post"]["requestBody"]["content"]
    assert {"application/json", "multipart/form-data"} <= set(create)
    listed = schema["paths"]["/api/proposals/"]["get"]["responses"]["200"]["content"]
    ref = listed["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert {"object", "total", "has_more", "next_page", "data"} <= set(
        schema["components"]["schemas"][ref]["properties"]
    )


# --------------------------------------------------------------------------------------------
# The proposer's new version
# --------------------------------------------------------------------------------------------


def test_the_proposer_answers_changes_asked_for(
    change_proposal: Proposal, curator: User, proposer: User
) -> None:
    url = f"/api/proposals/{change_proposal.pk}"
    client_for(curator).post(
        f"{url}/request-changes/", {"message": "Which printing?"}, format="json"
    )
    document = {**change_proposal.document, "treasures": 1}
    response = client_for(proposer).patch(
        f"{url}/", {"effects": document, "evidence": "First printing, 2003."}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "open" and body["effects"]["treasures"] == 1
    assert body["evidence"] == "First printing, 2003."
    # A document that does not parse changes nothing.
    bad = {**document, "kind": "monstr"}
    errors = assert_error(
        client_for(proposer).patch(f"{url}/", {"effects": bad, "evidence": "x"}, format="json"),
        400,
    )["errors"]
    assert any(e["path"] == "effects.kind" for e in errors)
    too_long = "x" * (services.MAX_EVIDENCE_CHARS + 1)
    errors = assert_error(
        client_for(proposer).patch(
            f"{url}/", {"effects": document, "evidence": too_long}, format="json"
        ),
        400,
    )["errors"]
    assert errors[0]["path"] == "evidence"
    change_proposal.refresh_from_db()
    assert change_proposal.document["treasures"] == 1


def test_a_stale_proposal_rebased_by_its_proposer_is_accepted_as_is(
    change_proposal: Proposal, curator: User, proposer: User, staff: User, generic_guy: Card
) -> None:
    base = change_proposal.base_revision
    assert base is not None
    edited = _edit(generic_guy, staff, level=15)
    url = f"/api/proposals/{change_proposal.pk}"
    document = {**edited.document, "treasures": 2}
    response = client_for(proposer).patch(
        f"{url}/",
        {"effects": document, "evidence": EVIDENCE, "base_revision": edited.revision},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["stale"] is False and response.json()["base_revision"] == base + 1
    accepted = client_for(curator).post(f"{url}/accept/")
    assert accepted.status_code == 200, accepted.content
    generic_guy.refresh_from_db()
    assert (generic_guy.document["level"], generic_guy.document["treasures"]) == (15, 2)
