import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.db.backends.utils import CursorWrapper

from catalog.models import Card, CardRevision, CardSet, CardTag
from catalog.services import card_write
from tests.factories import monster_document
from validator.engine import parse_card

card_doc = monster_document


@pytest.fixture
def write_set(tmp_path: Path) -> Callable[..., Path]:
    """Writes a small set file (JSON is valid YAML) and returns its path."""

    def write(
        cards: list[dict[str, Any]],
        code: str = "test-set",
        filename: str | None = None,
        *,
        sources: list[dict[str, Any]] | None = None,
        official: bool | None = None,
    ) -> Path:
        path = tmp_path / (filename or f"{code}.yaml")
        info: dict[str, Any] = {"code": code, "name": code.title()}
        if official is not None:
            info["official"] = official
        document: dict[str, Any] = {"set": info, "cards": cards}
        if sources is not None:
            document["sources"] = sources
        path.write_text(json.dumps(document, indent=1))
        return path

    return write


def database_snapshot() -> dict[str, Any]:
    """Everything the loader may touch, to prove a refused load changed nothing."""
    return {
        "sets": sorted(CardSet.objects.values_list("code", "name", "updated_at")),
        "cards": sorted(Card.objects.values_list("card_set__code", "name", "document_hash")),
        "tags": CardTag.objects.count(),
        "revisions": CardRevision.objects.count(),
    }


@pytest.fixture
def accept_contribution() -> Callable[..., Card]:
    """Does what accepting a proposal does to the catalog (contributions.services): the
    proposed document becomes the card's next revision, made by the curator, recording the
    proposer, their evidence and the proposal's id in the source."""

    def accept(
        card: Card,
        document: dict[str, Any],
        *,
        proposer: User,
        curator: User,
        proposal: int = 7,
        evidence: str = "My own copy of the card, bought in 2006",
    ) -> Card:
        return card_write(
            row=card,
            card_set=card.card_set,
            typed=parse_card(document),
            actor=curator,
            source=f"proposal #{proposal}",
            proposed_by=proposer,
            evidence=evidence,
        )

    return accept


# --------------------------------------------------------------------------------------------
# Completeness and provenance (issue 18): a small official set whose figures a test can work
# out by hand, with a source of each kind and a card of each gap.
# --------------------------------------------------------------------------------------------

TINY_BOX = """\
language: 1
set: {code: tiny-box, name: Tiny Box, cards_in_box: 10, official: true}
sources:
  - {id: rb, kind: rulebook, title: The Tiny Box rulebook, seed: 009_tiny.txt,
     used_for: Levels of the monsters.}
  - {id: gh, kind: code, title: A card game's data files, repo: someone/tiny-data,
     path: data/cards.json, commit: 0123456789abcdef}
  - {id: wiki, kind: web, title: A fan wiki page, url: "https://example.org/tiny-box"}
cards:
  - name: Known Ogre
    deck: door
    kind: monster
    copies: 2
    level: 3
    treasures: 1
    encoding: {status: full}
    provenance: {sources: [rb, gh], confidence: high}
  - name: Half Ogre
    deck: door
    kind: monster
    copies: null
    level: 5
    treasures: null
    notes: A Level 5 foe whose reward is not known.
    encoding: {status: text_only, reason: its reward is not known}
    provenance: {sources: [wiki], confidence: low, name_uncertain: true}
  - name: Mystery Card
    deck: null
    kind: unknown
    copies: null
    notes: A card known by its name alone.
    encoding: {status: text_only, reason: only its name is known}
    provenance: {sources: [wiki], confidence: medium}
  - name: Shiny Hat
    deck: treasure
    kind: item
    copies: 1
    slot: headgear
    bonus: 1
    gold: null
    notes: A hat worth +1; its Gold value is not known.
    encoding: {status: text_only, reason: its Gold value is not known}
    provenance:
      sources: [rb]
      confidence: medium
      contributions:
        - {revision: 2, proposer: zed, curator: yve, accepted_on: 2026-11-20,
           evidence: My own copy of the card., fields: [bonus]}
  - name: Star Role
    deck: null
    kind: role
    copies: 1
    notes: A role dealt at the start, outside both decks and the box's count.
    encoding: {status: full}
"""


@pytest.fixture
def tiny_box(db: None, tmp_path: Path) -> CardSet:
    """The set of TINY_BOX, loaded as load_catalog loads an official set file."""
    path = tmp_path / "tiny-box.yaml"
    path.write_text(TINY_BOX, encoding="utf-8")
    call_command("load_catalog", str(path), stdout=io.StringIO())
    return CardSet.objects.get(code="tiny-box")


def keep_only_indexes(cursor: CursorWrapper, keep: list[str]) -> None:
    """Drop every other index of the cards (in the test's transaction, rolled back after)."""
    if connection.vendor == "postgresql":
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'catalog_card' "
            "AND indexname != 'catalog_card_pkey'"
        )
    else:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND "
            "tbl_name = 'catalog_card' AND sql IS NOT NULL"
        )
    for (index,) in cursor.fetchall():
        if index not in keep:
            cursor.execute(f'DROP INDEX "{index}"')
