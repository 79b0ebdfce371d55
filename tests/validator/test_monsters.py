"""Monsters: a conditional extra Treasure is tried with its condition holding and failing."""

from collections.abc import Callable
from typing import Any

import pytest

from tests.factories import monster_document
from tests.validator.planting import planted
from validator.checks import check_card, check_document
from validator.checks.monsters import (
    escape_cost_check,
    single_card_check,
    strength_both_ways,
)
from validator.checks.references import library_for
from validator.checks.reports import CardReport
from validator.checks.runner import CheckContext
from validator.engine import (
    CardBase,
    ExtraTreasures,
    MonsterCard,
    OnEscape,
    SetDocument,
    Strength,
    parse_card,
)
from validator.engine.state import Player


def _card(core_set: SetDocument, name: str) -> CardBase:
    return next(card for card in core_set.cards if card.name == name)


def test_potted_plant_earns_its_extra_treasure_both_ways(core_set: SetDocument) -> None:
    report = check_card(_card(core_set, "Potted Plant"), "munchkin-core")
    assert report.verified, report.messages


def _ignoring_conditions(original: Callable[..., Any]) -> Callable[..., Any]:
    def effects_of(card: Any, effect_type: Any) -> Any:
        found = original(card, effect_type)
        if effect_type is ExtraTreasures:  # the planted bug: a conditional extra is ignored
            return tuple(e for e in found if e.when is None)
        return found

    return effects_of


def test_a_planted_bug_ignoring_a_conditional_extra_treasure_fails_the_card(
    core_set: SetDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import combat, state

    monkeypatch.setattr(combat, "effects_of", _ignoring_conditions(state.effects_of))
    report = check_card(_card(core_set, "Potted Plant"), "munchkin-core")
    # Level 1, 1 Treasure, +1 for an Elf (its document): an Elf who kills it draws 2.
    assert report.status == "fail" and not report.verified
    assert (
        "fail: the extra Treasures when its condition holds: treasures_drawn: expected 2, got 1"
        in report.messages
    )


def test_an_extra_whose_condition_cannot_be_staged_is_not_counted() -> None:
    # No fight can be arranged for a condition on the monster's own Level: the extra is never
    # seen to pay, so it is not exercised.
    document = monster_document(
        effects=[{"type": "extra_treasures", "amount": 1, "when": {"level": {"min": 3}}}]
    )
    report = check_document(document, "test")
    assert not report.verified
    assert "warn: no generated check predicts extra_treasures yet" in report.messages


def test_a_bonus_against_one_sex_is_tried_both_ways() -> None:
    # +4 against males: 7 + 4 for the plain (male) Hero, 7 for a female one; both are run.
    card = parse_card(
        monster_document(effects=[{"type": "strength", "amount": 4, "when": {"sex": "male"}}])
    )
    assert isinstance(card, MonsterCard)
    report = CardReport("test", card.name, card.kind_name, "full")
    ctx = CheckContext(card, "test", report, library_for(card, "test"))
    effect = next(e for e in card.effects if isinstance(e, Strength))
    strength_both_ways(ctx, card, effect)
    assert report.status == "pass" and report.scenarios_run == 2
    assert ctx.covered == {"strength"}
    assert check_card(card, "test").verified


def _two_classed_monster() -> MonsterCard:
    # Level 7; -3 against Wizards, +4 against Elves (the numbers the expectations add up).
    card = parse_card(
        monster_document(
            effects=[
                {"type": "strength", "amount": -3, "when": {"class": "wizard"}},
                {"type": "strength", "amount": 4, "when": {"race": "elf"}},
            ]
        )
    )
    assert isinstance(card, MonsterCard)
    return card


def _single_card_report(card: MonsterCard, amount: int) -> CardReport:
    report = CardReport("test", card.name, card.kind_name, "full")
    ctx = CheckContext(card, "test", report, library_for(card, "test"))
    effect = next(e for e in card.effects if isinstance(e, Strength) and e.amount == amount)
    single_card_check(ctx, card, effect)
    return report


def test_a_super_character_of_one_card_keeps_a_penalty_and_drops_a_bonus() -> None:
    card = _two_classed_monster()
    kept = _single_card_report(card, -3)  # a Super Wizard: 7 - 3
    dropped = _single_card_report(card, 4)  # a Half-Breed Elf: 7, not 7 + 4
    assert (kept.status, kept.scenarios_run) == ("pass", 1), kept.messages
    assert (dropped.status, dropped.scenarios_run) == ("pass", 1), dropped.messages
    assert check_card(card, "test").status == "pass"


def test_an_engine_giving_the_bonus_to_a_super_character_fails_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An engine blind to the one-card rule: the Elf's +4 counts again, 7 + 4.
    monkeypatch.setattr(Player, "super_single", lambda self, axis: False)
    report = _single_card_report(_two_classed_monster(), 4)
    assert report.status == "fail"
    assert any("monster_strength: expected 7, got 11" in m for m in report.messages)


def test_a_bonus_against_the_unarmoured_is_tried_on_a_hero_in_armour_too() -> None:
    # Level 8, +2 unless wearing Armor: 10 bare, 8 in the Mail (armor by its document).
    card = parse_card(
        monster_document(
            level=8,
            effects=[{"type": "strength", "amount": 2, "when": {"not": {"wearing": "armor"}}}],
        )
    )
    assert isinstance(card, MonsterCard)
    report = CardReport("test", card.name, card.kind_name, "full")
    ctx = CheckContext(card, "test", report, library_for(card, "test"))
    effect = next(e for e in card.effects if isinstance(e, Strength))
    strength_both_ways(ctx, card, effect)
    assert report.status == "pass" and report.scenarios_run == 2, report.messages
    assert ctx.covered == {"strength"}


def test_an_escape_cost_from_a_level_is_tried_on_both_sides_of_it() -> None:
    # A cost from Level 4 up, run from Level 6: Levels 6, 3 (free) and 4 (the edge, paying).
    card = parse_card(
        monster_document(
            effects=[
                {
                    "type": "on_escape",
                    "when": {"level": {"min": 4}},
                    "effects": [{"type": "lose_levels", "amount": 2}],
                }
            ]
        )
    )
    assert isinstance(card, MonsterCard)
    report = CardReport("test", card.name, card.kind_name, "full")
    ctx = CheckContext(card, "test", report, library_for(card, "test"))
    cost = next(e for e in card.effects if isinstance(e, OnEscape))
    escape_cost_check(ctx, card, cost, 6)
    assert report.status == "pass", report.messages
    assert report.scenarios_run == 3


def test_a_roll_on_the_top_face_of_a_range_counts_as_inside_it(core_set: SetDocument) -> None:
    # The 3,872 Orcs kill on a roll of 1 or 2: a 2 kills, the range's top face included.
    orcs = next(c for c in core_set.cards if c.name == "3,872 Orcs")
    assert check_card(orcs, "munchkin-core").status == "pass"
    with planted("badstuff:_apply_one:compare:5eeda283"):
        report = check_card(orcs, "munchkin-core")
    assert report.status == "fail"
    assert any("die 2" in message for message in report.messages), report.messages
