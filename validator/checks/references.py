"""The reference cards: plain, predictable companions for the card under test (the Ogre, the
Rage, an item for every slot...), those only some effects need (`ON_DEMAND`), and those made for
one card only (cards of the traits its conditions name, items carrying a tag, stand-ins for the
monsters it names); the facts the oracle knows about every such item (`ITEM_FACTS`); and the
library a card's scenarios are run against, so that a check's result depends on the card under
test and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from validator.engine import (
    AddMonster,
    AllOf,
    AnyOf,
    BonusesUsed,
    CancelCurse,
    CancelEscape,
    CardBase,
    CardLibrary,
    ChangeCharacterCard,
    Cheat,
    ConditionBase,
    CurseImmunity,
    EffectBase,
    EquippedWithTag,
    EscapeByDiscard,
    ExtraCharacterCard,
    Mate,
    MonsterLevelIn,
    MonsterNamed,
    MonsterTagged,
    NotCondition,
    RemoveMonster,
    ReplaceMonster,
    RunAway,
    Strength,
    UsedTag,
    UseMonsterLevel,
    parse_card,
)

_FULL = {"status": "full"}


def _item(name: str, slot: str, bonus: int = 1, gold: int = 200, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "deck": "treasure",
        "kind": "item",
        "slot": slot,
        "bonus": bonus,
        "gold": gold,
        "encoding": _FULL,
        **extra,
    }


def monster_document(name: str, level: int, treasures: int = 1, **extra: Any) -> dict[str, Any]:
    """A plain monster's document (a level lost as Bad Stuff), `extra` keys added."""
    return {
        "name": name,
        "deck": "door",
        "kind": "monster",
        "level": level,
        "treasures": treasures,
        "levels_gained": 1,
        "bad_stuff": [{"type": "lose_levels", "amount": 1}],
        "encoding": _FULL,
        **extra,
    }


REFERENCE_DOCUMENTS: list[dict[str, Any]] = [
    monster_document("Validator Ogre", 5, treasures=2),
    {
        "name": "Validator Rage",
        "deck": "door",
        "kind": "monster_enhancer",
        "strength": 100,
        "treasures": 0,
        "encoding": _FULL,
    },
    # Takes any monster's Treasure down to none (never below: the rules pay no debt).
    {
        "name": "Validator Famine",
        "deck": "door",
        "kind": "monster_enhancer",
        "strength": 0,
        "treasures": -10,
        "encoding": _FULL,
    },
    {
        "name": "Validator Door",
        "deck": "door",
        "kind": "other_door",
        "copies": 2,
        "encoding": _FULL,
    },
    _item("Validator Trinket", "other", bonus=0, gold=0, copies=2),
    _item("Validator Helm", "headgear"),
    _item("Validator Mail", "armor"),
    _item("Validator Boots", "footgear", tags=["below-waist"]),
    _item("Validator Sword", "one_hand"),
    _item("Validator Buckler", "one_hand"),
    _item("Validator Ram", "two_hands", big=True, bonus=2, gold=400),
    _item("Validator Cart", "other", big=True, bonus=1, gold=300),
    _item("Validator Gauntlet", "other", bonus=30, gold=0),
]
# A second monster for the cards that add, swap or remove one: weak, and its Bad Stuff
# differs from the Ogre's so that who caught whom shows.
_IMP = monster_document("Validator Imp", 1, bad_stuff=[{"type": "lose_levels", "amount": 2}])
WINGS = "Validator Wings"
TITAN = "Validator Titan"
_WINGS = _item(WINGS, "other", bonus=0, gold=0, effects=[{"type": "runaway", "amount": 1}])
# References only some effects need: added to the library of a card that has one, so that
# every other card's scenarios stay small.
ON_DEMAND: dict[type[EffectBase], list[dict[str, Any]]] = {
    RemoveMonster: [_IMP],
    AddMonster: [_IMP],
    ReplaceMonster: [_IMP],
    Mate: [
        {
            "name": "Validator Vigor",
            "deck": "door",
            "kind": "monster_enhancer",
            "strength": 3,
            "treasures": 1,
            "encoding": _FULL,
        },
        # A third monster beside the pair, whose run must not feel the pair's modifier.
        _IMP,
    ],
    CancelCurse: [
        {
            "name": "Validator Hex",
            "deck": "door",
            "kind": "curse",
            "effects": [{"type": "strength", "amount": -3, "duration": "next_combat"}],
            "encoding": _FULL,
        }
    ],
    # Refused to a male character, and a second Headgear: what Cheat! must allow.
    Cheat: [_item("Validator Tiara", "headgear", bonus=2, usable_by={"sex": "female"})],
    CurseImmunity: [
        {
            "name": "Validator Jinx",
            "deck": "door",
            "kind": "curse",
            "effects": [{"type": "lose_levels", "amount": 1}],
            "encoding": _FULL,
        }
    ],
    # +1 to Run Away per copy, to bring a harsh Run Away penalty within a die's reach.
    RunAway: [_WINGS],
    # A Run Away bonus the roll made again after an undone escape must keep.
    CancelEscape: [_WINGS],
    # A monster card for the hand, whose Level a character may fight with instead of theirs.
    UseMonsterLevel: [monster_document(TITAN, 12)],
}
# A one-shot of +1 for either side: played for the monster, it is no bonus of the fighter's
# (what a condition on bonuses used must tell apart).
DROP = "Validator Drop"
DROP_DOCUMENT: dict[str, Any] = {
    "name": DROP,
    "deck": "treasure",
    "kind": "one_shot",
    "bonus": 1,
    "gold": 100,
    "encoding": _FULL,
}
_REFERENCES: list[CardBase] | None = None
_EXTRA: list[CardBase] | None = None


