import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

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
