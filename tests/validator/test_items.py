"""Items: forced help is judged against a strength worked out from the card's facts."""

import pytest

from validator.checks.items import _force_help_check
from validator.checks.references import _library_for
from validator.checks.reports import CardReport
from validator.checks.runner import CheckContext
from validator.engine import ForceHelp, ItemCard, SetDocument

# Kneepads of Allure: no bonus (the core set's document); a Level 3 wearer is 3 strong, and
# the forced Rival (Level 2, nothing in play) adds 2.
WEARER = {"name": "Hero", "level": 3, "in_play": ["Kneepads of Allure"], "hand": []}


@pytest.fixture
def kneepads(core_set: SetDocument) -> ItemCard:
    card = next(c for c in core_set.cards if c.name == "Kneepads of Allure")
    assert isinstance(card, ItemCard)
    return card


def _context(card: ItemCard) -> CheckContext:
    report = CardReport("munchkin-core", card.name, card.kind_name, "full")
    return CheckContext(card, "munchkin-core", report, _library_for(card, "munchkin-core"))


def _effect(card: ItemCard) -> ForceHelp:
    return next(e for e in card.effects if isinstance(e, ForceHelp))


def test_forced_help_adds_the_helpers_level_to_the_predicted_strength(
    kneepads: ItemCard,
) -> None:
    ctx = _context(kneepads)
    _force_help_check(ctx, kneepads, _effect(kneepads), WEARER, 3)
    assert ctx.report.status == "pass", ctx.report.messages
    assert ctx.covered == {"force_help"}


def test_a_wrong_prediction_fails_the_card_instead_of_agreeing_with_the_engine(
    kneepads: ItemCard,
) -> None:
    # Told the wearer is 4 strong, the check expects 4 + 2 and the engine's 3 + 2 disagrees:
    # the check compares the engine with a prediction, not with itself.
    ctx = _context(kneepads)
    _force_help_check(ctx, kneepads, _effect(kneepads), WEARER, 4)
    assert ctx.report.status == "fail"
    assert "fail: forces a rival to help: fighter_strength: expected 6, got 5" in (
        ctx.report.messages
    )
    assert ctx.covered == set()
