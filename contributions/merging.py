"""The three-way difference of a card's documents: the revision a proposal started from
(base), the card as it is now (current) and the proposal. Compared key by key at the top of
the document (a card's stats, effects, notes...), the grain a curator reviews at."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# A key a document does not have (distinct from a key set to null).
ABSENT: Any = object()


@dataclass(frozen=True)
class FieldRow:
    """One top-level key in the three documents, and what a merge does with it."""

    key: str
    base: Any
    current: Any
    proposed: Any

    @property
    def proposal_changes(self) -> bool:
        return bool(self.proposed != self.base)

    @property
    def card_changed(self) -> bool:
        """The card has changed this key since the proposal's base revision."""
        return bool(self.current != self.base)

    @property
    def conflict(self) -> bool:
        """Both changed the key, to different values: a merge cannot choose."""
        return self.proposal_changes and self.card_changed and self.proposed != self.current


@dataclass(frozen=True)
class ThreeWay:
    rows: list[FieldRow]
    # The current document with the proposal's changes applied; None when any key conflicts.
    merged: dict[str, Any] | None
    conflicts: list[FieldRow] = field(default_factory=list)

    @property
    def changed_rows(self) -> list[FieldRow]:
        """The keys that differ in any of the three documents."""
        return [r for r in self.rows if r.proposal_changes or r.card_changed]


def _keys(*documents: dict[str, Any]) -> list[str]:
    seen: dict[str, None] = {}
    for document in documents:
        for key in document:
            seen.setdefault(key, None)
    return list(seen)


def three_way(base: dict[str, Any], current: dict[str, Any], proposed: dict[str, Any]) -> ThreeWay:
    """Apply what the proposal changed (base -> proposed) to the current document. A key the
    proposal left alone keeps the current value, so a newer revision is never overwritten;
    a key both changed differently is a conflict and nothing is merged."""
    rows = [
        FieldRow(
            key,
            base.get(key, ABSENT),
            current.get(key, ABSENT),
            proposed.get(key, ABSENT),
        )
        for key in _keys(current, proposed, base)
    ]
    conflicts = [row for row in rows if row.conflict]
    if conflicts:
        return ThreeWay(rows, None, conflicts)
    merged: dict[str, Any] = {}
    for row in rows:
        value = row.proposed if row.proposal_changes else row.current
        if value is not ABSENT:
            merged[row.key] = value
    return ThreeWay(rows, merged)
