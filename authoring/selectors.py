"""Reads of the authoring pages: what an author may edit, history and diffs."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

import yaml
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from catalog.models import Card, CardRevision, CardSet
from catalog.permissions import can_edit_set
from catalog.selectors import visible_sets

Viewer = User | AnonymousUser


def editable_set(*, code: str, actor: Viewer, include_deleted: bool = False) -> CardSet:
    """A set the actor may change. 404 when they may not even see it, 403 when they may see
    but not change it. Deleted sets only with `include_deleted` (to restore them)."""
    sets = CardSet.everything if include_deleted else CardSet.objects
    card_set = sets.filter(code=code).first()
    if card_set is None:
        raise Http404(f"No set with code {code!r}")
    visible = visible_sets(viewer=actor).filter(pk=card_set.pk).exists()
    if card_set.deleted_at is not None:
        visible = actor.is_authenticated and card_set.owner_id == actor.pk
    if not visible:
        raise Http404(f"No set with code {code!r}")
    if not can_edit_set(actor, card_set):
        raise PermissionDenied(f"you may not change the set {card_set.code!r}")
    return card_set


def editable_card(*, code: str, slug: str, actor: Viewer) -> Card:
    card_set = editable_set(code=code, actor=actor)
    card = Card.objects.select_related("card_set").filter(card_set=card_set, slug=slug).first()
    if card is None:
        raise Http404("No such card")
    return card


def trash(*, actor: Viewer) -> tuple[list[CardSet], list[Card]]:
    """The actor's deleted sets, and the deleted cards of their live sets."""
    if not actor.is_authenticated:
        return [], []
    sets = list(
        CardSet.everything.filter(owner_id=actor.pk, deleted_at__isnull=False).order_by(
            "-deleted_at"
        )
    )
    cards = list(
        Card.everything.select_related("card_set")
        .filter(
            card_set__owner_id=actor.pk,
            card_set__deleted_at__isnull=True,
            deleted_at__isnull=False,
        )
        .order_by("-deleted_at")
    )
    return sets, cards


def document_yaml(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


@dataclass(frozen=True)
class DiffLine:
    kind: str  # "add", "del", "ctx", "hunk"
    text: str


def document_diff(before: dict[str, Any] | None, after: dict[str, Any]) -> list[DiffLine]:
    """A unified diff of two documents' YAML, line by line, for display."""
    old = document_yaml(before).splitlines() if before is not None else []
    new = document_yaml(after).splitlines()
    lines = []
    for line in list(difflib.unified_diff(old, new, lineterm="", n=2))[2:]:
        kind = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "ctx")
        lines.append(DiffLine(kind, line))
    return lines


@dataclass(frozen=True)
class RevisionEntry:
    revision: CardRevision
    diff: list[DiffLine]
    current: bool


def card_history(*, card: Card) -> list[RevisionEntry]:
    """Every revision, newest first, each with what it changed from the one before."""
    revisions = list(
        CardRevision.objects.filter(card=card).select_related("changed_by").order_by("number")
    )
    entries = []
    previous: dict[str, Any] | None = None
    for revision in revisions:
        entries.append(
            RevisionEntry(
                revision,
                document_diff(previous, revision.document),
                revision.number == card.revision,
            )
        )
        previous = revision.document
    return entries[::-1]
