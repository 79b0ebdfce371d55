import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from catalog.models import Card, CardRevision, CardSet, CardTag
from tests.conftest import CORE_SET
from tests.factories import monster_document
from validator.engine import SetDocument, load_set_file

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


@pytest.fixture(scope="session")
def core_set() -> SetDocument:
    return load_set_file(CORE_SET)


@pytest.fixture
def core_catalog(db: None) -> None:
    call_command("load_catalog", str(CORE_SET), stdout=io.StringIO())