def extra_references() -> list[CardBase]:
    """A hireling, a race no condition names (to be "not Human") and a class likewise."""
    global _EXTRA
    if _EXTRA is None:
        _EXTRA = [
            parse_card(
                {
                    "name": "Validator Henchman",
                    "deck": "treasure",
                    "kind": "hireling",
                    "encoding": _FULL,
                }
            ),
            parse_card(
                {"name": "Validator Stranger", "deck": "door", "kind": "race", "encoding": _FULL}
            ),
            parse_card({"name": DRIFTER, "deck": "door", "kind": "class", "encoding": _FULL}),
        ]
    return _EXTRA


def references() -> list[CardBase]:
    global _REFERENCES
    if _REFERENCES is None:
        _REFERENCES = [parse_card(d) for d in REFERENCE_DOCUMENTS]
    return _REFERENCES


EQUIPMENT = [
    "Validator Helm",
    "Validator Mail",
    "Validator Boots",
    "Validator Sword",
    "Validator Buckler",
    "Validator Cart",
]
STRANGER = ("race", "validator stranger")
# A class no condition names: a second character card beside a Race under test.
DRIFTER = "Validator Drifter"

# The references scenarios name most: the Ogre fought, the Imp added or swapped in, and the
# Rage (+100) that makes a fight lost, to run away or meet Bad Stuff.
OGRE = "Validator Ogre"
IMP = "Validator Imp"
RAGE = "Validator Rage"
FAMINE = "Validator Famine"

# The oracle reads an item's slot, bonus, Gold, size and tags from its document, never from
# the engine; the tokens made for a tag join these as they are made.
ITEM_FACTS: dict[str, dict[str, Any]] = {
    d["name"]: d
    for d in [*REFERENCE_DOCUMENTS, *(d for ds in ON_DEMAND.values() for d in ds)]
    if "slot" in d
}


def title_case(name: str) -> str:
    """The name with each word's first letter capitalised, as card names are written."""
    return " ".join(w[:1].upper() + w[1:] for w in name.split(" "))


def _trait_card(axis: str, name: str) -> CardBase:
    return _parsed({"name": title_case(name), "deck": "door", "kind": axis, "encoding": _FULL})


def traits_of(conditions: Iterable[ConditionBase]) -> set[tuple[str, str]]:
    """The (axis, name) traits the conditions mention, tags and sexes aside."""
    found: set[tuple[str, str]] = set()
    for condition in conditions:
        for axis, name in condition.mentions():
            if axis not in ("tag", "sex"):
                found.add((axis, name))
    return found


# Companions made for one card only (an item for a tag, a monster for a monster condition,
# cards of a character axis), parsed once each.
_PARSED: dict[str, CardBase] = {}


