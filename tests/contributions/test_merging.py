"""The three-way merge of a stale proposal, on plain documents (no database)."""

from catalog.provenance import changed_fields
from contributions.merging import ABSENT, three_way

BASE = {"name": "Generic Guy", "kind": "monster", "level": 14, "treasures": None}


def test_a_field_only_the_proposal_changed_is_applied() -> None:
    current = {**BASE, "notes": "added by a newer revision"}
    proposed = {**BASE, "treasures": 4}
    result = three_way(BASE, current, proposed)
    assert result.merged == {**current, "treasures": 4}
    assert result.conflicts == []


def test_a_field_only_the_card_changed_keeps_the_newer_value() -> None:
    current = {**BASE, "level": 15}
    proposed = {**BASE, "treasures": 4}
    result = three_way(BASE, current, proposed)
    assert result.merged is not None
    assert result.merged["level"] == 15
    assert result.merged["treasures"] == 4


def test_both_changing_a_field_differently_is_a_conflict_and_merges_nothing() -> None:
    current = {**BASE, "treasures": 3}
    proposed = {**BASE, "treasures": 4}
    result = three_way(BASE, current, proposed)
    assert result.merged is None
    [row] = result.conflicts
    assert (row.key, row.base, row.current, row.proposed) == ("treasures", None, 3, 4)


def test_both_making_the_same_change_is_no_conflict() -> None:
    same = {**BASE, "treasures": 4}
    result = three_way(BASE, same, dict(same))
    assert result.merged == same


def test_a_key_the_proposal_removes_is_removed_and_one_it_adds_is_added() -> None:
    base = {**BASE, "notes": "old"}
    proposed = {k: v for k, v in base.items() if k != "notes"} | {"tags": ["Villain"]}
    current = {**base, "level": 16}
    result = three_way(base, current, proposed)
    assert result.merged is not None
    assert "notes" not in result.merged
    assert result.merged["tags"] == ["Villain"]
    assert result.merged["level"] == 16
    removed = next(r for r in result.rows if r.key == "notes")
    assert removed.proposed is ABSENT


def test_a_proposals_changed_fields_are_what_differs() -> None:
    assert changed_fields(BASE, {**BASE, "treasures": 4}) == ["treasures"]
    assert changed_fields(None, {"name": "X"}) == ["name"]
