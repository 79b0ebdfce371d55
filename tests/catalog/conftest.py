import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalog.models import Card, CardRevision, CardSet, CardTag
from tests.factories import monster_document

card_doc = monster_document


@pytest.fixture
def write_set(tmp_path: Path) -> Callable[..., Path]:
    """Writes a small set file (JSON is valid YAML) and returns its path."""

    def write(
        cards: list[dict[str, Any]], code: str = "test-set", filename: str | None = None
    ) -> Path:
        path = tmp_path / (filename or f"{code}.yaml")
        document = {"set": {"code": code, "name": code.title()}, "cards": cards}
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
