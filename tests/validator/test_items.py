"""Items: forced help is judged against a strength worked out from the card's facts; a broken
trading rule fails the item."""

import pytest

from tests.validator.planting import assert_planted_bug_fails
from validator.checks.items import force_help_check
from validator.checks.references import library_for
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
    return CheckContext(card, "munchkin-core", report, library_for(card, "munchkin-core"))


def _effect(card: ItemCard) -> ForceHelp:
    return next(e for e in card.effects if isinstance(e, ForceHelp))


def test_forced_help_adds_the_helpers_level_to_the_predicted_strength(
    kneepads: ItemCard,
) -> None:
    ctx = _context(kneepads)
    force_help_check(ctx, kneepads, _effect(kneepads), WEARER, 3)
    assert ctx.report.status == "pass", ctx.report.messages
    assert ctx.covered == {"force_help"}


def test_a_wrong_prediction_fails_the_card_instead_of_agreeing_with_the_engine(
    kneepads: ItemCard,
) -> None:
    # Told the wearer is 4 strong, the check expects 4 + 2 and the engine's 3 + 2 disagrees:
    # the check compares the engine with a prediction, not with itself.
    ctx = _context(kneepads)
    force_help_check(ctx, kneepads, _effect(kneepads), WEARER, 4)
    assert ctx.report.status == "fail"
    assert "fail: forces a rival to help: fighter_strength: expected 6, got 5" in (
        ctx.report.messages
    )
    assert ctx.covered == set()


# (card, mutant, the trade check that must see it): the rules on trading Items from the table,
# as every set's rulebook states them.
TRADE_CASES = [
    # Never with oneself; a fight elsewhere does not stop two others trading.
    ("Bad-Ass Bandana", "turn:trade:branch:da9148de", "refused to its own owner"),
    ("Bad-Ass Bandana", "turn:trade:compare:6dd6f89c", "outside someone else's fight"),
    # What the other side hands back must come from its table too.
    ("Bad-Ass Bandana", "turn:trade:statement:7b3a0f36", "refused from the hand"),
    # Received with its slot taken, it is carried (not equipped, not lost).
    ("Bad-Ass Bandana", "turn:_receive:boolean:9480b201", "it is carried"),
    ("Bad-Ass Bandana", "turn:_receive:statement:2392e3f8", "it is carried"),
    # One Big item each: a second is refused, a swap of Big items is not; Small ones never count.
    ("Chainsaw of Bloody Dismemberment", "turn:trade:compare:d6532fca", "traded for the rival's"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:boolean:1c16cc86", "stays in play"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:number:cb8c54aa", "stays in play"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:boolean:94e5539a", "stays in play"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:compare:eb45c71e", "stays in play"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:compare:9df9d475", "has a Big item"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:compare:45ac6513", "has a Big item"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:compare:90b2a443", "has a Big item"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:branch:2b7141f0", "has a Big item"),
    ("Chainsaw of Bloody Dismemberment", "turn:trade:arithmetic:af91441a", "has a Big item"),
    # Into play from the hand on its owner's turn only; equipment changed only out of combat,
    # and only what is equipped can be set aside.
    ("Bad-Ass Bandana", "turn:play:branch:a6fabf54", "on another's turn"),
    ("Bad-Ass Bandana", "turn:play:branch:f93f69c8", "in its owner's fight"),
    ("Bad-Ass Bandana", "turn:equip:statement:d0849855", "equipped from the hand in its owner's"),
    ("Bad-Ass Bandana", "turn:equip:branch:3ea1e599", "equipped from the hand on another's"),
    ("Bad-Ass Bandana", "turn:play:compare:642a43ec", "in its owner's fight"),
    ("Bad-Ass Bandana", "turn:unequip:statement:54147094", "in its wearer's fight"),
    ("Bad-Ass Bandana", "turn:unequip:branch:18a136a6", "a carried item is not set aside"),
    ("Bad-Ass Bandana", "turn:play:branch:1dcf9024", "not played again"),
    ("Bad-Ass Bandana", "turn:play:boolean:10a1b50a", "not played again"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), TRADE_CASES)
def test_a_broken_trading_rule_fails_the_item(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == name)
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


# (mutant, the sale check that must see it): selling, as every set's rules state it, tried with
# the Chainsaw (600 Gold, short of 1,000 alone, so a price doubled by mistake would show).
CURSE_IMMUNITY_CASES = [
    # Sandals of Protection: a curse from its wearer's door passes him by; only the Sandals
    # worn protect, whatever else is worn beside them.
    ("turn:kick_door:builtin:1daeafd9", "has no effect beside a plain Helm"),
    ("turn:kick_door:boolean:52981b41", "hits while it is only carried"),
    ("turn:kick_door:branch:4fb6dda4", "hits while it is only carried"),
]


@pytest.mark.parametrize(("mutant_id", "check"), CURSE_IMMUNITY_CASES)
def test_a_broken_curse_immunity_fails_the_item(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == "Sandals of Protection")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


SALE_CASES = [
    # Only on one's own turn, and not in one's own fight.
    ("turn:sell:branch:2b0567a5", "not sold on another's turn"),
    ("turn:sell:compare:7a1a8e5f", "sold from the hand for a level"),
    ("turn:sell:branch:c458a091", "not sold during its seller's fight"),
    ("turn:sell:compare:114e9789", "sold from the hand for a level"),
    # Items in the hand and on the table alike; only items, a monster card stops the sale.
    ("turn:sell:compare:cd9d25db", "sold from the table"),
    ("turn:sell:boolean:cc9c10bb", "sold from the hand for a level"),
    ("turn:sell:branch:2e6bca4a", "along with a monster card"),
    ("turn:sell:negation:b0c589ef", "sold from the hand for a level"),
    # A level per full 1,000 Gold, no change: a plain seller's price is never doubled.
    ("turn:sell:boolean:836cb9c7", "alone for less than 1,000 Gold"),
    ("turn:sell:builtin:ac5a0572", "alone for less than 1,000 Gold"),
    ("turn:sell:branch:2a432cb8", "alone for less than 1,000 Gold"),
    ("turn:sell:number:ef954375", "sold from the hand for a level"),
    ("turn:sell:compare:1bc7f4ad", "sold from the hand for a level"),
    ("turn:sell:statement:cceb0922", "sold from the hand for a level"),
    ("turn:sell:statement:3ff1eb16", "sold from the hand for a level"),
    # Never the level that wins.
    ("turn:sell:branch:71579939", "not sold for the winning level"),
    ("turn:sell:compare:a6dc642c", "not sold for the winning level"),
    ("turn:sell:arithmetic:41942001", "not sold for the winning level"),
    ("turn:sell:arithmetic:975a1999", "sold from the hand for a level"),
]


@pytest.mark.parametrize(("mutant_id", "check"), SALE_CASES)
def test_a_broken_selling_rule_fails_the_item(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == "Chainsaw of Bloody Dismemberment")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)
