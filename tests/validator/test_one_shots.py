"""Go Up a Level cards: a card a Level card discards is seen to leave the table."""

from collections.abc import Callable
from typing import Any

import pytest

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