def _parsed(document: dict[str, Any]) -> CardBase:
    card = _PARSED.get(document["name"])
    if card is None:
        card = _PARSED[document["name"]] = parse_card(document)
    return card


def tag_token(tag: str) -> str:
    """A plain item carrying one tag (no bonus, no Gold), registered with the item facts."""
    name = f"Validator {title_case(tag)} Token"
    ITEM_FACTS.setdefault(name, _item(name, "other", bonus=0, gold=0, tags=[tag]))
    return name


# The character axes an item's restriction may name (`usable_by: {class: cleric}`).
RESTRICTING_AXES = ("race", "class", "accent", "loyalty", "species", "power", "origin", "training")


def relic_for(card: CardBase) -> str | None:
    """An item only a character with this card may use (as the Mace of Sharpness is a
    Cleric's), +3 and of no slot's limit, registered with the item facts; None for a card of
    no axis an item names."""
    if card.kind_name not in RESTRICTING_AXES:
        return None
    name = f"Validator Relic of {card.name}"
    ITEM_FACTS.setdefault(
        name,
        _item(name, "other", bonus=3, gold=0, usable_by={card.kind_name: card.name.casefold()}),
    )
    return name


def tagged_drop(tag: str) -> str:
    """A +1 one-shot carrying one tag: a tag used in a fight may come from a one-shot."""
    return f"Validator {title_case(tag)} Drop"


def _tagged_drop_document(tag: str) -> dict[str, Any]:
    return {**DROP_DOCUMENT, "name": tagged_drop(tag), "tags": [tag]}


def shunned_item(axis: str) -> str:
    """An item forbidden to the first plain card of an axis, registered with the item facts."""
    name = f"Validator {title_case(axis)} Shunned"
    one = axis_card(axis, 0)[1]
    ITEM_FACTS.setdefault(name, _item(name, "other", bonus=2, gold=0, not_usable_by={axis: one}))
    return name


def human_relic() -> str:
    """An item only a Human may use: a character with no Race card is Human (core rules,
    Race), so it becomes usable once the Race card is gone."""
    name = "Validator Human Relic"
    ITEM_FACTS.setdefault(name, _item(name, "other", bonus=3, gold=0, usable_by={"race": "human"}))
    return name


def axis_card(axis: str, rank: int) -> tuple[str, str]:
    """The rank-th plain card of a character axis, as a trait (axis, name)."""
    return (axis, f"validator {axis} {('one', 'two', 'three')[rank]}")


def stand_in_monster(condition: ConditionBase) -> str | None:
    """A monster for which a monster condition holds (the named one, or one with the tag)."""
    if isinstance(condition, MonsterNamed):
        return condition.monster
    if isinstance(condition, MonsterTagged):
        return f"Validator {title_case(condition.monster_tag)} Monster"
    return None


def level_cases(condition: MonsterLevelIn) -> list[tuple[int, bool]]:
    """A monster Level inside the range, and one just outside it."""
    low, high = condition.monster_level.min, condition.monster_level.max
    inside = high if high is not None else low or 1
    outside = high + 1 if high is not None else (low or 1) - 1
    return [(inside, True)] + ([(outside, False)] if outside >= 0 else [])


def level_monster(level: int) -> str:
    """The name of the reference monster of this Level."""
    return f"Validator Level {level} Monster"


def condition_leaves(condition: ConditionBase) -> Iterable[ConditionBase]:
    """The plain conditions under any all/any/not nesting, in order."""
    if isinstance(condition, AllOf | AnyOf):
        for part in condition.all if isinstance(condition, AllOf) else condition.any:
            yield from condition_leaves(part)
    elif isinstance(condition, NotCondition):
        yield from condition_leaves(condition.not_)
    else:
        yield condition


