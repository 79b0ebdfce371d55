from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CORE_SET
from tests.factories import monster_document
from validator.engine.cards import SetDocument, load_set_file, read_yaml


@pytest.fixture(scope="session")
def core_set() -> SetDocument:
    return load_set_file(CORE_SET)


@pytest.fixture(scope="session")
def core_raw_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = read_yaml(Path(CORE_SET).read_text()).data["cards"]
    return cards


monster = monster_document
