"""The memo tables: a value is computed once per object, by identity, until forgotten."""

from __future__ import annotations

from validator.engine import forget_memos
from validator.engine.memo import IdentityMemo


class Unhashable:
    __hash__ = None  # type: ignore[assignment]  # like a pydantic card model

    def __init__(self, value: int) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unhashable) and other.value == self.value


def test_a_value_is_computed_once_per_object() -> None:
    calls: list[int] = []

    def compute(key: Unhashable) -> int:
        calls.append(key.value)
        return key.value * 10

    memo = IdentityMemo(compute)
    first, equal_twin = Unhashable(3), Unhashable(3)
    assert memo(first) == 30
    assert memo(first) == 30
    assert calls == [3]
    # An equal but distinct object gets its own entry: identity, not equality, is the key.
    assert memo(equal_twin) == 30
    assert calls == [3, 3]
    assert len(memo) == 2


def test_an_entry_keeps_its_object_alive_so_its_id_is_never_reused() -> None:
    memo: IdentityMemo[Unhashable, int] = IdentityMemo(lambda key: key.value)
    ids = set()
    for value in range(50):
        key = Unhashable(value)
        ids.add(id(key))
        assert memo(key) == value  # a stale entry under a reused id would answer wrongly
    assert len(ids) == 50


def test_forget_memos_empties_every_table() -> None:
    calls: list[int] = []

    def compute(key: Unhashable) -> int:
        calls.append(key.value)
        return key.value

    memo = IdentityMemo(compute)
    key = Unhashable(7)
    memo(key)
    forget_memos()
    assert len(memo) == 0
    memo(key)
    assert calls == [7, 7]
