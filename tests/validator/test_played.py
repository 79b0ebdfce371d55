"""The checks of effects that come with playing a card: each refusal and default they read from
the card's facts and the rules is seen to fail the card when that rule is broken in the engine
(the rule broken by planting one of the mutation tool's mutants, then restored)."""

import pytest

from tests.validator.planting import assert_planted_bug_fails
from validator.engine import SetDocument, load_set_file
from validator.mutants.suite import FIXTURES


def _set(code: str) -> SetDocument:
    return load_set_file(FIXTURES / "sets" / f"{code}.yaml")


# (card, mutant, the check that must see it): each rule as the core rules and the card state it.
CASES = [
    # Transferral Potion: the fight goes to *another* player.
    ("Transferral Potion", "turn:_play_one_shot:branch:3d561500", "refused with no one named"),
    ("Transferral Potion", "turn:_play_one_shot:boolean:8183646d", "refused with no one named"),
    # Doppleganger doubles the strength of a player in the combat only.
    ("Doppleganger", "turn:_play_one_shot:branch:361fbbed", "refused to a player outside"),
    # Magic Lamp sends one monster away: with two, it must be told which.
    ("Magic Lamp", "turn:_play_one_shot:branch:76da52ce", "none is named"),
    ("Magic Lamp", "turn:_play_one_shot:statement:03404709", "none is named"),
    # Flask of Glue named at no one holds the fighter.
    ("Flask of Glue", "turn:_play_one_shot:boolean:a2caff10", "the fighter held"),
    # A Loaded Die shows a 6, not a 7: still caught when -2 to run away.
    ("Loaded Die", "turn:_play_one_shot:number:01b34e0e", "still short against a -2"),
    # Wishing Ring named at no one cancels its player's own curse.
    ("Wishing Ring", "turn:_play_one_shot:boolean:9a09919d", "no one is named"),
    # Cheat! needs an item; one from the hand only out of combat, on its owner's turn.
    ("Cheat!", "turn:_play_cheat:branch:daf1a38f", "refused with no item named"),
    ("Cheat!", "turn:_play_cheat:statement:c5e53b64", "from the hand in a combat"),
    ("Cheat!", "turn:_play_cheat:branch:231b1c2d", "from the hand on another's turn"),
    ("Cheat!", "turn:_play_cheat:statement:b966bbc0", "a carried item brought into use"),
    # Half-Breed is played when a Race could be (its player's own turn), onto a Race.
    ("Half-Breed", "turn:_play_other:branch:170f8753", "refused on another player's turn"),
    ("Half-Breed", "turn:_play_other:branch:a9e9bb27", "refused with no race card"),
    # Wandering Monster and Illusion bring in a monster from their player's own hand.
    ("Wandering Monster", "turn:_play_other:branch:dedce103", "not a monster"),
    ("Wandering Monster", "turn:_play_other:boolean:97db3af3", "refused with nothing"),
    ("Illusion", "turn:_play_other:branch:69cae001", "not a monster"),
    ("Illusion", "turn:_play_other:boolean:4eff9931", "refused with nothing"),
    # A Mate named at the copy copies the same monster again.
    ("Mate", "turn:_play_other:branch:962386ac", "played on the copy"),
    # Steal a Level: from a Level 2 player, at Level 8, and with no one named.
    ("Steal a Level", "turn:_play_other:number:ba75cd29", "from a Level 2 player"),
    ("Steal a Level", "turn:_play_other:number:7886f0bd", "at Level 8"),
    ("Steal a Level", "turn:_play_other:boolean:ffae4e99", "with no one named"),
    ("Steal a Level", "turn:_play_other:statement:837a3799", "with no one named"),
    ("Steal a Level", "turn:_play_other:statement:518cd3b2", "with no one named"),
    # Cheat!: once per item, on an item only; the item under it takes no slot and keeps it.
    ("Cheat!", "turn:_play_cheat:branch:1e1a7f6d", "a second time on the same item"),
    ("Cheat!", "turn:_play_cheat:branch:68536413", "not an item"),
    ("Cheat!", "turn:_equip_refusal:boolean:a3dda189", "leaves its slot free"),
    ("Cheat!", "turn:_equip_refusal:branch:de828ca2", "worn again"),
    # Wishing Ring cancels a curse only where there is one.
    ("Wishing Ring", "turn:_cancel_curse:branch:ffd28c6b", "no curse to cancel"),
    # An enhancer on a Mate enhances the pair.
    ("Mate", "turn:_play_enhancer:branch:6d041e54", "an enhancer on the copy"),
    # Help Me Out Here!: by the fighter, on an item from a named rival's table.
    ("Help Me Out Here!", "turn:_help_me_out:branch:748e070c", "not by the helper"),
    ("Help Me Out Here!", "turn:_help_me_out:branch:5d1076fc", "with no one named"),
    ("Help Me Out Here!", "turn:_help_me_out:boolean:090ac805", "from a rival's hand"),
    # The Hireling carries a second Big item received in a trade (counted once each).
    ("Hireling", "turn:trade:number:cbdb2a86", "a second Big item taken in trade"),
    # Instant Wall: for two, the helper gets away as well as its player.
    ("Instant Wall", "turn:_play_one_shot:compare:61974509", "for the fighter and the helper"),
    # Wishing Ring: out of combat, named at no one, it is its player's own curse that goes.
    ("Wishing Ring", "turn:_play_one_shot:boolean:365b1533", "out of combat when no one is named"),
    ("Wishing Ring", "turn:_cancel_curse:branch:7528c2b8", "out of combat when no one is named"),
    ("Wishing Ring", "turn:_cancel_curse:statement:deea6ed4", "out of combat when no one is named"),
    ("Wishing Ring", "turn:_cancel_curse:statement:5d19b667", "out of combat when no one is named"),
    # Magic Lamp: played only by someone in the fight.
    ("Magic Lamp", "turn:_play_one_shot:branch:d2aec6e9", "refused to a player outside the fight"),
    # Super Munchkin: one at a time, a second copy is refused.
    ("Super Munchkin", "turn:_play_other:compare:e667daa3", "beside another copy of itself"),
    ("Super Munchkin", "turn:_play_other:branch:5074975e", "beside another copy of itself"),
    # Hireling: played at any time, on any player's turn.
    ("Hireling", "turn:play:boolean:cfa7630a", "played on another player's turn"),
    ("Hireling", "turn:play:compare:dc472ad7", "played on another player's turn"),
    # Hireling: no Item, so never traded.
    ("Hireling", "turn:_tradable:branch:44f007b0", "not traded away"),
    # Hireling: no Ally nor Sidekick, he is not given up for an escape (and says so).
    ("Hireling", "turn:sacrifice:compare:ff48e84f", "not sacrificed for an escape"),
    ("Hireling", "turn:sacrifice:compare:a03ec5b2", "not sacrificed for an escape"),
    ("Hireling", "turn:sacrifice:branch:9f3d8a23", "not sacrificed for an escape"),
    # Hireling: gone, the second Big item he carried goes to the lowest-Level player.
    ("Hireling", "badstuff:take_card:statement:c736bf0f", "goes to the lowest Level"),
    # Steal a Level with no one named: a Level 2 player has a level to give; with everyone
    # else at Level 1 there is none.
    ("Steal a Level", "badstuff:_apply_one:number:2847272e", "from the one Level 2 player"),
    ("Steal a Level", "badstuff:_apply_one:compare:ca96e866", "everyone else at Level 1"),
    ("Steal a Level", "badstuff:_apply_one:branch:56519f4e", "everyone else at Level 1"),
    # Wand of Dowsing with both discard piles empty takes nothing.
    ("Wand of Dowsing", "badstuff:_apply_one:branch:ad4788bf", "discard piles empty"),
    # Divine Intervention raises no dead Cleric.
    ("Divine Intervention", "badstuff:change_level:branch:9d29906c", "acts as soon as it is"),
    ("Divine Intervention", "badstuff:change_level:number:0516fb3f", "acts as soon as it is"),
    # Hoard! drawn by the helper draws for the helper; its draws stop when no Treasure is
    # left, and an empty deck is made again from the discards.
    ("Hoard!", "badstuff:_apply_one:boolean:84b3ee2f", "it acts for the helper"),
    ("Hoard!", "badstuff:_apply_one:compare:d9c9c92d", "it acts for the helper"),
    ("Hoard!", "badstuff:_apply_one:branch:bcd43a92", "run the Treasure deck out"),
    ("Hoard!", "state:Game.draw:branch:83a6299d", "made again from the discards"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), CASES)
