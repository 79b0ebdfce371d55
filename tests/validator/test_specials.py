"""Who may use a monster's special rules, and what a monster does beside another: each rule,
broken in the engine by one of the mutation tool's mutants, fails the card that has it by the
check that reads it."""

import pytest

from tests.conftest import FIXTURE_SETS
from tests.validator.planting import assert_planted_bug_fails, planted
from validator.checks import check_card
from validator.engine import SetDocument, load_set_file

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
    # The Lawyers let a Thief trade 2 Treasure cards for 2 new ones, and not 1.
    ("Lawyers", "combat_specials:_trade_treasures:compare:6deac42e", "traded for new ones"),
    ("Lawyers", "combat_specials:_trade_treasures:compare:aa505219", "traded for new ones"),
    ("Lawyers", "combat_specials:_trade_treasures:statement:3688ac82", "traded for new ones"),
    ("Lawyers", "combat_specials:monster_arrives:branch:6e9a9056", "traded for new ones"),
    ("Lawyers", "combat_specials:monster_arrives:statement:e8a21ee9", "traded for new ones"),
    ("Lawyers", "combat_specials:_trade_treasures:branch:3888263d", "too few Treasure cards"),
    # The Bullrog's death is the outcome, whichever monster is fled first, and the dead run
    # from no more monsters.
    ("Bullrog", "combat:_outcome_of:branch:0e505827", "its death stops the running"),
    ("Bullrog", "combat:_outcome_of:builtin:7598bbba", "caught by the Ogre, then killed"),
    ("Bullrog", "runaway:run_away:branch:5e132e8b", "its death stops the running"),
    # Ghoulfiends (Level alone) and the Insurance Salesman (Level ignored) rule the whole
    # fight, the Ogre beside them.
    ("Ghoulfiends", "strength:side_member_strength:boolean:2cafa03e", "with the Ogre beside"),
    ("Insurance Salesman", "strength:side_member_strength:boolean:b7e74f8d", "the Ogre beside"),
    # The Potted Plant's extra Treasure for an Elf is paid when the helper is the Elf.
    ("Potted Plant", "combat:_treasure_count:builtin:5f0c3bd7", "only the helper has the trait"),
    # Pukachu's extra level: a one-shot a rival plays for it is no bonus of the fighter's.
    ("Pukachu", "strength:bonuses_used:compare:4b546ee0", "despite a one-shot played for it"),
    # Mate's -1 is felt fleeing either of the pair, and not fleeing a third monster.
    ("Mate", "runaway:runaway_modifier:compare:f64d584c", "the Mate itself fled"),
    ("Mate", "runaway:runaway_modifier:compare:5afa3f29", "the Mate itself fled"),
    ("Mate", "runaway:runaway_modifier:boolean:b4a534e8", "a monster beside the pair"),
    # A monster met behind the door and fought leaves no room to loot.
    ("Lame Goblin", "combat_specials:start_combat:truth:f2013a22", "no looting the room"),
    # With no Treasure card left anywhere, a kill still gives its level and draws none.
    ("Lame Goblin", "combat:_draw_rewards:branch:06e30994", "no Treasure left to draw"),
    # The Large Angry Chicken's extra level for fire: a fire one-shot of the fighter's counts,
    # one played for the chicken does not.
    ("Large Angry Chicken", "strength:used_tags:branch:856fdf60", "with a one-shot of its tag"),
    ("Large Angry Chicken", "strength:used_tags:statement:c1083338", "with a one-shot of its tag"),
    ("Large Angry Chicken", "strength:used_tags:compare:a2037cfa", "played for it"),
    # A one-shot for one of two monsters counts once; a monster killed outright takes its
    # enhancer to the discards.
    ("Flaming Poison Potion", "strength:monster_strength:compare:dc28d656", "counts once"),
    ("Potion of Halitosis", "combat:finish:statement:5e1bfef8", "kills the Enraged"),
    # Doppleganger is for a fighter with no helper; Kill the Hireling needs a Hireling, not
    # any card, in play.
    ("Doppleganger", "strength:holds:boolean:0b208fba", "refused to a fighter with a helper"),
    ("Kill the Hireling", "strength:holds:compare:e3bc59bc", "refused with only an item"),
    # Flask of Glue undoes an escape, the exact 5 too, once, and the roll again keeps the
    # runner's bonus.
    ("Flask of Glue", "runaway:_run_from:compare:ee422782", "an exact escape undone too"),
    ("Flask of Glue", "runaway:_run_from:statement:d1d3450d", "one escape undone of two"),
    ("Flask of Glue", "runaway:_run_from:arithmetic:ed019fca", "keeps the Run Away bonus"),
    # One Invisibility Potion saves one failed roll; an Instant Wall works only played.
    ("Invisibility Potion", "runaway:_run_from:statement:49e814c3", "one failed roll of two"),
    ("Instant Wall", "runaway:_run_from:branch:e38d7827", "carried and not played"),
    # Super Munchkin on one Class: an item forbidden to that Class may be equipped.
    ("Super Munchkin", "strength:usable_by:compare:900fd428", "an item forbidden to it"),
    # Only a card that says so forces help (Kneepads of Allure): another item does not.
    ("Kneepads of Allure", "combat:offer_help:branch:81ed46e6", "nobody is forced without"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), SPECIAL_RULE_CASES)
