"""Plain words for the effect language: a menu title and a one-line explanation of every effect
type and condition, for people who build cards without reading the definitions (the card
editor's controls, the reference page).

The definitions stay the one source of truth for what a card may hold: a type or condition
missing here still appears everywhere, under its own name and its docstring
(`effect_entry`, `condition_entry`); a test asks for an entry for each, so that it reads well.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass

from validator.engine.cards.conditions import ConditionBase
from validator.engine.cards.effects import EffectBase


@dataclass(frozen=True)
class Entry:
    """A menu title ("+N to combat strength") and one line saying what it does."""

    title: str
    help: str
    group: str = ""


COMBAT = "Combat"
ESCAPE = "Running away"
REWARD = "Rewards for winning"
FIGHT = "Monsters and the fight"
OUTCOME = "What happens to a player"
CHARACTER = "The character and their cards"

EFFECT_GLOSSARY: dict[str, Entry] = {
    "strength": Entry(
        "+N to combat strength",
        "Adds to (or takes from) combat strength: the monster's on a monster card, "
        "the player's on anything else.",
        COMBAT,
    ),
    "runaway": Entry(
        "+N to Run Away",
        "Changes the Run Away roll: from this monster on a monster card, from every monster "
        "elsewhere.",
        ESCAPE,
    ),
    "die_rolls": Entry("+N to every die roll", "Changes every die the player rolls.", COMBAT),
    "wins_ties": Entry("Wins ties", "The player wins a fight that ends in a tie.", COMBAT),
    "automatic_escape": Entry(
        "Escape automatically",
        "Running away succeeds with no roll (or after a failed one).",
        ESCAPE,
    ),
    "cannot_escape": Entry(
        "No one can Run Away", "Whoever fights this monster cannot flee it.", ESCAPE
    ),
    "no_pursuit": Entry(
        "Monster will not pursue",
        "The monster lets low-Level characters go: they need not fight or run.",
        ESCAPE,
    ),
    "on_escape": Entry(
        "Cost of running away",
        "What every player who runs from this monster suffers, even one who gets away.",
        ESCAPE,
    ),
    "after_escape": Entry(
        "Reward for getting away",
        "What the player gains once they have escaped every monster they ran from.",
        ESCAPE,
    ),
    "before_combat": Entry(
        "Before the fight",
        "Effects that happen when the monster appears, before anyone fights it.",
        FIGHT,
    ),
    "no_help": Entry("No help allowed", "The monster must be fought alone.", FIGHT),
    "level_only": Entry(
        "Level alone counts", "Items and other bonuses count for nothing in this fight.", FIGHT
    ),
    "ignore_level": Entry(
        "Level counts for nothing", "Only the player's bonuses fight this monster.", FIGHT
    ),
    "refuses_combat": Entry(
        "Monster refuses to fight",
        "Some players never fight it; it may hand them Treasures instead.",
        FIGHT,
    ),
    "may_decline": Entry(
        "Player may decline the fight",
        "The player can choose not to fight this monster.",
        FIGHT,
    ),
    "chase_away": Entry(
        "Chased away by someone",
        "A matching player makes the monster flee without a fight.",
        FIGHT,
    ),
    "bribe": Entry(
        "Can be bribed with an item",
        "The player avoids the fight by giving up an item worth enough Gold.",
        FIGHT,
    ),
    "escape_by_discard": Entry(
        "Escape by discarding an item",
        "On losing, the player gets away by throwing away an item with one of these tags.",
        ESCAPE,
    ),
    "extra_levels": Entry(
        "Extra levels for winning", "Beating the monster is worth more levels.", REWARD
    ),
    "extra_treasures": Entry(
        "Extra Treasures for winning", "Beating the monster is worth more Treasures.", REWARD
    ),
    "kill_monster": Entry(
        "Kill a monster outright", "Ends the fight: the monster dies, no roll needed.", FIGHT
    ),
    "lose_levels": Entry("Lose levels", "The player drops this many levels.", OUTCOME),
    "gain_levels": Entry("Gain levels", "The player goes up this many levels.", OUTCOME),
    "set_level": Entry("Set the Level", "The player's Level becomes a given number.", OUTCOME),
    "death": Entry(
        "Death", "The player dies: their stuff is looted, they keep their Level.", OUTCOME
    ),
    "lose_items": Entry(
        "Lose items", "The player loses items: by slot, size, tag, or all of them.", OUTCOME
    ),
    "lose_gold_value": Entry(
        "Lose items worth Gold", "The player gives up items worth at least this much.", OUTCOME
    ),
    "discard_hand": Entry("Discard the whole hand", "Every card in hand is thrown away.", OUTCOME),
    "discard_from_hand": Entry(
        "Discard cards from the hand", "The player throws away this many cards they hold.", OUTCOME
    ),
    "lose_cards": Entry(
        "Lose cards", "The player loses this many cards, in play or in hand, their pick.", OUTCOME
    ),
    "lose_character_card": Entry(
        "Lose a Race, Class...",
        "The player loses a character card such as a Race or Class.",
        OUTCOME,
    ),
    "change_character_card": Entry(
        "Change a Race, Class...", "The player swaps a character card for another.", OUTCOME
    ),
    "change_sex": Entry("Change sex", "The player's character changes sex.", OUTCOME),
    "rivals_take": Entry(
        "Other players take something",
        "Rivals help themselves to the player's items, Treasures or cards.",
        OUTCOME,
    ),
    "rivals_discard": Entry(
        "Other players choose what is discarded",
        "Rivals each pick one of the player's items, which is discarded: nobody keeps it.",
        OUTCOME,
    ),
    "roll": Entry(
        "Roll a die for the result", "A die decides which effects happen, face by face.", OUTCOME
    ),
    "choose": Entry(
        "Choose one of several", "The player picks one of the listed outcomes.", OUTCOME
    ),
    "steal_item": Entry("Steal an item", "The player takes an item from another player.", OUTCOME),
    "steal_level": Entry("Steal a level", "The player takes a level from another player.", OUTCOME),
    "draw_treasures": Entry("Draw Treasures", "The player draws Treasure cards.", OUTCOME),
    "take_from_discard": Entry(
        "Take from the discards", "The player takes cards back from a discard pile.", OUTCOME
    ),
    "discard_card": Entry(
        "Discard one of your cards",
        "The player throws away a card of their own, often to pay for an ability.",
        OUTCOME,
    ),
    "others_pay_value": Entry(
        "Others lose as much",
        "After the player loses an item, each rival loses items worth as much.",
        OUTCOME,
    ),
    "remove_monster": Entry(
        "Remove a monster from the fight", "Takes monsters out of the combat.", FIGHT
    ),
    "add_monster": Entry("Add a monster to the fight", "Brings another monster in.", FIGHT),
    "mate": Entry("The monster's mate joins", "A copy of the monster joins the fight.", FIGHT),
    "replace_monster": Entry(
        "Replace the monster", "Another monster takes this one's place in the fight.", FIGHT
    ),
    "cancel_curse": Entry("Cancel a curse", "Stops a curse from taking effect.", CHARACTER),
    "cancel_escape": Entry(
        "Cancel an escape", "A player who got away must fight after all.", ESCAPE
    ),
    "change_die_roll": Entry("Change a die roll", "Alters a roll just made.", COMBAT),
    "double_strength": Entry(
        "Double combat strength", "The player's combat strength counts twice.", COMBAT
    ),
    "transfer_combat": Entry(
        "Hand the fight to someone else", "Another player must fight the monster.", FIGHT
    ),
    "force_help": Entry(
        "Force someone to help", "A rival is made to join the fight on your side.", FIGHT
    ),
    "take_item_in_combat": Entry(
        "Take an item during the fight", "Grab an item from the fight to use.", COMBAT
    ),
    "cheat": Entry(
        "Cheat: use an item you could not", "Equip one item against the rules.", CHARACTER
    ),
    "extra_character_card": Entry(
        "An extra Race, Class...",
        "The character may hold a second card of one kind (Half-Breed, Super Munchkin).",
        CHARACTER,
    ),
    "extra_big_items": Entry(
        "Carry more Big items", "The character may carry more than one Big item.", CHARACTER
    ),
    "hand_size": Entry("Hand size", "How many cards the player may hold.", CHARACTER),
    "carry_item": Entry(
        "Carries an item", "A follower holds one item outside the usual limits.", CHARACTER
    ),
    "helper_levels": Entry("Levels for helping", "A helper who wins goes up levels too.", REWARD),
    "sell_double": Entry(
        "Sell an item for double", "Once a turn, an item sells for twice its Gold.", CHARACTER
    ),
    "only_slot_bonuses": Entry(
        "Only one slot's bonuses count", "Only items in this slot add to strength.", COMBAT
    ),
    "curse_immunity": Entry(
        "Immune to curses", "Curses from the player's own door do nothing to them.", CHARACTER
    ),
    "meta_ability": Entry(
        "A super ability", "Flight, a secret headquarters and the like.", CHARACTER
    ),
    "extra_power_rank": Entry(
        "More Power rank", "The Powers' total rank may go past the Level by this much.", CHARACTER
    ),
    "use_monster_level": Entry(
        "Fight with a monster's Level",
        "A discarded monster's Level stands in for the player's own.",
        COMBAT,
    ),
    "draw_from_discard": Entry(
        "Draw from the discards", "Take the top discard instead of a fresh card.", CHARACTER
    ),
}

PLAYER = "The player"
FIGHT_CONDITIONS = "The fight"
COMPOSE = "Combine conditions"

CONDITION_GLOSSARY: dict[str, Entry] = {
    "race": Entry("Race is...", "The player has this Race (Elf, Dwarf...).", PLAYER),
    "class": Entry("Class is...", "The player has this Class (Wizard, Thief...).", PLAYER),
    "accent": Entry("Accent is...", "The player has this Accent card.", PLAYER),
    "loyalty": Entry("Loyalty is...", "The player has this Loyalty card.", PLAYER),
    "species": Entry("Species is...", "The player has this Species card.", PLAYER),
    "power": Entry("Power is...", "The player has this Power card.", PLAYER),
    "origin": Entry("Origin is...", "The player has this Origin card.", PLAYER),
    "training": Entry("Training is...", "The player has this Training card.", PLAYER),
    "role": Entry("Role is...", "The player has this Role card.", PLAYER),
    "sex": Entry("Sex is...", "The player's character is male or female.", PLAYER),
    "level": Entry("Level between...", "The player's Level is in this range.", PLAYER),
    "level_rank": Entry(
        "Highest or lowest Level", "The player is at the top (or bottom) Level, ties count.", PLAYER
    ),
    "wearing": Entry("Has an item in a slot", "The player has something equipped there.", PLAYER),
    "has_in_play": Entry(
        "Has a card of a kind in play",
        "The player has a card of this kind in front of them.",
        PLAYER,
    ),
    "in_play_anywhere": Entry(
        "A card of a kind is in play anywhere",
        "Someone, anyone, has a card of this kind in front of them.",
        PLAYER,
    ),
    "monster_tag": Entry(
        "Monster has a tag", "The monster fought is tagged so (Undead...).", FIGHT_CONDITIONS
    ),
    "monster": Entry("Monster is named...", "The monster fought is this card.", FIGHT_CONDITIONS),
    "monster_level": Entry(
        "Monster's Level between...",
        "The monster fought has a Level in this range.",
        FIGHT_CONDITIONS,
    ),
    "helper_present": Entry(
        "Someone is helping", "Whether the fight has a helper.", FIGHT_CONDITIONS
    ),
    "used_tag": Entry(
        "Won using a tagged card", "The win used a card with this tag.", FIGHT_CONDITIONS
    ),
    "bonuses_used": Entry(
        "Won with bonuses", "Whether the win needed bonuses beyond Level.", FIGHT_CONDITIONS
    ),
    "all": Entry("All of these", "Every condition listed must hold.", COMPOSE),
    "any": Entry("Any of these", "At least one condition listed must hold.", COMPOSE),
    "not": Entry("Not this", "Holds when the condition inside does not.", COMPOSE),
}

# Labels of fields whose own names say little to a designer; the rest read as they are.
FIELD_LABELS: dict[str, str] = {
    "when": "Only when",
    "unless": "Except",
    "otherwise": "Otherwise (when it finds nothing to act on)",
    "if_fewer": "Also, when holding fewer",
    "per": "For each",
    "by": "Who chases it",
    "usable_by": "Usable only by",
    "not_usable_by": "Not usable by",
    "requires": "Requires",
    "bad_stuff": "Bad Stuff",
    "max_level": "Up to Level",
    "min_gold": "Least Gold",
}


def _humanize(word: str) -> str:
    return word.replace("_", " ").capitalize()


def _first_line(doc: str | None) -> str:
    text = " ".join((doc or "").split())
    return text.split(". ")[0].rstrip(".") + "." if text else ""


def effect_type_name(cls: type[EffectBase]) -> str:
    return str(typing.get_args(cls.model_fields["type"].annotation)[0])


def effect_entry(cls: type[EffectBase]) -> Entry:
    """The glossary's entry, or one made from the definition's name and docstring."""
    name = effect_type_name(cls)
    return EFFECT_GLOSSARY.get(name) or Entry(_humanize(name), _first_line(cls.__doc__))


def condition_entry(cls: type[ConditionBase]) -> Entry:
    return CONDITION_GLOSSARY.get(cls.key) or Entry(_humanize(cls.key), _first_line(cls.__doc__))
