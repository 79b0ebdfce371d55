"""Facts computed once per immutable object, such as a card definition's effects by type.

Card definitions never change while a game runs, so what the engine reads from them on every
strength check can be computed once per definition. The caching lives here, apart from the
rules modules: it decides no rule, and the mutation run (docs/mutants.md) plants its bugs in the
rules modules only. A broken memo shows in tests/engine/test_memo.py instead.
"""

from __future__ import annotations

from collections.abc import Callable

_ALL: list[IdentityMemo[object, object]] = []


class IdentityMemo[K, V]:
    """`compute(key)` remembered per object (by identity, so unhashable models work).

    Each entry keeps its key alive, so the `id()` it is filed under cannot be reused by another
    object while the entry exists; the identity test on a hit guards against an entry filed by
    an earlier object anyway. Definitions are few (hundreds per pack), so the table is not
    bounded; `forget_all` empties every table (the mutation run does before each judgement).
    """

    def __init__(self, compute: Callable[[K], V]) -> None:
        self._compute = compute
        self._entries: dict[int, tuple[K, V]] = {}
        _ALL.append(self)  # type: ignore[arg-type]  # every memo, whatever its types

    def __call__(self, key: K) -> V:
        entry = self._entries.get(id(key))
        if entry is not None and entry[0] is key:
            return entry[1]
        value = self._compute(key)
        self._entries[id(key)] = (key, value)
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()


def forget_all() -> None:
    """Empty every memo table, so that the next reads compute their values again."""
    for memo in _ALL:
        memo.clear()
