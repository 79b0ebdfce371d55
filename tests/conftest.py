from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURE_SETS = REPO / "fixtures" / "sets"
CORE_SET = FIXTURE_SETS / "munchkin-core.yaml"


@pytest.fixture(scope="session")
def core_set_path() -> Path:
    return CORE_SET
