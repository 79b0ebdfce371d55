"""Outcomes on a victim and the table (Bad Stuff, a curse's cast): each rule the card or the
rulebook states is seen to fail the card when that rule is broken in the engine (one of the
mutation tool's mutants planted, then restored)."""

import pytest

from tests.validator.planting import assert_planted_bug_fails
from validator.engine import SetDocument

# (card of the core set, mutant, the check that must see it)
CASES = [
    # Unspeakably Awful Indescribable Horror: a Wizard loses the Wizard, not another Class.
    (
        "Unspeakably Awful Indescribable Horror",
        "badstuff:_apply_one:branch:1f840a26",
        "keeps it and loses the Wizard",
    ),
    # Change Race / Change Class: no effect on a Human or on the classless.
    ("Curse! Change Race", "badstuff:_apply_one:branch:0d43a496", "without a race"),
    ("Curse! Change Class", "badstuff:_apply_one:branch:0d43a496", "without a class"),
    # Income Tax: items worth exactly the lost value pay it (no level lost) ...
    ("Curse! Income Tax", "badstuff:_apply_one:compare:5d9bbab0", "must pay as much"),
    # ... and a victim who lost nothing makes no one pay.
    ("Curse! Income Tax", "badstuff:_apply_one:branch:cab0a38d", "victim lost nothing"),
    ("Curse! Income Tax", "badstuff:_apply_one:compare:87af423a", "victim lost nothing"),
    # ... and one item that covers it is paid alone, the dearer one kept.
    ("Curse! Income Tax", "badstuff:_cheapest_payment:number:26261e06", "one item that covers"),
    # Insurance Salesman: 1,000 Gold of items go, not none, not more (thirteen items held).
    ("Insurance Salesman", "badstuff:_cheapest_payment:statement:2c2dca29", "thirteen items"),
    ("Insurance Salesman", "badstuff:_cheapest_payment:augmented:f8af6f47", "thirteen items"),
    ("Insurance Salesman", "badstuff:_cheapest_payment:branch:c11491b1", "thirteen items"),
    ("Insurance Salesman", "badstuff:_cheapest_payment:compare:248efe94", "thirteen items"),
    # A taker of items takes an item, though a Treasure in hand is worth more (Net Troll) ...
    ("Net Troll", "badstuff:_rivals_take:branch:cdcd3f57", "around a table of five"),
    # ... and the items the Leperchaun's neighbours pick are discarded, not kept by them.
    ("Leperchaun", "badstuff:_rivals_discard:statement:e0c92747", "around a table of five"),
    ("Leperchaun", "badstuff:_rivals_discard:statement:0dc27dea", "around a table of five"),
    # ... and a taker of Treasures takes no Door card (Hippogriff).
    ("Hippogriff", "badstuff:_rivals_take:compare:74e81e67", "only a Door card"),
    # Cheat! leaves play with the item it is on: it goes to the discards, it does not vanish.
    ("Drooling Slime", "badstuff:detach_item:branch:ac7f392b", "takes the Cheat! along"),
    ("Drooling Slime", "badstuff:detach_item:statement:3a1d5c94", "takes the Cheat! along"),
    # The dead receive no cards: a dead player neither takes its share nor loots a body ...
    ("Hippogriff", "badstuff:_rivals:negation:6e3ec706", "killed just before takes nothing"),
    ("Bullrog", "badstuff:kill:boolean:de3e3134", "killed just before loots nothing"),
    # ... and a curse cast on the dead finds nothing more to take (the Level is kept).
    ("Curse! Lose Your Class", "badstuff:apply_outcomes:branch:67c49fb7", "victim killed"),
    ("Curse! Lose Your Class", "badstuff:apply_outcomes:negation:a1ea7216", "victim killed"),
    # Big items: who loses what let them carry a second one gives the extra to the
    # lowest-Level living player able to carry it, or discards it.
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:truth:0db02611",
        "the extra Big item goes to the lowest Level",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:compare:c61400db",
        "the extra Big item goes to the lowest Level",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:compare:4b573e20",
        "the extra Big item goes to the lowest Level",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:compare:41efd80e",
        "the extra Big item goes to the lowest Level",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:negation:294ad812",
        "the extra Big item goes to the lowest Level",
    ),
    ("Curse! Lose Your Race", "badstuff:enforce_big_limit:number:589162a8", "goes to a porter"),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:boolean:584a8667",
        "the extra Big item goes to the lowest Level",
    ),
    ("Curse! Lose Your Race", "badstuff:enforce_big_limit:compare:95016a9f", "carries 2 Big items"),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:branch:74d1f88e",
        "the extra Big item goes to the lowest Level",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:compare:ab5af111",
        "the extra Big item goes to the lowest Level",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:arithmetic:8ba6d476",
        "carries 2 Big items",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:number:cffb522f",
        "the extra Big item goes to the lowest Level",
    ),
    (
        "Curse! Lose Your Race",
        "badstuff:enforce_big_limit:statement:aade1dd4",
        "the extra Big item goes to the lowest Level",
    ),
    ("Curse! Lose Your Race", "badstuff:enforce_big_limit:statement:dccc2d29", "no one can carry"),
    (
        "Curse! Lose Your Race",
        "badstuff:discard_character:statement:cce399ac",
        "the extra Big item",
    ),
    # A second card of an axis (Super Munchkin) goes with the last card of that axis only.
    (
        "Curse! Lose Your Class",
        "badstuff:discard_character:branch:43583bb4",
        "a second class card goes",
    ),
    (
        "Curse! Lose Your Class",
        "badstuff:discard_character:negation:0f32d5b9",
        "a second class card goes",
    ),
    (
        "Curse! Lose Your Class",
        "badstuff:discard_character:branch:7a447721",
        "a second class card goes",
    ),
    (
        "Curse! Lose Your Class",
        "badstuff:discard_character:boolean:4b508be1",
        "a second class card goes",
    ),
    (
        "Curse! Lose Your Class",
        "badstuff:discard_character:compare:033326e4",
        "a second class card goes",
    ),
    (
        "Curse! Lose Your Class",
        "badstuff:discard_character:statement:c0352732",
        "a second class card goes",
    ),
    (
        "Curse! Lose Your Class",
        "badstuff:discard_character:statement:75c27556",
        "a second class card goes",
    ),
    # Super Munchkin's Powers: a Level lost below their total Rank costs Powers, as few as it
    # takes (any of Rank 1 may go) ...
    ("Curse! Lose a Level", "badstuff:change_level:arithmetic:aee97e2d", "Powers up to the Level"),
    ("Curse! Lose a Level", "badstuff:change_level:branch:905929cb", "Powers up to the Level"),
    ("Curse! Lose a Level", "badstuff:change_level:statement:c3fbb110", "Powers up to the Level"),
    (
        "Curse! Lose a Level",
        "badstuff:enforce_power_ranks:compare:c8db2da9",
        "Powers up to the Level",
    ),
    # ... and death costs the Origin, and the Power it made room for.
    ("Bullrog", "badstuff:kill:statement:de0ce3bb", "an Origin and a Power more"),
    ("Bullrog", "badstuff:kill:statement:360fb361", "an Origin and a Power more"),
    ("Bullrog", "badstuff:kill:statement:3810e3c4", "an Origin and a Power more"),
    # Death takes all the victim's stuff, a Hireling too.
    ("Bullrog", "badstuff:kill:statement:a8778941", "Hireling goes with the rest"),
    ("Bullrog", "badstuff:kill:statement:402988a4", "Hireling goes with the rest"),
    # The dead take no extra Big item: it goes to a living player.
    ("Curse! Lose Your Race", "badstuff:enforce_big_limit:boolean:8b826db7", "lowest Level"),
    # Truly Obnoxious Curse!: the item giving the biggest bonus goes, not another.
    ("Truly Obnoxious Curse!", "badstuff:_apply_one:branch:e579ad9c", "biggest bonus"),
    ("Truly Obnoxious Curse!", "badstuff:_apply_one:builtin:98173ad6", "biggest bonus"),
    # Insurance Salesman: the victim's dearest item, worth the whole 1,000, may pay alone.
    ("Insurance Salesman", "badstuff:_cheapest_payment:number:d033e601", "pays alone"),
    # Change Sex: a male victim ends female, and a female one male.
    ("Curse! Change Sex", "badstuff:_apply_one:compare:5283c69e", "victim changes sex"),
    # Booty: an enhancer fitted on a Ship leaves play with the Ship lost.
    ("Curse! Lose a Big Item", "badstuff:detach_item:statement:baad95bd", "fitted on the Ship"),
    # An item not marked Big is Small, a carried one-shot too: a Small item loss spares the
    # Big Cart, a Big item loss the potion, and the potion is no second Big item.
    ("Curse! Lose a Small Item", "state:item_candidates:branch:e7da6c7c", "only a Big item"),
    ("Curse! Lose a Big Item", "state:is_big:truth:b4d1263f", "only a carried potion"),
    (
        "Curse! Lose a Small Item",
        "state:_compute_card_facts:truth:0e5a2cc5",
        "and a carried potion",
    ),
    # The dead start their next turn with four cards from each deck.
    ("Bullrog", "badstuff:kill:truth:1992dcfc", "four cards from each deck"),
]


@pytest.mark.parametrize(("name", "mutant_id", "check"), CASES)
def test_a_broken_outcome_rule_fails_the_card(
    core_set: SetDocument, name: str, mutant_id: str, check: str
) -> None:
    card = next(c for c in core_set.cards if c.name == name)
    assert_planted_bug_fails(card, "munchkin-core", mutant_id, check)