def test_a_broken_rule_fails_the_card_by_the_check_that_reads_it(
    name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in _set("munchkin-core").cards if c.name == name)
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)


def test_a_second_ship_under_cheat_gives_the_best_run_away_bonus() -> None:
    """Munchkin Booty: with two Ships (the second by Cheat!) the best Run Away bonus counts."""
    card = next(c for c in _set("munchkin-booty").cards if c.name == "Cheat!")
    assert_planted_bug_fails(
        card, "munchkin-booty", "runaway:runaway_modifier:builtin:868a42c9", "a second Ship"
    )


@pytest.mark.parametrize(
    "mutant_id",
    [
        "turn:_ships:compare:9deb7634",
        "turn:check_can_hold:branch:052c6e3a",
        "turn:check_can_hold:compare:963f6d19",
    ],
)
def test_without_cheat_a_second_ship_is_refused(mutant_id: str) -> None:
    """Munchkin Booty: one Ship at a time, unless Cheat! brings in the second."""
    card = next(c for c in _set("munchkin-booty").cards if c.name == "Cheat!")
    assert_planted_bug_fails(card, "munchkin-booty", mutant_id, "a second Ship is refused")


# SpongeBob's Wandering Monster puts two monsters in the fight: an Ally's bonus counts against
# both, and an Ally given up escapes both (the set's rulebook, Allies).
FOLLOWER_CASES = [
    ("strength:side_member_strength:augmented:3c591861", "bonus counts against both monsters"),
    ("runaway:_run_from:branch:f5390de7", "given up escapes both monsters"),
]


@pytest.mark.parametrize(("mutant_id", "check"), FOLLOWER_CASES)
def test_a_broken_follower_rule_fails_wandering_monster(mutant_id: str, check: str) -> None:
    card = next(c for c in _set("munchkin-spongebob").cards if c.name == "Wandering Monster")
    assert_planted_bug_fails(card, "munchkin-spongebob", mutant_id, check)
