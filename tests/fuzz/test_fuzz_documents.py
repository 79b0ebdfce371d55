"""Card documents: every fixture card round-trips; mutated ones parse or name their errors."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORE_SET
from tests.factories import monster_document
from tests.fuzz import assert_names_paths, mutate
from validator.engine import CardDocumentError, dump_card, parse_card, read_yaml

# The slow tier (make test-slow, run by CI): fuzzing at full depth.
pytestmark = pytest.mark.slow

# Each card's document as the set file writes it; its `provenance:` sits beside it, not in it.
CORE_CARDS: list[dict[str, Any]] = [
    {key: value for key, value in card.items() if key != "provenance"}
    for card in read_yaml(CORE_SET.read_text(encoding="utf-8")).data["cards"]
]
SEEDS = [*CORE_CARDS, monster_document()]


def test_every_core_card_round_trips() -> None:
    assert len(CORE_CARDS) > 100
    for document in CORE_CARDS:
        card = parse_card(document)
        assert parse_card(dump_card(card)) == card, document["name"]


def _parse_or_name_errors(document: Any) -> None:
    try:
        card = parse_card(document)
    except CardDocumentError as exc:
        assert_names_paths(exc.errors, "parse_card", document)
        assert str(exc) and exc.lines()
    else:
        # What parses dumps and parses back to the same card.
        assert parse_card(dump_card(card)) == card


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.sampled_from(SEEDS), data=st.data())
def test_mutated_cards_parse_or_name_a_path(seed: dict[str, Any], data: st.DataObject) -> None:
    _parse_or_name_errors(mutate(seed, data, nan=True))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    document=st.dictionaries(
        st.sampled_from(["name", "deck", "kind", "level", "effects", "encoding", "x"])
        | st.text(max_size=8),
        st.none() | st.integers() | st.text(max_size=8) | st.lists(st.integers(), max_size=2),
        max_size=6,
    )
    | st.none()
    | st.lists(st.integers(), max_size=3)
    | st.text(max_size=20)
)
def test_random_documents_parse_or_name_a_path(document: Any) -> None:
    _parse_or_name_errors(document)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(text=st.text(max_size=200))
def test_random_yaml_text_reads_or_names_a_line(text: str) -> None:
    try:
        parsed = read_yaml(text, "fuzz.yaml")
    except CardDocumentError as exc:
        assert_names_paths(exc.errors, "read_yaml")
        return
    if isinstance(parsed.data, dict):
        _parse_or_name_errors(parsed.data)


@pytest.mark.parametrize("name", ["Dwarf", "Elf", "Halfling"])
def test_a_typo_in_a_key_is_named(name: str) -> None:
    document = dict(next(c for c in CORE_CARDS if c["name"] == name))
    document["efects"] = document.pop("effects")
    with pytest.raises(CardDocumentError) as caught:
        parse_card(document)
    assert any("efects" in e.path or "efects" in e.message for e in caught.value.errors)
