"""The cards the core audit corrected (issue 24) are verified by checks that read what changed:
each rule broken in the engine (a planted bug) fails its card, and only its card's check."""

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from tests.validator.planting import assert_planted_bug_fails
from validator.checks import check_card
from validator.engine import CardBase, SetDocument


def _card(core_set: SetDocument, name: str) -> CardBase:
    return next(card for card in core_set.cards if card.name == name)


def _fails(core_set: SetDocument, name: str, check: str) -> None:
    report = check_card(_card(core_set, name), "munchkin-core")
    assert report.status == "fail" and not report.verified, report.messages
    assert any(check in message for message in report.messages), report.messages


@pytest.mark.parametrize(
    "name",
    [
        "Tuba of Charm",
        "Kill the Hireling",
        "Mutilate the Bodies",
        "Kneepads of Allure",
        "Lawyers",
        "Wight Brothers",
        "Magic Lamp",
        "Pollymorph Potion",
    ],
)
def test_each_corrected_card_is_full_and_verified(core_set: SetDocument, name: str) -> None:
    card = _card(core_set, name)
    assert card.encoding.status == "full"
    report = check_card(card, "munchkin-core")
    assert report.status == "pass" and report.verified, report.messages


def test_tuba_of_charm_without_its_reward_fails(
    core_set: SetDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import runaway

    monkeypatch.setattr(runaway, "_escape_rewards", lambda *args: None)
    _fails(core_set, "Tuba of Charm", "after an escape")


def test_kill_the_hireling_that_takes_only_your_own_fails(
    core_set: SetDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import badstuff

    original = badstuff._apply_one

    def own_only(game: Any, victim: Any, effect: Any, *rest: Any) -> bool:
        if getattr(effect, "owner", None) == "any":
            effect = effect.model_copy(update={"owner": "self"})
        return original(game, victim, effect, *rest)

    monkeypatch.setattr(badstuff, "_apply_one", own_only)
    _fails(core_set, "Kill the Hireling", "a rival's card in play will do")


def test_mutilate_the_bodies_that_waits_for_a_win_fails(
    core_set: SetDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import turn

    original: Callable[..., None] = turn._play_level

    def won_only(game: Any, player: Any, card: Any, target: Any) -> None:
        if getattr(card.card, "timing", None) == "after_any_combat":
            definition = card.card.model_copy(update={"timing": "after_combat"})
            card = dataclasses.replace(card, card=definition)
        original(game, player, card, target)

    monkeypatch.setattr(turn, "_play_level", won_only)
    _fails(core_set, "Mutilate the Bodies", "a level after a fight fled")


def test_kneepads_whose_helper_is_paid_fails(
    core_set: SetDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import ForceHelp, combat

    original = vars(combat)["effects_of"]

    def paid(card: Any, kind: Any) -> Any:
        found = original(card, kind)
        if kind is ForceHelp:
            return [e.model_copy(update={"helper_reward": True}) for e in found]
        return found

    monkeypatch.setattr(combat, "effects_of", paid)
    _fails(core_set, "Kneepads of Allure", "a forced helper asks no reward")


def test_lawyers_that_trade_only_from_the_hand_fail(
    core_set: SetDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import combat_specials

    original = combat_specials._trade_treasures

    def hand_only(game: Any, player: Any, count: int, where: str = "hand") -> None:
        original(game, player, count, "hand")

    monkeypatch.setattr(combat_specials, "_trade_treasures", hand_only)
    _fails(core_set, "Lawyers", "Treasures in play are traded in")


def test_only_a_full_card_counts_as_verified_in_the_coverage() -> None:
    from validator.checks.reports import CardReport, summarize

    reports = [
        CardReport("s", "Full", "item", "full", verified=True),
        # A stored report that says verified for a card not fully encoded is not counted.
        CardReport("s", "Partial", "item", "partial", verified=True),
        CardReport("s", "Text", "item", "text_only", verified=True),
        CardReport("s", "Unchecked", "item", "full", verified=False),
    ]
    assert summarize(reports)["verified"] == 1


def test_the_core_set_is_147_of_147_full_and_verified(core_set: SetDocument) -> None:
    # Issue 24's count: every core card of the reference (147 entries) fully encoded and
    # verified by its generated checks.
    reports = [check_card(card, "munchkin-core") for card in core_set.cards]
    assert len(reports) == 147
    assert [r.name for r in reports if r.encoding != "full"] == []
    assert [r.name for r in reports if not r.verified or r.status == "fail"] == []


# Mutants of the code the audit added (the mutation tool's ids), each failing the card whose
# check reads it.
AUDIT_CASES = [
    ("Tuba of Charm", "runaway:_escape_rewards:statement:dd124691", "after an escape"),
    ("Tuba of Charm", "runaway:_escape_rewards:branch:e70913df", "nothing drawn when caught"),
    ("Mutilate the Bodies", "turn:_play_level:compare:429fca1b", "refused before a fight"),
    ("Mutilate the Bodies", "turn:_play_level:compare:8ee6cb02", "a level for its player"),
    ("Kill the Hireling", "badstuff:_apply_one:compare:a9fbed3b", "a rival's card in play"),
    ("Kill the Hireling", "strength:holds:builtin:67494a48", "a level for its player"),
    ("Lawyers", "combat_specials:_trade_treasures:branch:b3ebb6a9", "Treasures in play"),
    ("Kneepads of Allure", "combat:offer_help:branch:5f88bb34", "a forced helper asks no"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), AUDIT_CASES)
def test_a_planted_bug_in_the_audits_rules_fails_its_card(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    assert_planted_bug_fails(_card(core_set, name), "munchkin-core", mutant_id, check)
