"""Character abilities: what the card's cost and timing refuse is tried, not only the use."""

import pytest

from tests.conftest import FIXTURE_SETS
from tests.validator.planting import assert_planted_bug_fails, planted
from validator.checks import check_card
from validator.checks.characters import ability_refusals
from validator.checks.references import library_for
from validator.checks.reports import CardReport
from validator.checks.runner import CheckContext
from validator.engine import CharacterCard, SetDocument, load_set_file


def test_berserking_is_refused_past_its_discards_and_outside_combat(
    core_set: SetDocument,
) -> None:
    warrior = next(c for c in core_set.cards if c.name == "Warrior")
    assert isinstance(warrior, CharacterCard)
    berserking = next(a for a in warrior.abilities if a.slug == "berserking")
    report = CardReport("munchkin-core", warrior.name, warrior.kind_name, "full")
    ctx = CheckContext(warrior, "munchkin-core", report, library_for(warrior, "munchkin-core"))
    ability_refusals(ctx, warrior, berserking)
    # Up to 3 discards (the core set's Warrior): 4 are refused, and so is none, and so is a
    # second use in the fight; a combat ability is refused out of combat, and the Warrior's in
    # the hand gives none. All five are run and all hold.
    assert report.scenarios_run == 5 and report.status == "pass", report.messages
    assert ctx.covered == {"ability_cost"}


# Each rule a class card states, broken in the engine by one of the mutation tool's mutants,
# fails the card by the check that reads it (core set: Backstab hits a player in the fight;
# Charm sends away one monster, named when there are two).
ABILITY_CASES = [
    ("Thief", "abilities:use_ability:boolean:150f671e", "on the fighter when no one is named"),
    ("Thief", "abilities:use_ability:branch:8e2c7142", "refused on a player outside the fight"),
    ("Wizard", "abilities:use_ability:branch:2728ccab", "none is named"),
    ("Wizard", "abilities:use_ability:statement:a9a91ddf", "none is named"),
    # Berserking, the Warrior's only ability, needs no name, nor a monster named of two.
    ("Warrior", "abilities:use_ability:boolean:48a71e33", "two monsters, none named"),
    ("Warrior", "abilities:use_ability:number:650dddc1", "nor the ability"),
    # The Thief has two abilities: an unnamed use is refused.
    ("Thief", "abilities:use_ability:branch:9a4c488d", "refused when not named"),
    # Resurrection replaces its player's own draw, from a Door discard pile that has a card.
    ("Cleric", "abilities:use_ability:branch:c1f91e7c", "refused on another player's turn"),
    ("Cleric", "abilities:use_ability:branch:7c26300d", "Door discards empty"),
    # Charity (a Dwarf keeps 6): only cards over the limit go, and only to the lowest Level.
    ("Dwarf", "turn:charity:branch:1df49afa", "a hand under its limit kept whole"),
    ("Dwarf", "turn:charity:boolean:656f2d11", "charity to the lowest-Level player only"),
    # Any card in play or in the hand powers an ability: another character card pays and
    # leaves play; the ability's own card does not pay.
    ("Thief", "abilities:_payable:compare:bbaefb6a", "paid with another character card"),
    ("Thief", "abilities:_pay_with:branch:ba0a366d", "paid with another character card"),
    ("Thief", "abilities:_pay_with:statement:e5ef3cff", "paid with another character card"),
    ("Warrior", "abilities:use_ability:branch:9fce3216", "paid with Warrior itself"),
    # A character card, not an item, is what may be discarded at any time.
    ("Elf", "abilities:discard_character_card:branch:deab0267", "an item refused as a"),
    # An ability the card does not have (Theft, for a Warrior) is refused.
    ("Warrior", "abilities:use_ability:boolean:4b85df1c", "does not have refused"),
    ("Warrior", "abilities:use_ability:branch:249fd828", "does not have refused"),
    # Backstab hits each player in the fight once: the fighter and the helper both.
    ("Thief", "abilities:use_ability:compare:b3ec20ab", "on the fighter and on the helper"),
    ("Thief", "abilities:use_ability:boolean:f7f27e89", "on the fighter and on the helper"),
    # Charm costs the whole hand: an empty hand cannot pay it.
    ("Wizard", "abilities:use_ability:branch:d8891e9c", "refused with an empty hand"),
    # Turning works against an Undead monster with another monster beside it.
    ("Cleric", "strength:holds:builtin:b37a10a6", "and another monster"),
    # An Elf's levels for helping never win the game, unless the table plays shared victories
    # and the fighter wins by the kill, when the helper wins too.
    ("Elf", "combat:_reward:boolean:5e25c4cc", "does not win by helping"),
    ("Elf", "combat:_reward:compare:fecc059f", "needs the fighter's win"),
    ("Elf", "combat:_reward:branch:e914a17f", "the helper wins with the fighter"),
    ("Elf", "combat:_reward:boolean:0ae0c3c6", "does not win by helping"),
    ("Elf", "combat:_reward:compare:463c4f9a", "the helper wins with the fighter"),
    ("Elf", "combat:_reward:statement:6319fd21", "the helper wins with the fighter"),
    # Berserking's up to 3 discards are for the whole fight: a second use is refused.
    ("Warrior", "abilities:use_ability:boolean:aaa58598", "twice in one fight"),
    ("Warrior", "abilities:use_ability:compare:3650dea3", "twice in one fight"),
    ("Warrior", "abilities:use_ability:compare:51851e72", "twice in one fight"),
    ("Warrior", "abilities:use_ability:compare:7cc20e9d", "twice in one fight"),
    ("Warrior", "abilities:use_ability:branch:03d4e0d3", "twice in one fight"),
    ("Warrior", "abilities:use_ability:compare:0e9f0250", "twice in one fight"),
    ("Warrior", "abilities:use_ability:statement:0c47f102", "twice in one fight"),
    # Resurrection is paid from the hand, after the card is taken from the Door discards.
    ("Cleric", "abilities:use_ability:branch:000f703c", "refused paid from the table"),
    ("Cleric", "abilities:use_ability:compare:db9beea1", "refused paid from the table"),
    ("Cleric", "abilities:use_ability:branch:8a4244f1", "refused paid from the table"),
    ("Cleric", "abilities:use_ability:branch:149e1936", "taken before the payment"),
    # Charm on the only monster ends the fight at once, its Treasure drawn.
    ("Wizard", "abilities:use_ability:statement:5df93757", "ends the fight"),
    # A Warrior helping wins the tie for the side; an Elf helper gains a level per monster.
    ("Warrior", "strength:side_wins_ties:builtin:19442c2a", "a helper with it wins a tie"),
    ("Elf", "combat:_reward:arithmetic:73d682d1", "for each of two monsters"),
    # Flight's +1 per discard, no more: one below the roll still caught.
    ("Wizard", "abilities:use_ability:number:bcd8ac21", "running away, one short"),
    # The monster wins ties: only the Warrior's card in play wins one, and only a tie.
    ("Warrior", "strength:side_wins_with:compare:938eb154", "a tie lost with the card in the"),
    ("Warrior", "strength:side_wins_ties:builtin:9d3edaa1", "a tie lost with the card in the"),
    ("Warrior", "strength:side_wins_with:boolean:37f7c177", "one short of the monster is lost"),
    # Only one player may help.
    ("Elf", "combat:offer_help:branch:a6539b17", "a second helper refused"),
    ("Elf", "state:require_combat:branch:d2f98965", "helping with no fight refused"),
    # An item only a Cleric may use counts nothing once the Cleric card is discarded.
    ("Cleric", "strength:side_member_strength:branch:a6daa306", "once Cleric is discarded"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), ABILITY_CASES)
