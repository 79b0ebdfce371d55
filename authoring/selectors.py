"""Reads of the authoring pages: what an author may edit, history and diffs."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Max
from django.urls import reverse
from pydantic import BaseModel

from catalog.models import Card, CardRevision, CardSet
from catalog.selectors import listed_sets, visible_sets
from validator.engine import (
    CHARACTER_KINDS,
    CardDocumentError,
    ConditionBase,
    EffectBase,
    parse_card,
)

# A word a condition may name (the engine's trait names: lower case, no punctuation but ' -).
TRAIT_WORD = re.compile(r"^[a-z][a-z0-9' -]*$")

Viewer = User | AnonymousUser


def author_set(*, code: str, actor: Viewer, include_deleted: bool = False) -> CardSet | None:
    """A set as its author's pages see it: one the actor may see, or None. Deleted sets only
    with `include_deleted` (to restore them), and only their owner's. Whether the actor may
    change it is `catalog.permissions.can_edit_set`."""
    sets = CardSet.everything if include_deleted else CardSet.objects
    card_set = sets.filter(code=code).first()
    if card_set is None:
        return None
    if card_set.deleted_at is not None:
        visible = actor.is_authenticated and card_set.owner_id == actor.pk
    else:
        visible = visible_sets(viewer=actor).filter(pk=card_set.pk).exists()
    return card_set if visible else None


def author_card(*, card_set: CardSet, slug: str) -> Card | None:
    """A live card of the set, by its address, or None."""
    return Card.objects.select_related("card_set").filter(card_set=card_set, slug=slug).first()


def card_named(*, name: str, viewer: Viewer) -> Card | None:
    """A live card of a set listed for the viewer (official, public, their own), by its name
    (any case), for "Start from": official sets first, then the rest, oldest first. Unlisted
    sets are left out, as in every name lookup: a guessed name never finds one."""
    return (
        Card.objects.select_related("card_set")
        .filter(name__iexact=name, card_set__in=listed_sets(viewer=viewer))
        .order_by("-card_set__official", "card_set__pk", "pk")
        .first()
    )


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


# The example cards of the editor's help, per process, with the catalog state they were read
# from: recomputed only when an official card changes.
_examples_cache: dict[str, Any] = {}


def effect_examples() -> dict[str, dict[str, dict[str, str]]]:
    """For each effect type and condition some official card uses, the clearest such card
    (the one with the shortest document): {"effects": {type: {"name", "url"}}, "conditions":
    {key: ...}}. Derived from the catalog, so it follows the cards as they are encoded."""
    cards = Card.objects.filter(card_set__official=True, card_set__deleted_at__isnull=True)
    state = cards.aggregate(count=Count("pk"), changed=Max("updated_at"))
    fingerprint = f"{state['count']}:{state['changed']}"
    if _examples_cache.get("fingerprint") == fingerprint:
        cached: dict[str, dict[str, dict[str, str]]] = _examples_cache["examples"]
        return cached
    best: dict[tuple[str, str], tuple[int, str, str, str]] = {}
    traits: dict[str, set[str]] = {}
    rows = cards.order_by("card_set__code", "pk").values_list(
        "document", "card_set__code", "slug", "name"
    )
    for document, code, slug, name in rows:
        try:
            typed = parse_card(document)
        except CardDocumentError:
            continue  # a stored card the engine no longer reads: no example
        size = len(json.dumps(document))
        for used in set(_uses(typed)):
            if used not in best or size < best[used][0]:
                best[used] = (size, code, slug, name)
        for condition in typed.all_conditions():
            for axis, trait in condition.mentions():
                traits.setdefault(axis, set()).add(trait)
        if typed.kind_name in CHARACTER_KINDS and TRAIT_WORD.match(name.lower()):
            traits.setdefault(typed.kind_name, set()).add(name.lower())  # the Elf card: elf
    examples: dict[str, dict[str, dict[str, str]]] = {"effects": {}, "conditions": {}}
    for (family, key), (_size, code, slug, name) in sorted(best.items()):
        url = reverse("catalog:card_detail", args=[code, slug])
        examples[family][key] = {"name": name, "url": url}
    suggestions = {axis: sorted(names) for axis, names in sorted(traits.items())}
    _examples_cache.update(fingerprint=fingerprint, examples=examples, suggestions=suggestions)
    return examples


def condition_suggestions() -> dict[str, list[str]]:
    """The words the catalog's conditions and character cards use, per condition key (race:
    dwarf, elf...; tag: undead...), for the editor to suggest. Read with `effect_examples`."""
    effect_examples()
    suggestions: dict[str, list[str]] = _examples_cache["suggestions"]
    return suggestions


def _uses(node: Any) -> Iterator[tuple[str, str]]:
    """Every ("effects", type) and ("conditions", key) anywhere in a typed card."""
    if isinstance(node, EffectBase):
        yield ("effects", str(getattr(node, "type")))  # noqa: B009 - every effect has one
    elif isinstance(node, ConditionBase):
        yield ("conditions", node.key)
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from _uses(getattr(node, name))
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from _uses(item)
