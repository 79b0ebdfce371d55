"""The validator: every fixture card is exercised, none fails, and coverage never drops."""

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import FIXTURE_SETS
from tests.factories import monster_document
from validator.checks import CardReport, check_card, check_document, coverage
from validator.engine import CardBase, CardDocumentError, load_set_file, parse_card

BASELINE = FIXTURE_SETS.parent / "validation-baseline.json"


def _fixture_cards() -> list[tuple[str, CardBase]]:
    cards: list[tuple[str, CardBase]] = []
    for path in sorted(FIXTURE_SETS.glob("*.yaml")):
        try:
            cards += [(path.stem, card) for card in load_set_file(path).cards]
        except CardDocumentError:
            continue  # test_the_fixture_sets_parse says where and what
    return cards


CARDS = _fixture_cards()


@pytest.fixture(scope="module")
def reports() -> dict[tuple[str, str], CardReport]:
    return {(code, card.name): check_card(card, code) for code, card in CARDS}


@pytest.mark.parametrize(
    ("set_code", "card"), CARDS, ids=[f"{code}/{card.name}" for code, card in CARDS]
)
def test_card_does_not_fail(
    reports: dict[tuple[str, str], CardReport], set_code: str, card: CardBase
) -> None:
    report = reports[(set_code, card.name)]
    assert report.status != "fail", f"{set_code} / {card.name}: " + "; ".join(report.messages)


def test_verified_cards_never_drop_below_the_baseline(
    reports: dict[tuple[str, str], CardReport],
) -> None:
    baseline: dict[str, dict[str, int]] = json.loads(BASELINE.read_text())
    table = coverage(list(reports.values()))
    for code, wanted in baseline.items():
        verified = table["sets"][code]["verified"]
        assert verified >= wanted["verified"], (
            f"{code}: {verified} verified cards, the baseline says {wanted['verified']}; "
            "a change made cards stop passing their checks"
        )


def test_the_fixture_sets_parse() -> None:
    problems = []
    for path in sorted(FIXTURE_SETS.glob("*.yaml")):
        try:
            load_set_file(path)
        except CardDocumentError as exc:
            problems += exc.lines()
    assert problems == []


def test_a_broken_card_in_a_fixture_is_named(tmp_path: Path) -> None:
    core = FIXTURE_SETS / "munchkin-core.yaml"
    text = core.read_text().replace(
        "  - name: Net Troll\n", "  - name: Net Troll\n    levle: 3\n", 1
    )
    broken = tmp_path / "munchkin-core.yaml"
    broken.write_text(text)
    with pytest.raises(CardDocumentError) as caught:
        load_set_file(broken)
    assert (
        "unknown key 'levle'; did you mean 'level'? (card 'Net Troll')" in caught.value.lines()[0]
    )


def test_an_engine_crash_is_the_cards_failure_with_its_scenario(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from validator.engine import combat

    def explode(*args: Any, **kwargs: Any) -> int:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(combat, "monsters_strength", explode)
    from validator.engine.scenario import runner

    monkeypatch.setattr(runner, "monsters_strength", explode)
    report = check_card(parse_card(monster_document()), "test")
    assert report.status == "fail"
    assert any("engine crashed (ZeroDivisionError: boom" in m for m in report.messages)
    assert report.failing_scenario is not None and "Test Ogre" in report.failing_scenario


def test_a_document_that_does_not_parse_is_reported_with_paths() -> None:
    report = check_document(monster_document(bad_stuff=[{"type": "lose_levls", "amount": 1}]))
    assert report.status == "fail"
    assert report.messages == [
        "fail: bad_stuff[0].type: unknown type 'lose_levls'; did you mean 'lose_levels'?"
    ]


def test_partial_cards_are_incomplete_not_failing() -> None:
    card = parse_card(
        monster_document(
            notes="An ogre with a trick.",
            encoding={"status": "partial", "clauses": ["It does a trick."]},
        )
    )
    report = check_card(card, "test")
    assert report.status == "warn" and not report.verified
    assert "not yet encoded: It does a trick." in report.messages[0]


def test_coverage_counts_per_set_and_kind(reports: dict[tuple[str, str], CardReport]) -> None:
    table = coverage(list(reports.values()))
    # Counted here from the set files as written (yaml alone, no parsing by the engine).
    written = {
        path.stem: yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]
        for path in sorted(FIXTURE_SETS.glob("*.yaml"))
    }
    assert len(written["munchkin-core"]) == 147  # the core set's cards (reference README)
    for code, cards in written.items():
        row = table["sets"][code]
        statuses = Counter(card["encoding"]["status"] for card in cards)
        assert row["cards"] == len(cards), code
        for status in ("full", "partial", "text_only"):
            assert row[status] == statuses[status], (code, status)
        kinds = Counter(card["kind"] for card in cards)
        assert {kind: figures["cards"] for kind, figures in row["kinds"].items()} == kinds, code
        for kind, figures in row["kinds"].items():
            of_kind = [card for card in cards if card["kind"] == kind]
            assert figures["full"] == sum(c["encoding"]["status"] == "full" for c in of_kind)
    summary = table["summary"]
    assert summary["cards"] == sum(len(cards) for cards in written.values())
    assert summary["failing"] == sum(r.status == "fail" for r in reports.values())
    assert summary["verified"] == sum(r.verified for r in reports.values())


def test_fixture_paths_exist() -> None:
    assert BASELINE.exists() and Path(FIXTURE_SETS).exists()
