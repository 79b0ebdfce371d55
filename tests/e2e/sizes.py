"""The page sizes of the browser tests, split between the two tiers.

Each browser test driven at several sizes runs at the phone's (360 px, where layouts break
first) in the quick tier, `make test`, and at every other size in the slow tier, so the quick
loop drives each feature once and CI (`make test-all`) drives each at every size.
"""

from collections.abc import Iterable
from typing import Any

import pytest

QUICK_SIZES = ("phone", 360)


def by_tier(sizes: Iterable[Any]) -> list[Any]:
    """`sizes` as test parameters: the phone's in the quick tier, the others marked slow."""
    return [
        pytest.param(size) if size in QUICK_SIZES else pytest.param(size, marks=pytest.mark.slow)
        for size in sizes
    ]
