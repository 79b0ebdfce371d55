"""The validator: every fixture card is exercised, none fails, and coverage never drops."""

import json
from pathlib import Path
from typing import Any

import pytest

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
    core = table["sets"]["munchkin-core"]
    assert core["cards"] == 147
    assert core["full"] + core["partial"] + core["text_only"] == 147
    assert sum(k["cards"] for k in core["kinds"].values()) == 147
    assert set(table["summary"]) == {"cards", "full", "partial", "text_only", "verified", "failing"}


def test_fixture_paths_exist() -> None:
    assert BASELINE.exists() and Path(FIXTURE_SETS).exists()
