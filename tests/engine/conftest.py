from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CORE_SET
from validator.engine.cards import SetDocument, load_set_file, read_yaml


@pytest.fixture(scope="session")
def core_set() -> SetDocument:
    return load_set_file(CORE_SET)


@pytest.fixture(scope="session")
def core_raw_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = read_yaml(Path(CORE_SET).read_text()).data["cards"]
    return cards


def monster(**overrides: Any) -> dict[str, Any]:
    """A minimal valid monster document, changed by the keyword arguments."""
    document: dict[str, Any] = {
        "name": "Test Ogre",
        "deck": "door",
        "kind": "monster",
        "level": 7,
        "treasures": 2,
        "encoding": {"status": "full"},
    }
    document.update(overrides)
    return document