def _companions(card: CardBase) -> list[CardBase]:
    """What this card's checks need beyond the shared references."""
    documents: list[dict[str, Any]] = []
    tags: list[str] = []
    for condition in card.all_conditions():
        for leaf in condition_leaves(condition):
            if isinstance(leaf, UsedTag):
                tags.append(leaf.used_tag)
                documents.append(_tagged_drop_document(leaf.used_tag))
            if isinstance(leaf, BonusesUsed):
                documents.append(DROP_DOCUMENT)
            if isinstance(leaf, MonsterLevelIn):
                levels = [level for level, _ in level_cases(leaf)]
                documents += [monster_document(level_monster(level), level) for level in levels]
            name = stand_in_monster(leaf)
            if name is not None:
                tagged = [leaf.monster_tag] if isinstance(leaf, MonsterTagged) else []
                documents.append(monster_document(name, 10, tags=tagged))
    relic = relic_for(card)
    if relic is not None:
        documents.append(ITEM_FACTS[relic])
    if card.kind_name == "race":
        documents.append(ITEM_FACTS[human_relic()])
    axes: set[str] = set()
    for effect in card.all_effects():
        documents += ON_DEMAND.get(type(effect), [])
        if isinstance(effect, EscapeByDiscard):
            tags += effect.tags
        # A bonus per item of a tag (Knife Training) is tried with items of that tag.
        if isinstance(effect, Strength) and isinstance(effect.per, EquippedWithTag):
            tags.append(effect.per.equipped_with_tag)
        if isinstance(effect, ChangeCharacterCard | ExtraCharacterCard):
            axes.add(effect.axis)
    documents += [ITEM_FACTS[tag_token(tag)] for tag in tags]
    for axis in sorted(axes):
        decoy = "race" if axis != "race" else "class"
        for trait in [*(axis_card(axis, rank) for rank in range(3)), axis_card(decoy, 0)]:
            documents.append(
                {"name": title_case(trait[1]), "deck": "door", "kind": trait[0], "encoding": _FULL}
            )
        # An item the first card may not use: with Super Munchkin or Half-Breed on that card
        # alone, its player may equip it all the same.
        documents.append(ITEM_FACTS[shunned_item(axis)])
        # A monster with a bonus against the first card: whether a drawback applies shows.
        one = axis_card(axis, 0)
        documents.append(
            monster_document(
                f"Validator {title_case(axis)} Hater",
                1,
                effects=[{"type": "strength", "amount": 5, "when": {axis: one[1]}}],
            )
        )
    return [_parsed(d) for d in documents]


def _ship(name: str, bonus: int, gold: int, runaway: int | None) -> dict[str, Any]:
    effects = [] if runaway is None else [{"type": "runaway", "amount": runaway}]
    return {
        "name": name,
        "deck": "door",
        "kind": "ship",
        "slot": "ship",
        "big": True,
        "bonus": bonus,
        "gold": gold,
        "effects": effects,
        "encoding": _FULL,
    }


# Ships for the monsters of the set that has them (Munchkin Booty): one that helps running
# (+1), one that slows it (-2), one that does neither; and Footgear of +2 to Run Away, the
# kind of bonus a Ship's replaces.
SLOOP, GALLEON, RAFT, SEA_BOOTS = (
    "Validator Sloop",
    "Validator Galleon",
    "Validator Raft",
    "Validator Sea Boots",
)
SHIP_DOCUMENTS = [
    _ship(SLOOP, 2, 400, 1),
    _ship(GALLEON, 4, 800, -2),
    _ship(RAFT, 1, 200, None),
    _item(SEA_BOOTS, "footgear", bonus=0, gold=400, effects=[{"type": "runaway", "amount": 2}]),
]
SHIP_SETS = ("munchkin-booty",)


def library_for(card: CardBase, set_code: str) -> CardLibrary:
    """The library a card's checks run in: the card, the references and its companions."""
    library = CardLibrary()
    library.add(set_code, card)
    names = {card.name.casefold()}
    for reference in references():
        if reference.name.casefold() not in names:
            library.add("validator", reference)
            names.add(reference.name.casefold())
    for extra in extra_references():
        if extra.name.casefold() not in names:
            library.add("validator", extra)
    companions = [_trait_card(axis, name) for axis, name in traits_of(card.all_conditions())]
    if set_code in SHIP_SETS and card.kind_name == "monster":
        companions += [_parsed(d) for d in SHIP_DOCUMENTS]
    for companion in companions + _companions(card):
        if companion.name.casefold() not in names:
            library.add("validator", companion)
            names.add(companion.name.casefold())
    return library