def test_a_broken_ability_rule_fails_the_class_card(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == name)
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


# Knife Training (Munchkin Impossible): +3 for each Knife item its owner has equipped, none
# for no Knife, a carried one, or an item of another tag.
TAGGED_ITEM_CASES = [
    ("strength:_multiplier:compare:cbc43b94", "no bonus without an item of its tag"),
    ("strength:_multiplier:branch:0af39b7a", "no bonus without an item of its tag"),
    ("strength:_multiplier:number:5efd28fb", "for each of two items of its tag"),
    ("strength:_multiplier:compare:16f327b4", "for each of two items of its tag"),
]


@pytest.mark.parametrize(("mutant_id", "check"), TAGGED_ITEM_CASES)
def test_a_broken_bonus_per_tagged_item_fails_knife_training(mutant_id: str, check: str) -> None:
    impossible = load_set_file(FIXTURE_SETS / "munchkin-impossible.yaml")
    card = next(c for c in impossible.cards if c.name == "Knife Training")
    assert_planted_bug_fails(card, "munchkin-impossible", mutant_id, check)


# A character with no Race card is Human: an item only for Humans is equipped once the Elf's
# card is discarded.
HUMAN_CASES = [
    "state:Player.has_trait:negation:1312f45c",
    "state:Player.has_trait:compare:c7e09859",
]


@pytest.mark.parametrize("mutant_id", HUMAN_CASES)
def test_a_broken_human_default_fails_the_race_card(core_set: SetDocument, mutant_id: str) -> None:
    card = next(c for c in core_set.cards if c.name == "Elf")
    assert check_card(card, "munchkin-core").status == "pass"
    with planted(mutant_id):
        report = check_card(card, "munchkin-core")
    assert report.status == "fail"
    assert any("Human once Elf is discarded" in m for m in report.messages), report.messages


# The Exotic's Power Switch (Super Munchkin): a monster card from the hand, in a fight, and its
# Level fought with in place of the user's.
POWER_SWITCH_CASES = [
    "abilities:use_ability:branch:eba5ceed",
    "abilities:use_ability:boolean:c2261c43",
    "abilities:use_ability:number:59438508",
    "abilities:use_ability:compare:680e1085",
    "abilities:use_ability:number:c569c57e",
]


@pytest.mark.parametrize("mutant_id", POWER_SWITCH_CASES)
def test_a_broken_power_switch_fails_the_exotic(mutant_id: str) -> None:
    card = next(c for c in _set("munchkin-super").cards if c.name == "Exotic")
    assert check_card(card, "munchkin-super").status != "fail"
    with planted(mutant_id):
        report = check_card(card, "munchkin-super")
    assert report.status == "fail"
    assert any("the Level of a monster from the hand" in m for m in report.messages)


def _set(code: str) -> SetDocument:
    return load_set_file(FIXTURE_SETS / f"{code}.yaml")
