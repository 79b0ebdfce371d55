"""The runner: coverage is earned by a run that passed with an expectation, never declared."""

from typing import Any

import pytest

from tests.factories import monster_document
from validator.checks.oracle import Victim
from validator.checks.references import library_for
from validator.checks.reports import CardReport
from validator.checks.runner import (
    CheckContext,
    NoExpectation,
    expect_values,
    table_matches,
)
from validator.engine import parse_card

# The Test Ogre is Level 7 with no bonus: its strength against anyone is 7 (the factory's
# document, not the engine, says so).
OGRE_LEVEL = 7


@pytest.fixture
def ctx() -> CheckContext:
    card = parse_card(monster_document())
    report = CardReport("test", card.name, card.kind_name, "full")
    return CheckContext(card, "test", report, library_for(card, "test"))


def _fight(**expect: Any) -> dict[str, Any]:
    return {
        "players": [{"name": "Hero", "level": 1}, {"name": "Rival", "level": 1}],
        "combat": {"fighter": "Hero", "monsters": ["Test Ogre"]},
        **({"expect": expect} if expect else {}),
    }


def test_a_run_without_an_expectation_cannot_cover(ctx: CheckContext) -> None:
    with pytest.raises(NoExpectation, match="cannot cover"):
        ctx.run("no expectation", _fight(), covers=["monster"])
    assert ctx.covered == set() and ctx.report.scenarios_run == 0


def test_a_run_with_only_the_documents_expectation_covers(ctx: CheckContext) -> None:
    ctx.run("expected in the document", _fight(monster_strength=OGRE_LEVEL), covers=["monster"])
    assert ctx.covered == {"monster"} and ctx.report.status == "pass"


def test_a_passing_run_covers_and_a_failing_one_fails_the_card(ctx: CheckContext) -> None:
    ctx.run("right", _fight(), expect_values(monster_strength=OGRE_LEVEL), covers=["monster"])
    assert ctx.covered == {"monster"}
    ctx.run("wrong", _fight(), expect_values(monster_strength=OGRE_LEVEL + 1), covers=["kill"])
    assert ctx.covered == {"monster"}
    assert ctx.report.status == "fail"
    assert ctx.report.messages == [
        f"fail: wrong: monster_strength: expected {OGRE_LEVEL + 1}, got {OGRE_LEVEL}"
    ]


def test_a_group_covers_only_when_every_run_in_it_passed(ctx: CheckContext) -> None:
    with ctx.together(["kill"]):
        ctx.run("one", _fight(), expect_values(monster_strength=OGRE_LEVEL))
        ctx.run("two", _fight(), expect_values(fighter_strength=1))
    assert ctx.covered == {"kill"}
    with ctx.together(["monster"]):
        ctx.run("one", _fight(), expect_values(monster_strength=OGRE_LEVEL))
        ctx.run("two", _fight(), expect_values(fighter_strength=2))
    assert ctx.covered == {"kill"}


def test_an_empty_group_or_one_not_staged_covers_nothing(ctx: CheckContext) -> None:
    with ctx.together(["kill"]):
        pass
    with ctx.together(["monster"]):
        ctx.run("one", _fight(), expect_values(monster_strength=OGRE_LEVEL))
        ctx.unexercised()
    assert ctx.covered == set()


def test_a_legal_run_whose_result_is_not_predicted_covers_nothing(ctx: CheckContext) -> None:
    victim = Victim(1, [], 0, set(), exact=False)
    ctx.run("unpredicted", _fight(), table_matches(victim, [victim]), covers=["monster"])
    assert ctx.report.status == "pass" and ctx.covered == set()
    exact = Victim(1, [], 0, set())
    ctx.run("predicted", _fight(), table_matches(exact, [exact]), covers=["monster"])
    assert ctx.covered == {"monster"}


def test_expect_values_must_name_something() -> None:
    with pytest.raises(NoExpectation):
        expect_values()
