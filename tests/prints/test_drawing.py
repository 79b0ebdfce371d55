"""Faces drawn before anyone asks: a saved card's face is queued for the task worker, a load's
faces are drawn by one pass (`draw_faces`), and a page then serves them without drawing."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.management import CommandError, call_command
from django.test import Client

from catalog.models import Card
from catalog.services import card_create, card_update, set_create
from prints import faces
from prints.drawing import faces_draw, faces_missing
from prints.selectors import face_cache_key, face_key
from tests.factories import monster_document
from validator.engine import CardDocumentError

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def face_cache(settings: Any, tmp_path: Path) -> None:
    """An empty faces cache of this test's own."""
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }


def no_drawing_in_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tripwire: drawing a face from now on fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a face was drawn in the request")

    monkeypatch.setattr(faces, "render_face", refuse)


def drawn(card: Card) -> bool:
    return caches["faces"].has_key(face_cache_key(card))


@pytest.mark.django_db
def test_the_pass_draws_each_missing_face_once(core_catalog: None, face_cache: None) -> None:
    cards = list(Card.objects.select_related("card_set"))
    assert len(faces_missing(cards)) == len(cards) == 147  # the core set's distinct cards
    seen: list[Card] = []
    assert faces_draw(cards=cards, workers=2, on_face=seen.append) == 147
    assert sorted(c.pk for c in seen) == sorted(c.pk for c in cards)
    assert faces_missing(cards) == []
    assert faces_draw(cards=cards) == 0


@pytest.mark.django_db
def test_a_grid_after_the_pass_draws_nothing(
    core_catalog: None, face_cache: None, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    faces_draw(cards=list(Card.objects.select_related("card_set")))
    no_drawing_in_requests(monkeypatch)
    page = client.get("/cards/", {"q": "t:monster", "view": "grid"}).content.decode()
    card = Card.objects.select_related("card_set").get(name="Net Troll")
    url = f"/faces/{card.pk}/{face_key(card)}.png"
    assert url in page
    face = client.get(url)
    assert face.status_code == 200 and face["Content-Type"] == "image/png"
    assert b"".join(face) == caches["faces"].get(face_cache_key(card))


@pytest.mark.django_db
def test_a_saved_card_has_its_face_drawn_by_the_worker(
    alice: User, face_cache: None, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = IMMEDIATE  # the task runs as soon as the save commits
    card_set = set_create(owner=alice, code="alice-box", name="Box", visibility="public")
    with django_capture_on_commit_callbacks(execute=True):
        card = card_create(card_set=card_set, actor=alice, document=monster_document())
    assert drawn(card)
    with django_capture_on_commit_callbacks(execute=True):
        card = card_update(
            card=card,
            actor=alice,
            document=monster_document(level=9),
            base_revision=card.revision,
        )
    card = Card.objects.select_related("card_set").get(pk=card.pk)
    assert drawn(card)  # the new document's face, under its new key


@pytest.mark.django_db
def test_nothing_is_queued_when_drawing_ahead_is_off_or_the_save_fails(
    alice: User, face_cache: None, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = IMMEDIATE
    settings.FACES_AHEAD = False
    card_set = set_create(owner=alice, code="alice-box", name="Box", visibility="public")
    with django_capture_on_commit_callbacks(execute=True):
        card = card_create(card_set=card_set, actor=alice, document=monster_document())
    assert not drawn(card)
    settings.FACES_AHEAD = True
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(CardDocumentError, match="already has a card named"),
    ):
        card_create(card_set=card_set, actor=alice, document=monster_document())
    assert callbacks == []  # a refused save queues nothing


@pytest.mark.django_db
def test_a_load_leaves_its_faces_to_the_pass(
    face_cache: None, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.TASKS = IMMEDIATE
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        call_command("load_catalog", str(settings.CATALOG_FIXTURES_DIR / "munchkin-core.yaml"),
                     stdout=io.StringIO())  # fmt: skip
    assert callbacks  # the load was told to every app, which drew no face for it
    cards = list(Card.objects.select_related("card_set"))
    assert len(faces_missing(cards)) == len(cards) == 147
    out = io.StringIO()
    call_command("draw_faces", "--sets", "munchkin-core", "--no-progress", stdout=out)
    assert out.getvalue().startswith("drew 147 faces in ")
    out = io.StringIO()
    call_command("draw_faces", "--no-progress", stdout=out)
    assert "drew 0 faces" in out.getvalue() and "(147 already drawn)" in out.getvalue()


@pytest.mark.django_db
def test_draw_faces_names_an_unknown_set() -> None:
    with pytest.raises(CommandError, match=re.escape("no set with the code(s) nope")):
        call_command("draw_faces", "--sets", "nope", "--no-progress")


@pytest.mark.django_db
@pytest.mark.parametrize("workers", ["-1", "17"])
def test_draw_faces_refuses_a_number_of_threads_out_of_range(workers: str) -> None:
    with pytest.raises(CommandError, match="--workers must be between 1 and 16"):
        call_command("draw_faces", "--workers", workers, "--no-progress")
