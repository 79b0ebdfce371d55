"""validate_cards and the stored reports, the pages that show them, and saved cards checked
in the background (catalog/validation.py)."""

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from catalog import validation
from catalog.models import Card, CardSet
from catalog.services import card_create, card_update, set_create
from tests.conftest import FIXTURE_SETS
from tests.factories import monster_document
from validator.checks import check_version
from validator.engine import CardDocumentError, document_hash
from validator.models import CardCheck

pytestmark = pytest.mark.django_db


def validate(*args: str) -> str:
    out = io.StringIO()
    call_command("validate_cards", *args, stdout=out)
    return out.getvalue()


def test_json_report_has_the_promised_shape(core_catalog: None) -> None:
    report = json.loads(validate("--set", "munchkin-core", "--json"))
    keys = {"cards", "full", "partial", "text_only", "verified", "failing"}
    assert set(report["summary"]) == keys
    assert keys <= set(report["sets"]["munchkin-core"])
    assert report["summary"]["cards"] == 147 and report["summary"]["failing"] == 0
    card = report["cards"][0]
    assert {"set", "name", "encoding", "status", "messages"} <= set(card)
    # The checks of the effect language on synthetic cards come with every report.
    assert report["language"] and all(r["set"] == "language" for r in report["language"])
    assert all(r["status"] == "pass" for r in report["language"])


def test_text_report_has_a_line_per_card_and_a_coverage_table(core_catalog: None) -> None:
    text = validate("--set", "munchkin-core")
    assert "PASS munchkin-core / Lame Goblin" in text
    assert "PASS language / Theft granted by Powers" in text
    assert "monster_enhancer" in text and text.strip().splitlines()[-1].startswith("all")


def test_one_card_and_markdown(core_catalog: None) -> None:
    text = validate("--card", "lame goblin", "--markdown")
    assert "| munchkin-core | Lame Goblin | full | pass |" in text
    assert "| kind | cards | full | partial | text_only | verified | failing |" in text


def test_reports_are_stored_and_reused(core_catalog: None) -> None:
    validate("--set", "munchkin-core")
    assert CardCheck.objects.filter(check_version=check_version()).count() == 147
    with CaptureQueriesContext(connection) as queries:
        validate("--set", "munchkin-core")
    assert len(queries) <= 3  # the cards, the stored reports, nothing written
    goblin = Card.objects.get(name="Lame Goblin")
    stored = CardCheck.objects.get(document_hash=goblin.document_hash)
    assert stored.status == "pass" and stored.verified


def test_a_failing_card_makes_the_command_fail(core_catalog: None) -> None:
    troll = Card.objects.get(name="Net Troll")
    CardCheck.objects.create(
        document_hash=troll.document_hash,
        check_version=check_version(),
        card_name="Net Troll",
        kind="monster",
        encoding="full",
        status="fail",
        messages=["fail: planted"],
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 card"):
        call_command("validate_cards", "--card", "Net Troll", stdout=out)
    assert "FAIL munchkin-core / Net Troll" in out.getvalue() and "planted" in out.getvalue()


def test_no_cards_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="load_catalog"):
        validate()


def test_card_page_shows_the_badge_and_messages(client: Client, core_catalog: None) -> None:
    goblin = Card.objects.get(name="Lame Goblin")
    page = client.get(f"/sets/munchkin-core/{goblin.slug}/").content.decode()
    assert 'data-testid="validation">unchecked' in page
    validate("--set", "munchkin-core")
    page = client.get(f"/sets/munchkin-core/{goblin.slug}/").content.decode()
    assert 'data-testid="validation">pass' in page and "Verified" in page
    # Fully encoded since the core audit (issue 24), the Tuba of Charm is verified too.
    tuba = Card.objects.get(name="Tuba of Charm")
    page = client.get(f"/sets/munchkin-core/{tuba.slug}/").content.decode()
    assert 'data-testid="validation">pass' in page and "Verified" in page


def test_a_partial_card_page_says_what_is_not_encoded(client: Client, db: None) -> None:
    # The core set has no partly encoded card left; Booty's Snark is one (its set file).
    call_command("load_catalog", str(FIXTURE_SETS / "munchkin-booty.yaml"), stdout=io.StringIO())
    validate("--set", "munchkin-booty", "--card", "Snark")
    snark = Card.objects.get(card_set__code="munchkin-booty", name="Snark")
    page = client.get(f"/sets/munchkin-booty/{snark.slug}/").content.decode()
    assert "not yet encoded" in page


def test_set_page_shows_the_coverage_table(client: Client, core_catalog: None) -> None:
    validate("--set", "munchkin-core")
    page = client.get("/sets/munchkin-core/").content.decode()
    assert 'data-testid="coverage"' in page
    assert '<th scope="row">All</th><td>147</td>' in page.replace("\n", "")


def test_validation_benchmark_leaves_the_reports_as_they_were(core_catalog: None) -> None:
    validate("--card", "Lame Goblin")
    before = list(CardCheck.objects.values_list("document_hash", flat=True))
    out = io.StringIO()
    call_command("bench_validation", "--rounds", "1", stdout=out)
    text = out.getvalue()
    assert "validated 147 cards (0 failing)" in text and "cards/s" in text and "warm:" in text
    assert list(CardCheck.objects.values_list("document_hash", flat=True)) == before


