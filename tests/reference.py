"""The shared reference dataset (../shared/reference beside the checkout): tests that compare
the fixtures with it skip on a developer's clone without it, and fail in CI, which has it."""

import os
from pathlib import Path

import pytest

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"

# .ci/run exports CARDSITE_REQUIRE_REFERENCE=1; hosted CI services set CI.
REQUIRED = bool(os.environ.get("CARDSITE_REQUIRE_REFERENCE") or os.environ.get("CI"))


def reference_file(name: str) -> Path:
    """The reference file `name`; a skip without it, or a failure where it is required (a
    comparison that never ran must not pass as one that did)."""
    path = REFERENCE / name
    if not path.exists():
        message = f"{path} is missing: shared/reference is not beside this checkout"
        if REQUIRED:
            pytest.fail(message + " (CARDSITE_REQUIRE_REFERENCE or CI is set)")
        pytest.skip(message)
    return path