def test_a_broken_special_rule_fails_the_monster(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == name)
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


# Running from a Munchkin Booty monster (the Clam) with Ships: a Ship's Run Away modifier
# replaces the Footgear's; a slow Ship is left behind before the roll, another is kept.
SHIP_CASES = [
    ("runaway:runaway_modifier:branch:dd0f6a47", "replaces the Footgear's"),
    ("runaway:runaway_modifier:boolean:e697e749", "replaces the Footgear's"),
    ("runaway:runaway_modifier:compare:a575af32", "replaces the Footgear's"),
    ("runaway:runaway_modifier:statement:903d08a8", "replaces the Footgear's"),
    ("runaway:_run_from:boolean:c9d8f2a1", "replaces the Footgear's"),
    ("runaway:_run_from:compare:6d7c1e7d", "a slow Ship left behind"),
    ("choices:DefaultChooser.abandon_ship:truth:b40c66f0", "a slow Ship left behind"),
    ("runaway:_run_from:branch:3048ce19", "a slow Ship left behind"),
    ("runaway:_run_from:statement:0348f894", "a slow Ship left behind"),
    ("runaway:_run_from:compare:9a4a2bf3", "does not slow running kept"),
    ("runaway:_run_from:number:5bdaae5e", "does not slow running kept"),
    # An enhancer fitted on the Ship adds its bonus in the fight.
    ("strength:side_member_strength:augmented:a13e40d7", "an enhancer fitted on the Ship"),
]


@pytest.mark.parametrize(("mutant_id", "check"), SHIP_CASES)
def test_a_broken_ship_rule_fails_a_booty_monster(mutant_id: str, check: str) -> None:
    booty = load_set_file(FIXTURE_SETS / "munchkin-booty.yaml")
    card = next(c for c in booty.cards if c.name == "Clam")
    assert check_card(card, "munchkin-booty").status != "fail"
    with planted(mutant_id):  # the default chooser's method too
        report = check_card(card, "munchkin-booty")
    assert report.status == "fail"
    assert any(check in message for message in report.messages), report.messages


# The Piano Tuna (Munchkin Booty) is +10 only while the Privatears are in the fight.
COMPANION_CASES = [
    ("strength:holds:builtin:5b398afe", "its bonus beside Privatears"),
    ("strength:holds:compare:1c962adc", "no bonus without Privatears"),
]


@pytest.mark.parametrize(("mutant_id", "check"), COMPANION_CASES)
def test_a_broken_companion_bonus_fails_the_piano_tuna(mutant_id: str, check: str) -> None:
    booty = load_set_file(FIXTURE_SETS / "munchkin-booty.yaml")
    card = next(c for c in booty.cards if c.name == "Piano Tuna")
    assert check_card(card, "munchkin-booty").status != "fail"
    with planted(mutant_id):
        report = check_card(card, "munchkin-booty")
    assert report.status == "fail"
    assert any(check in message for message in report.messages), report.messages