# --------------------------------------------------------------------------------------------
# Saved cards checked in the background

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def api_as(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def her_set(alice: User) -> CardSet:
    return set_create(owner=alice, code="alice-queue", name="Queued cards")


def reported(card_id: int) -> CardCheck | None:
    card = Card.objects.get(pk=card_id)
    return CardCheck.objects.filter(
        document_hash=card.document_hash, check_version=check_version()
    ).first()


def test_an_api_save_answers_unchecked_and_the_card_gets_its_report_after_the_commit(
    alice: User, her_set: CardSet, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = IMMEDIATE  # the task runs as soon as it is queued
    client = api_as(alice)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(
            "/api/cards/",
            {"set": her_set.code, "effects": monster_document("Queued Ogre")},
            format="json",
        )
    assert response.status_code == 201, response.content
    body = response.json()
    # The answer comes before the check, and says so.
    assert body["validation"] == "unchecked" and reported(body["id"]) is None
    assert response["Location"].endswith(f"/api/cards/{body['id']}/?set={her_set.code}")
    for committed in queued:  # the transaction commits: the task is queued, and run at once
        committed()
    # A plain level 7 monster with its two treasures plays as encoded.
    check = reported(body["id"])
    assert check is not None and check.status == "pass" and check.verified
    again = client.get(response["Location"]).json()
    assert again["validation"] == "pass"
    page = Client()
    page.force_login(alice)
    html = page.get(f"/sets/{her_set.code}/queued-ogre/").content.decode()
    assert 'data-testid="validation">pass<' in html


def test_an_update_is_checked_at_the_document_it_saved(
    alice: User, her_set: CardSet, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = IMMEDIATE
    client = api_as(alice)
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(
            "/api/cards/",
            {"set": her_set.code, "effects": monster_document("Growing Ogre")},
            format="json",
        ).json()
    assert created["validation"] == "unchecked"
    with django_capture_on_commit_callbacks(execute=True):
        updated = client.patch(
            f"/api/cards/{created['id']}/",
            {"revision": 1, "effects": monster_document("Growing Ogre", level=12)},
            format="json",
        )
    assert updated.status_code == 200 and updated.json()["validation"] == "unchecked"
    assert reported(created["id"]) is not None
    # Saving a document checked before answers with its verdict at once.
    with django_capture_on_commit_callbacks(execute=False):
        back = client.patch(
            f"/api/cards/{created['id']}/",
            {"revision": 2, "effects": monster_document("Growing Ogre")},
            format="json",
        )
    assert back.json()["validation"] == "pass"


def test_a_task_run_after_a_newer_save_checks_the_newer_document(
    alice: User, her_set: CardSet, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = IMMEDIATE
    with django_capture_on_commit_callbacks(execute=False) as first:
        card = card_create(card_set=her_set, actor=alice, document=monster_document("Late"))
    with django_capture_on_commit_callbacks(execute=False):
        card_update(
            card=card, actor=alice, document=monster_document("Late", level=3), base_revision=1
        )
    for committed in first:  # the first save's task runs only now
        committed()
    card.refresh_from_db()
    assert card.document["level"] == 3 and reported(card.pk) is not None
    # Nothing was stored for the document the card no longer has.
    first_hash = document_hash(monster_document("Late"))
    assert not CardCheck.objects.filter(document_hash=first_hash).exists()


def test_a_failed_task_leaves_the_card_unchecked(
    alice: User,
    her_set: CardSet,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.TASKS = IMMEDIATE

    def unreachable(**kwargs: Any) -> None:
        # A database that fails mid-task cannot be had here; this is where it would fail.
        raise DatabaseError("the database went away")

    monkeypatch.setattr(validation, "catalog_cards", unreachable)
    with django_capture_on_commit_callbacks(execute=True):
        card = card_create(card_set=her_set, actor=alice, document=monster_document("Unlucky"))
    assert reported(card.pk) is None
    assert api_as(alice).get(f"/api/cards/{card.pk}/").json()["validation"] == "unchecked"
    # validate_cards makes up for it.
    monkeypatch.undo()
    validate("--set", her_set.code)
    assert reported(card.pk) is not None


# The worker closes its connections as it ends: the test's data must be committed.
@pytest.mark.django_db(transaction=True)
def test_with_the_database_queue_the_task_is_kept_with_the_card(
    alice: User, her_set: CardSet, settings: Any
) -> None:
    settings.TASKS = DATABASE_QUEUE
    card = card_create(card_set=her_set, actor=alice, document=monster_document("Kept"))
    # Written in the card's own transaction: no commit hook to miss.
    queued = DBTaskResult.objects.filter(task_path="catalog.validation.validate_saved_cards")
    assert [row.args_kwargs["args"] for row in queued] == [[[card.pk]]]
    # A save that is refused (the name is taken) leaves no task behind.
    with pytest.raises(CardDocumentError):
        card_create(card_set=her_set, actor=alice, document=monster_document("Kept"))
    assert queued.count() == 1
    call_command("db_worker", "--batch", "--no-startup-delay", stdout=io.StringIO())
    assert queued.get().status == "SUCCESSFUL"
    check = reported(card.pk)
    assert check is not None and check.status == "pass"
