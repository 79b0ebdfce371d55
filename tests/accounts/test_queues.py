"""The background queues (accounts/queues.py): a saved card's validation and face go to the
interactive queue, bulk work (simulations) to the default one, and a worker of one queue never
runs the other's work."""

from __future__ import annotations

import io
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from accounts.queues import BULK_QUEUE, INTERACTIVE_QUEUE, QUEUES, interactive
from authoring.transfer import set_import
from catalog.services import card_create, set_create
from catalog.validation import validate_saved_cards
from packs import simulations
from packs.services import pack_build, pack_create
from tests.factories import monster_document
from validator.selectors import checks_for

DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": QUEUES}}
ONE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def test_the_site_lists_both_queues() -> None:
    assert settings.TASKS["default"]["QUEUES"] == QUEUES == [INTERACTIVE_QUEUE, BULK_QUEUE]


def test_a_backend_of_one_queue_runs_interactive_work_on_it(settings: Any) -> None:
    settings.TASKS = ONE_QUEUE
    assert interactive(validate_saved_cards, cards=1).queue_name == BULK_QUEUE
    settings.TASKS = DATABASE
    assert interactive(validate_saved_cards, cards=1).queue_name == INTERACTIVE_QUEUE


def test_work_on_many_cards_is_bulk_however_it_was_asked_for(settings: Any) -> None:
    settings.TASKS = DATABASE
    assert interactive(validate_saved_cards, cards=20).queue_name == INTERACTIVE_QUEUE
    assert interactive(validate_saved_cards, cards=21).queue_name == BULK_QUEUE


@pytest.mark.django_db(transaction=True)
def test_an_imported_set_is_checked_on_the_bulk_queue(alice: User, settings: Any) -> None:
    # An import saves its cards one by one; were each save interactive, a 1,000-card import
    # would hold the interactive workers. However few, an import's cards are bulk work.
    settings.TASKS = DATABASE
    cards = [monster_document(f"Ogre {i}") for i in range(3)]
    text = yaml.safe_dump({"set": {"code": "many", "name": "Many"}, "cards": cards})
    set_import(owner=alice, text=text, source="many.yaml", into=None, visibility="private")
    queues = dict(DBTaskResult.objects.values_list("task_path", "queue_name"))
    assert queues == {
        "catalog.validation.validate_saved_cards": BULK_QUEUE,
        "prints.drawing.draw_faces": BULK_QUEUE,
    }


def _worker(queue_name: str) -> None:
    call_command(
        "db_worker",
        *("--batch", "--no-startup-delay", "--queue-name", queue_name),
        stdout=io.StringIO(),
    )


# The worker closes its connections as it ends: the test's data must be committed.
@pytest.mark.django_db(transaction=True)
def test_a_saved_card_is_checked_by_the_interactive_worker_never_behind_a_simulation(
    alice: User, core_catalog: None, settings: Any
) -> None:
    settings.TASKS = DATABASE
    pack = pack_create(actor=None, built=pack_build(actor=None, set_codes=["munchkin-core"]))
    simulation = simulations.simulation_start(pack=pack, actor=alice, games=5, address="x")
    her_set = set_create(owner=alice, code="hers", name="Hers")
    card = card_create(card_set=her_set, actor=alice, document=monster_document("Quick"))
    queues = dict(DBTaskResult.objects.values_list("task_path", "queue_name"))
    assert queues == {
        "packs.simulations.run_simulation": BULK_QUEUE,
        "catalog.validation.validate_saved_cards": INTERACTIVE_QUEUE,
        "prints.drawing.draw_faces": INTERACTIVE_QUEUE,
    }
    # The interactive worker runs the card's tasks and leaves the simulation alone...
    _worker(INTERACTIVE_QUEUE)
    statuses = dict(DBTaskResult.objects.values_list("queue_name", "status").distinct())
    assert statuses == {INTERACTIVE_QUEUE: "SUCCESSFUL", BULK_QUEUE: "READY"}
    assert card.document_hash in checks_for(document_hashes=[card.document_hash])
    simulation.refresh_from_db()
    assert simulation.status == "queued"
    # ...which the bulk worker runs.
    _worker(BULK_QUEUE)
    simulation.refresh_from_db()
    assert simulation.status == "done"
