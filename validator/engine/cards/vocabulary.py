"""The effect language's vocabulary: the model base, trait names and the phrases rules
text is built from."""

from __future__ import annotations

import re
import typing
from typing import Annotated, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
)

LANGUAGE_VERSION: Final = 1

# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

Deck = Literal["door", "treasure"]
Sex = Literal["male", "female"]
Slot = Literal["headgear", "armor", "footgear", "one_hand", "two_hands", "other", "vehicle", "ship"]
Size = Literal["big", "small"]
CardTag = Literal[
    "undead",
    "shark",
    "in-black",
    "weapon",
    "below-waist",
    "fire",
    "pole",
    "staff",
    "wand",
    "knife",
    "gun",
    "vehicle",
    "ship-enhancer",
    "race-attachment",
    "class-attachment",
    "item-attachment",
    "accent-attachment",
    "loyalty-attachment",
    "training-attachment",
    "species-attachment",
    "monster-adder",
    "trap",
    "origin",
]
# The character axes: a player holds cards on each axis (one per axis unless a card allows more).
Axis = Literal[
    "race", "class", "accent", "loyalty", "species", "power", "origin", "training", "role"
]
CHARACTER_KINDS: tuple[str, ...] = typing.get_args(Axis)
Duration = Literal["in_play", "this_combat", "next_combat", "permanent"]
Timing = Literal["any", "combat", "running_away", "own_turn", "on_draw", "outside_combat"]

_TRAIT = re.compile(r"^[a-z][a-z0-9' -]*$")

# The trait names of the official sets' races, classes and other character cards, as the
# language writes them (lower case): a plural players write ("Elves", "clerics") is read as
# one of these. A custom trait is any other name in the same form.
OFFICIAL_TRAITS: Final = frozenset(
    {
        "elf", "dwarf", "halfling", "cleric", "thief", "warrior", "wizard", "assassin",
        "captain", "exotic", "fry cook", "merchant", "musician", "mutant", "mystic", "navy",
        "pirate", "playboy", "student driver", "techno", "tourist", "british", "dutch",
        "french", "spanish", "american", "chinese", "russian", "crustacean", "fish",
        "sea sponge", "sea star",
    }
)  # fmt: skip
# Plurals English makes otherwise than with an -s.
_IRREGULAR_PLURALS: Final = {"elves": "elf", "dwarves": "dwarf", "thieves": "thief"}


def canonical_trait(value: object) -> object:
    """A trait name as players write it ("Elf", " Elves ", "CLERICS") in the language's form
    ("elf", "cleric"): lower case, single spaces, an official trait's plural made singular."""
    if not isinstance(value, str):
        return value
    name = " ".join(value.split()).lower()
    if name in OFFICIAL_TRAITS:
        return name
    if name in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[name]
    for ending in ("s", "es"):
        if name.endswith(ending) and name[: -len(ending)] in OFFICIAL_TRAITS:
            return name[: -len(ending)]
    return name


def _trait_name(value: str) -> str:
    if not _TRAIT.match(value):
        raise ValueError(
            f"{value!r} is not a trait name: begin with a letter and use letters, digits, "
            "spaces, hyphens and apostrophes, like 'elf' or 'fry cook'"
        )
    return value


TraitName = Annotated[str, BeforeValidator(canonical_trait), AfterValidator(_trait_name)]
CardName = Annotated[str, Field(min_length=1, max_length=80)]
Prose = Annotated[str, Field(min_length=1, max_length=2000)]

# Every whole number in the language lies within a million either way: far beyond any printed
# card, and small enough that no sum of them overflows a 64-bit column or costs time.
NUMBER_LIMIT: Final = 1_000_000
Number = Annotated[int, Field(ge=-NUMBER_LIMIT, le=NUMBER_LIMIT)]
# How many entries one list of a card may hold (effects, conditions, tags, outcomes...), and how
# many effects a card holds in all, nested ones counted: real cards use a handful.
MAX_LIST_ITEMS: Final = 20
MAX_EFFECTS_PER_CARD: Final = 40
# The largest official box holds 168 cards; a set file may hold up to this many entries.
MAX_CARDS_PER_SET: Final = 1000
# Values (maps, lists, keys, scalars) one card's document may hold before it is validated: the
# largest real card holds under 100, the limits above allow a few thousand, and a validation's
# errors (each a few kilobytes until they are worded) grow with it.
MAX_VALUES_PER_CARD: Final = 5000


_PLURALS = {"class": "classes", "species": "species", "power": "powers", "loyalty": "loyalties"}


def axis_plural(axis: str) -> str:
    return title_case(_PLURALS.get(axis, axis + "s"))


def title_case(name: str) -> str:
    return " ".join(part[:1].upper() + part[1:] for part in name.split(" "))


def with_article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def count_phrase(count: int, singular: str, plural: str | None = None) -> str:
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


def signed(amount: int) -> str:
    return f"+{amount}" if amount >= 0 else f"{amount}"


class Model(BaseModel):
    """Base of every typed definition: unknown keys are errors, instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
