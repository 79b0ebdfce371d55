"""Stored verdicts are keyed by the code that made them (issue 36): a rules change in the
engine's source checks every card again, and until then no page shows a verdict of other code as
the card's (validator.checks.check_version, catalog/validation.py)."""

import io
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django_tasks_db.models import DBTaskResult

from catalog import validation
from catalog.models import Card, CardSet
from catalog.services import card_create, set_create
from tests.factories import monster_document
from tests.validator.planting import planted_in_source
from validator.checks import check_version
from validator.models import CardCheck

pytestmark = pytest.mark.django_db

# The bug of the issue: an Undead-only condition holding against every monster. The Cleric's
# Turning (+3 per card discarded against Undead) then helps against a plain monster too.
UNDEAD_ONLY = "condition.monster_tag in m.monster.tags for m in monsters"
EVERY_MONSTER = "True for m in monsters"
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
RECHECK_TASK = "catalog.validation.validate_stale_cards"


def validate_cards(*args: str) -> str:
    out = io.StringIO()
    call_command("validate_cards", *args, stdout=out)
    return out.getvalue()


def cleric_reports() -> dict[str, str]:
    cleric = Card.objects.get(name="Cleric")
    return dict(
        CardCheck.objects.filter(document_hash=cleric.document_hash).values_list(
            "check_version", "status"
        )
    )


def test_a_rules_change_in_the_engines_source_is_not_hidden_by_a_stored_verdict(
    core_catalog: None, tmp_path: Path
) -> None:
    assert "PASS munchkin-core / Cleric" in validate_cards("--card", "Cleric")
    real = check_version()
    assert cleric_reports() == {real: "pass"}

    # What the issue saw: the engine plays the change, the key does not see it, and a plain
    # validate_cards reads the stored verdict back: green.
    with planted_in_source(
        tmp_path / "unseen", "strength", "holds", UNDEAD_ONLY, EVERY_MONSTER, hashed=False
    ):
        assert check_version() == real
        assert "PASS munchkin-core / Cleric" in validate_cards("--card", "Cleric")

    # The change in source is another key: the same plain command checks the card again.
    with planted_in_source(
        tmp_path / "deployed", "strength", "holds", UNDEAD_ONLY, EVERY_MONSTER
    ) as changed:
        assert EVERY_MONSTER in changed.read_text()
        planted = check_version()
        assert planted != real
        out = io.StringIO()
        with pytest.raises(CommandError, match="1 card"):
            call_command("validate_cards", "--card", "Cleric", stdout=out)
        assert "FAIL munchkin-core / Cleric" in out.getvalue()
        # The earlier verdict is kept as history, under the code that made it.
        assert cleric_reports() == {real: "pass", planted: "fail"}

    # Back on the real code, its own report is current again (reused, not checked again).
    assert check_version() == real
    assert "PASS munchkin-core / Cleric" in validate_cards("--card", "Cleric")
    assert cleric_reports() == {real: "pass", planted: "fail"}


@pytest.fixture
def checked_set(alice: User) -> CardSet:
    """A small set whose two cards were checked by the real code."""
    card_set = set_create(owner=alice, code="alice-stale", name="Stale verdicts")
    for name in ("Stale Ogre", "Stale Troll"):
        card_create(card_set=card_set, actor=alice, document=monster_document(name))
    validate_cards("--set", card_set.code)
    return card_set


def test_a_verdict_of_other_code_is_shown_as_being_rechecked_and_queued_once(
    alice: User, checked_set: CardSet, settings: Any, tmp_path: Path
) -> None:
    settings.TASKS = DATABASE_QUEUE  # the task is kept as a row, run below
    ogre = Card.objects.get(card_set=checked_set, name="Stale Ogre")
    page, api = Client(), Client()
    page.force_login(alice)
    api.force_login(alice)
    card_url = f"/sets/{checked_set.code}/{ogre.slug}/"
    assert 'data-testid="validation">pass<' in page.get(card_url).content.decode()
    queued = DBTaskResult.objects.filter(task_path=RECHECK_TASK)

    # A deploy of other code (here: the same rule written with a pair of brackets more).
    with planted_in_source(tmp_path, "strength", "holds", UNDEAD_ONLY, f"({UNDEAD_ONLY})"):
        html = page.get(card_url).content.decode()
        assert 'data-testid="validation">being re-checked<' in html
        assert "earlier verdict no longer counts" in html and "Before the change: pass" in html
        assert "Verified:" not in html
        # The API says what its contract allows for no current verdict.
        body = api.get(f"/api/cards/{ogre.pk}/?set={checked_set.code}").json()
        assert body["validation"] == "unchecked"
        listed = api.get("/api/cards/", {"q": f"set:{checked_set.code}"}).json()
        assert {c["validation"] for c in listed["data"]} == {"unchecked"}
        set_page = page.get(f"/sets/{checked_set.code}/").content.decode()
        assert 'data-testid="rechecking">2 cards being re-checked' in set_page
        # However many reads show it, one pass is queued for this code.
        for _ in range(3):
            page.get(card_url)
        assert queued.count() == 1
        # The pass (the task, run here) checks every card without a current report.
        assert validation.cards_validate_stale() == 2
        assert 'data-testid="validation">pass<' in page.get(card_url).content.decode()
        assert api.get(f"/api/cards/{ogre.pk}/?set={checked_set.code}").json()["validation"] == (
            "pass"
        )
        assert validation.cards_validate_stale() == 0
        assert queued.count() == 1

    # Back on the real code, its reports are current again: nothing is re-checked or queued.
    assert 'data-testid="validation">pass<' in page.get(card_url).content.decode()
    assert queued.count() == 1


def test_one_recheck_is_queued_per_code(
    checked_set: CardSet, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TASKS = DATABASE_QUEUE
    queued = DBTaskResult.objects.filter(task_path=RECHECK_TASK)
    assert validation.stale_recheck_queue() and not validation.stale_recheck_queue()
    monkeypatch.setattr(validation, "code_hash", lambda: "other-code")
    assert validation.stale_recheck_queue() and not validation.stale_recheck_queue()
    assert queued.count() == 2


def test_a_card_never_checked_queues_no_recheck(
    alice: User, checked_set: CardSet, settings: Any
) -> None:
    """A card saved a moment ago has no report at all: its own check is on its way (catalog/
    validation.py), and reading it queues no pass."""
    settings.TASKS = DATABASE_QUEUE
    fresh = card_create(card_set=checked_set, actor=alice, document=monster_document("Fresh"))
    client = Client()
    client.force_login(alice)
    html = client.get(f"/sets/{checked_set.code}/{fresh.slug}/").content.decode()
    assert 'data-testid="validation">unchecked<' in html
    assert not DBTaskResult.objects.filter(task_path=RECHECK_TASK).exists()
