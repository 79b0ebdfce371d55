from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURE_SETS = REPO / "fixtures" / "sets"
CORE_SET = FIXTURE_SETS / "munchkin-core.yaml"


@pytest.fixture(scope="session")
def core_set_path() -> Path:
    return CORE_SET


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """The real hasher is slow on purpose; tests make many users and prove nothing with it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
