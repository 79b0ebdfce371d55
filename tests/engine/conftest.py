from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CORE_SET
from tests.factories import monster_document
from validator.engine.cards import SetDocument, load_set_file, read_yaml
from validator.engine.scenario import (
    CardLibrary,
    ScenarioResult,
    library_from_set_files,
    parse_scenario,
    run_scenario,
)


@pytest.fixture(scope="session")
def core_set() -> SetDocument:
    return load_set_file(CORE_SET)


@pytest.fixture(scope="session")
def core_raw_cards() -> list[dict[str, Any]]:
    """Each core card's document as the file writes it. A card's `provenance:` sits beside its
    document, not in it (parse_set takes it out), so it is left out here too."""
    cards: list[dict[str, Any]] = read_yaml(Path(CORE_SET).read_text()).data["cards"]
    return [{key: value for key, value in card.items() if key != "provenance"} for card in cards]


monster = monster_document


@pytest.fixture(scope="session")
def core_library() -> CardLibrary:
    return library_from_set_files(["munchkin-core"])


def scenario(**document: Any) -> dict[str, Any]:
    """A scenario document with the core set and two players unless given."""
    base: dict[str, Any] = {
        "name": "test",
        "sets": ["munchkin-core"],
        "players": [{"name": "Aric", "level": 4}, {"name": "Suzan", "sex": "female"}],
    }
    base.update(document)
    return base


def run(document: dict[str, Any]) -> ScenarioResult:
    return run_scenario(parse_scenario(document))
