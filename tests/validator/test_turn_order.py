"""The turn's order, checked with a monster card: a broken rule on kicking the door, looking for
trouble, looting the room or ending the turn fails the card by the check that reads it."""

import pytest

from tests.validator.planting import assert_planted_bug_fails
from validator.engine import SetDocument

# (mutant, the check that must see it), tried with the core set's Potted Plant.
CASES = [
    # Only the player whose turn it is, and not during a fight.
    ("turn:_require_phase:branch:cb48499a", "no door kicked open by another player"),
    ("turn:_require_phase:branch:6fe3d382", "no door kicked open in the middle of a fight"),
    # One door a turn; looking for trouble and looting only once it is open.
    ("turn:_require_phase:branch:529e9b80", "before the door is kicked open"),
    ("turn:kick_door:statement:bdfb8fed", "no second door kicked open"),
    ("turn:loot_room:statement:79a9838d", "no room looted before the door"),
    ("turn:look_for_trouble:statement:761f0c5d", "before the door is kicked open"),
    # One fight a turn from the door or the hand; no turn ends mid-fight.
    ("turn:look_for_trouble:branch:c8d03b61", "after this turn's fight"),
    # A monster card played from the hand at that moment is fought, like one named for it.
    ("turn:play:branch:03c8c912", "played from the hand after a door with no monster"),
    ("turn:play:statement:9518f8c6", "played from the hand after a door with no monster"),
    # Only a monster is fought from the hand.
    ("turn:look_for_trouble:branch:fcdbbd82", "with a Door card that is no monster"),
    ("turn:look_for_trouble:boolean:d6352837", "with a Door card that is no monster"),
    ("turn:end_turn:branch:ae9eb36b", "no turn ended in the middle of a fight"),
    # The turn passes to the next player, whose turn starts afresh: no fight yet, and the door
    # is kicked open from the Door deck (not the discards).
    ("turn:end_turn:arithmetic:c966bd69", "on the next player's turn"),
    ("turn:end_turn:number:2ab16243", "on the next player's turn"),
    ("turn:begin_turn:truth:34b40016", "on the next player's turn"),
    ("turn:begin_turn:truth:c686d865", "on the next player's turn"),
    ("turn:kick_door:boolean:81ea1f85", "on the next player's turn"),
    # Each turn starts with no fight that lets the room be looted after it.
    ("turn:begin_turn:truth:d80bbbe0", "no room looted after a fight on the next player's"),
    # Faster play: the next turn opens with a Door card drawn by listening at the door.
    ("turn:begin_turn:branch:7ad2fc57", "by listening at the door"),
    ("turn:begin_turn:statement:dd541ba9", "by listening at the door"),
    # Charity: the excess goes to the lowest-Level player, or is discarded by the lowest.
    ("turn:charity:boolean:be51dee5", "discarded when tied for the lowest"),
    ("turn:charity:branch:9a8cc80c", "discarded when tied for the lowest"),
    ("turn:charity:compare:7033f881", "given to the lowest player"),
    ("turn:charity:number:c8f6e3f3", "given to the lowest player"),
]


@pytest.mark.parametrize(("mutant_id", "check"), CASES)
def test_a_broken_turn_rule_fails_the_monster(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == "Potted Plant")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


# (mutant, the check that must see it), tried with the core set's Mr. Bones (Undead).
JOINING_CASES = [
    ("turn:join_monster:compare:c391735b", "joins a fight with a monster of its tag"),
    ("turn:join_monster:negation:0aefe10a", "joins a fight with a monster of its tag"),
    ("turn:join_monster:compare:e85d131d", "joins a fight with a monster of its tag"),
    ("turn:join_monster:compare:7069f20c", "joins a fight with a monster of its tag"),
    ("turn:join_monster:negation:881c5570", "joins a fight with a monster of its tag"),
    ("turn:join_monster:statement:2aea56aa", "joins a fight with a monster of its tag"),
    ("turn:join_monster:statement:97ebd1fd", "joins a fight with a monster of its tag"),
    ("turn:join_monster:boolean:087d32d0", "not joined to a fight with no monster of its tag"),
    ("turn:join_monster:branch:4ca7b246", "not joined to a fight with no monster of its tag"),
    # One monster of its tag in the fight is enough, beside others.
    ("turn:join_monster:builtin:7df917f4", "joins a fight with the Ogre and a monster of its"),
]


@pytest.mark.parametrize(("mutant_id", "check"), JOINING_CASES)
def test_a_broken_joining_rule_fails_the_undead_monster(
    core_set: SetDocument, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == "Mr. Bones")
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


# (card, mutant, the check that must see it): the turn's rules a monster's own text brings in.
MONSTER_CASES = [
    # Swapped in against a character it refuses, the Amazon leaves and the fight is over.
    ("Amazon", "turn:add_monster:statement:45860856", "against a character it refuses, it ends"),
    # Death: the new character's fresh start is drawn once, not on every turn after.
    ("Plutonium Dragon", "turn:begin_turn:truth:25bec9ee", "draws a fresh hand only once"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), MONSTER_CASES)
def test_a_broken_turn_rule_fails_the_monster_whose_text_brings_it(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == name)
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)
