"""Who may use a monster's special rules: each rule, broken in the engine by one of the
mutation tool's mutants, fails the core card that has it by the check that reads it."""

import pytest

from tests.validator.test_played import planted
from validator.checks import check_card
from validator.engine import SetDocument

SPECIAL_RULE_CASES = [
    # The Floating Nose takes an item worth 200 Gold, from the table or the hand, and only
    # from the fighter.
    ("Floating Nose", "combat_specials:bribe:branch:49bcb2a6", "only the fighter may bribe"),
    ("Floating Nose", "combat_specials:bribe:compare:148f71cb", "from the hand"),
    ("Floating Nose", "combat_specials:bribe:branch:464d041c", "from the hand"),
    ("Floating Nose", "combat_specials:bribe:statement:aac819cb", "from the hand"),
    # A monster whose card does not say so is never walked past.
    ("Floating Nose", "combat_specials:decline:branch:65121733", "cannot be walked past"),
    # The Stoned Golem is walked past by the fighter only, and beside the Ogre only it goes.
    ("Stoned Golem", "combat_specials:decline:branch:d339c623", "only the fighter may walk"),
    ("Stoned Golem", "combat_specials:monster_named:compare:0bc7eab5", "beside the Ogre"),
    ("Stoned Golem", "combat_specials:monster_named:compare:7220a9f2", "beside the Ogre"),
    # A Cleric outside the fight cannot chase the Wannabe Vampire away.
    ("Wannabe Vampire", "combat_specials:chase_away:branch:40d6aad7", "outside the fight"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), SPECIAL_RULE_CASES)
def test_a_broken_special_rule_fails_the_monster(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == name)
    assert check_card(card, "munchkin-core").status == "pass"
    with planted(mutant_id):
        report = check_card(card, "munchkin-core")
    assert report.status == "fail"
    assert any(check in message for message in report.messages), report.messages
