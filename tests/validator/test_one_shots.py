"""Go Up a Level cards: a card a Level card discards is seen to leave the table."""

from collections.abc import Callable
from typing import Any

import pytest

from tests.validator.planting import assert_planted_bug_fails, planted
from validator.checks import check_card, check_document
from validator.engine import CardBase, SetDocument


def _card(core_set: SetDocument, name: str) -> CardBase:
    return next(card for card in core_set.cards if card.name == name)


def _kill_the_hireling(**changes: Any) -> dict[str, Any]:
    # Its facts as the core set gives them (fixtures/sets/munchkin-core.yaml).
    return {
        "name": "Kill the Hireling",
        "deck": "treasure",
        "kind": "go_up_a_level",
        "requires": {"has_in_play": "hireling"},
        "effects": [{"type": "gain_levels", "amount": 1}, {"type": "discard_card", **changes}],
        "encoding": {"status": "full"},
    }


def test_kill_the_hireling_is_verified_by_its_hireling_leaving(core_set: SetDocument) -> None:
    report = check_card(_card(core_set, "Kill the Hireling"), "munchkin-core")
    assert report.verified, report.messages


def test_a_discard_no_check_can_stage_is_never_counted() -> None:
    # The references hold no Curse to have in play: nothing shows the discard, so it is not
    # exercised and the card is not verified.
    report = check_document(_kill_the_hireling(kind="curse"), "test")
    assert not report.verified
    assert "warn: no generated check predicts discard_card yet" in report.messages


def _planted_discard(original: Callable[..., bool]) -> Callable[..., bool]:
    def apply_one(game: Any, victim: Any, effect: Any, *rest: Any) -> bool:
        if type(effect).__name__ == "DiscardOwnCard":
            return True  # the planted bug: "discarding your own card does nothing"
        return original(game, victim, effect, *rest)

    return apply_one


def test_a_planted_discard_that_does_nothing_fails_the_card(
    core_set: SetDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    from validator.engine import badstuff

    monkeypatch.setattr(badstuff, "_apply_one", _planted_discard(badstuff._apply_one))
    report = check_card(_card(core_set, "Kill the Hireling"), "munchkin-core")
    assert report.status == "fail" and not report.verified
    assert (
        "fail: a level for its player, its Hireling discarded: "
        "not_in_play.Hero: Validator Henchman is still there"
    ) in report.messages


# A one-shot waits on the table (core rules, "Treasures": on your own turn, out of combat) and
# is used from there in a combat only; each of those rules broken fails Cotion of Ponfusion.
TABLE_CASES = [
    ("turn:_play_one_shot:branch:abee3f96", "used from the table only in combat"),
    ("turn:_play_one_shot:branch:6793a1ab", "not put on the table on another's turn"),
    ("turn:_play_one_shot:statement:2f864ca4", "put on the table out of combat"),
    ("turn:_play_one_shot:builtin:ddb76059", "put on the table out of combat"),
]


@pytest.mark.parametrize(("mutant_id", "check"), TABLE_CASES)
def test_a_one_shot_on_the_table_is_held_to_the_rules(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = _card(core_set, "Cotion of Ponfusion")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


def test_a_one_shot_equipped_like_an_item_fails_the_card(core_set: SetDocument) -> None:
    # Usable once only: an engine that lets a potion be worn (turn.equip's item test dropped)
    # fails the card by the check that tries.
    card = _card(core_set, "Flaming Poison Potion")
    assert check_card(card, "munchkin-core").status == "pass"
    with planted("turn:equip:branch:66314735"):
        report = check_card(card, "munchkin-core")
    assert report.status == "fail"
    assert any("never equipped" in message for message in report.messages), report.messages


@pytest.mark.parametrize(
    "mutant_id", ["turn:_play_one_shot:branch:9dd71f53", "turn:_play_one_shot:statement:8aec14ee"]
)
def test_a_one_shot_that_gives_nothing_in_a_fight_fails_the_card(
    core_set: SetDocument, mutant_id: str
) -> None:
    # Wand of Dowsing used while facing a monster still takes its card from the discards.
    card = _card(core_set, "Wand of Dowsing")
    assert check_card(card, "munchkin-core").status == "pass"
    with planted(mutant_id):
        report = check_card(card, "munchkin-core")
    assert report.status == "fail"
    assert any("in a fight" in message for message in report.messages), report.messages


def test_a_level_given_to_the_dead_fails_the_go_up_a_level_card(core_set: SetDocument) -> None:
    # Core rules, Death: a dead character gains no level until the next turn brings him back.
    assert_planted_bug_fails(
        _card(core_set, "Boil an Anthill"),
        "munchkin-core",
        "turn:_play_level:branch:aa546db1",
        "refused on a dead character",
    )
