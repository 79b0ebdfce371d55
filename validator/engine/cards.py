"""The effect language, version 1: typed card documents.

One set of definitions parses a card document (YAML fixtures, API input, packs), validates it
against a closed vocabulary, dumps it back, publishes its JSON Schema and renders its rules text
(each effect and condition knows its own phrase; `text.py` composes them into card text).

Shapes:

* A card is a mapping discriminated by ``kind``; each kind has its own stats.
* An effect is a mapping discriminated by ``type`` (``{type: lose_levels, amount: 2}``).
  Outcome effects (what happens to a player) take ``when`` (apply only if the condition holds)
  and ``otherwise`` (what happens instead when the effect finds nothing to act on, or its
  condition does not hold).
* A condition is a mapping with exactly one key (``{race: elf}``, ``{not: {class: wizard}}``),
  composed with ``all`` / ``any`` / ``not``. On a monster card, a condition about the player
  holds when any player on the fighting side matches it, and counts once. On anything else it
  is about the player who owns or plays the card (for Bad Stuff and curses: the victim).
* Every card says how completely it is encoded: ``full``, ``partial`` (with the clauses still
  only in ``notes``) or ``text_only`` (with the reason). A card with no effects and status
  ``full`` is a vanilla card, never an unencoded one.

Run ``python -m validator.engine.cards --write-schema`` to regenerate ``card.schema.json``.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import re
import sys
import types
import typing
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Final, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    model_validator,
)

LANGUAGE_VERSION: Final = 1
SCHEMA_PATH = Path(__file__).with_name("card.schema.json")

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


def _trait_name(value: str) -> str:
    if not _TRAIT.match(value):
        raise ValueError(
            f"{value!r} is not a trait name: write it in lower case, like 'elf' or 'cleric'"
        )
    return value


TraitName = Annotated[str, AfterValidator(_trait_name)]
CardName = Annotated[str, Field(min_length=1, max_length=80)]
Prose = Annotated[str, Field(min_length=1, max_length=2000)]


_PLURALS = {"class": "classes", "species": "species", "power": "powers", "loyalty": "loyalties"}


def _axis_plural(axis: str) -> str:
    return _title(_PLURALS.get(axis, axis + "s"))


def _title(name: str) -> str:
    return " ".join(part[:1].upper() + part[1:] for part in name.split(" "))


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _plural(count: int, singular: str, plural: str | None = None) -> str:
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


def _signed(amount: int) -> str:
    return f"+{amount}" if amount >= 0 else f"{amount}"


class Model(BaseModel):
    """Base of every typed definition: unknown keys are errors, instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# --------------------------------------------------------------------------------------------
# Conditions: typed predicates, one key each
# --------------------------------------------------------------------------------------------


class ConditionBase(Model):
    key: ClassVar[str]
    # Whether the condition tests a player ("if you are an Elf") or the fight ("against...").
    about_player: ClassVar[bool] = True

    @abstractmethod
    def phrase(self) -> str:
        """A noun phrase naming who or what matches ("an Elf", "Level 4 or higher")."""

    def mentions(self) -> Iterator[tuple[str, str]]:
        """Every (axis or "tag", name) the condition tests, for search and blend reports."""
        return iter(())


class AxisCondition(ConditionBase):
    axis: ClassVar[str]

    def trait(self) -> str:
        return str(getattr(self, self.axis.replace("class", "class_")))

    def phrase(self) -> str:
        return _article(_title(self.trait()))

    def mentions(self) -> Iterator[tuple[str, str]]:
        yield (self.axis, self.trait())


class RaceIs(AxisCondition):
    key = axis = "race"
    race: TraitName


class ClassIs(AxisCondition):
    key = axis = "class"
    class_: TraitName = Field(alias="class")


class AccentIs(AxisCondition):
    key = axis = "accent"
    accent: TraitName


class LoyaltyIs(AxisCondition):
    key = axis = "loyalty"
    loyalty: TraitName


class SpeciesIs(AxisCondition):
    key = axis = "species"
    species: TraitName


class PowerIs(AxisCondition):
    key = axis = "power"
    power: TraitName


class OriginIs(AxisCondition):
    key = axis = "origin"
    origin: TraitName


class TrainingIs(AxisCondition):
    key = axis = "training"
    training: TraitName


class RoleIs(AxisCondition):
    key = axis = "role"
    role: TraitName


class SexIs(ConditionBase):
    key = "sex"
    sex: Sex

    def phrase(self) -> str:
        return f"a {self.sex} character"

    def mentions(self) -> Iterator[tuple[str, str]]:
        yield ("sex", self.sex)


class Range(Model):
    min: int | None = Field(default=None, ge=1)
    max: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _bounded(self) -> Range:
        if self.min is None and self.max is None:
            raise ValueError("give min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self

    def phrase(self) -> str:
        if self.min is not None and self.max is not None:
            return f"{self.min} to {self.max}"
        if self.min is not None:
            return f"{self.min} or higher"
        return f"{self.max} or lower"


class LevelIn(ConditionBase):
    key = "level"
    level: Range

    def phrase(self) -> str:
        return f"a character of Level {self.level.phrase()}"


class LevelRank(ConditionBase):
    key = "level_rank"
    level_rank: Literal["highest", "lowest"]

    def phrase(self) -> str:
        return f"a player of the {self.level_rank} Level (ties included)"


class Wearing(ConditionBase):
    key = "wearing"
    wearing: Slot

    def phrase(self) -> str:
        return f"a player with {_slot_phrase(self.wearing)} equipped"


class HasInPlay(ConditionBase):
    key = "has_in_play"
    has_in_play: str = Field(pattern=r"^[a-z_]+$")

    def phrase(self) -> str:
        return f"a player with {_article(self.has_in_play.replace('_', ' '))} in play"


class MonsterTagged(ConditionBase):
    about_player = False
    key = "monster_tag"
    monster_tag: CardTag

    def phrase(self) -> str:
        return f"{_article(_title(self.monster_tag))} monster"

    def mentions(self) -> Iterator[tuple[str, str]]:
        yield ("tag", self.monster_tag)


class MonsterNamed(ConditionBase):
    about_player = False
    key = "monster"
    monster: CardName

    def phrase(self) -> str:
        return f"the {self.monster}"


class MonsterLevelIn(ConditionBase):
    about_player = False
    key = "monster_level"
    monster_level: Range

    def phrase(self) -> str:
        return f"a monster of Level {self.monster_level.phrase()}"


class HelperPresent(ConditionBase):
    about_player = False
    key = "helper_present"
    helper_present: bool

    def phrase(self) -> str:
        return "a fight with a helper" if self.helper_present else "a fight with no helper"


class UsedTag(ConditionBase):
    about_player = False
    key = "used_tag"
    used_tag: CardTag

    def phrase(self) -> str:
        return f"a win using a {self.used_tag.replace('-', ' ')} card"

    def mentions(self) -> Iterator[tuple[str, str]]:
        yield ("tag", self.used_tag)


class BonusesUsed(ConditionBase):
    about_player = False
    key = "bonuses_used"
    bonuses_used: bool

    def phrase(self) -> str:
        return "a win helped by bonuses" if self.bonuses_used else "a win on Level alone"


class AllOf(ConditionBase):
    key = "all"
    all: list[Condition] = Field(min_length=2)

    def phrase(self) -> str:
        return " and ".join(c.phrase() for c in self.all)

    def mentions(self) -> Iterator[tuple[str, str]]:
        for c in self.all:
            yield from c.mentions()


class AnyOf(ConditionBase):
    key = "any"
    any: list[Condition] = Field(min_length=2)

    def phrase(self) -> str:
        return " or ".join(c.phrase() for c in self.any)

    def mentions(self) -> Iterator[tuple[str, str]]:
        for c in self.any:
            yield from c.mentions()


class NotCondition(ConditionBase):
    key = "not"
    not_: Condition = Field(alias="not")

    def phrase(self) -> str:
        return f"anyone but {self.not_.phrase()}"

    def mentions(self) -> Iterator[tuple[str, str]]:
        yield from self.not_.mentions()


CONDITION_TYPES: tuple[type[ConditionBase], ...] = (
    RaceIs,
    ClassIs,
    AccentIs,
    LoyaltyIs,
    SpeciesIs,
    PowerIs,
    OriginIs,
    TrainingIs,
    RoleIs,
    SexIs,
    LevelIn,
    LevelRank,
    Wearing,
    HasInPlay,
    MonsterTagged,
    MonsterNamed,
    MonsterLevelIn,
    HelperPresent,
    UsedTag,
    BonusesUsed,
    AllOf,
    AnyOf,
    NotCondition,
)


def _single_key(value: Any) -> str | None:
    if isinstance(value, ConditionBase):
        return value.key
    if isinstance(value, dict) and len(value) == 1:
        return str(next(iter(value)))
    return None


Condition = Annotated[
    Annotated[RaceIs, Tag("race")]
    | Annotated[ClassIs, Tag("class")]
    | Annotated[AccentIs, Tag("accent")]
    | Annotated[LoyaltyIs, Tag("loyalty")]
    | Annotated[SpeciesIs, Tag("species")]
    | Annotated[PowerIs, Tag("power")]
    | Annotated[OriginIs, Tag("origin")]
    | Annotated[TrainingIs, Tag("training")]
    | Annotated[RoleIs, Tag("role")]
    | Annotated[SexIs, Tag("sex")]
    | Annotated[LevelIn, Tag("level")]
    | Annotated[LevelRank, Tag("level_rank")]
    | Annotated[Wearing, Tag("wearing")]
    | Annotated[HasInPlay, Tag("has_in_play")]
    | Annotated[MonsterTagged, Tag("monster_tag")]
    | Annotated[MonsterNamed, Tag("monster")]
    | Annotated[MonsterLevelIn, Tag("monster_level")]
    | Annotated[HelperPresent, Tag("helper_present")]
    | Annotated[UsedTag, Tag("used_tag")]
    | Annotated[BonusesUsed, Tag("bonuses_used")]
    | Annotated[AllOf, Tag("all")]
    | Annotated[AnyOf, Tag("any")]
    | Annotated[NotCondition, Tag("not")],
    Discriminator(
        _single_key,
        custom_error_type="condition_shape",
        custom_error_message="a condition is a mapping with exactly one key; "
        "combine several with all / any / not",
    ),
]


def _slot_phrase(slot: str) -> str:
    return {
        "headgear": "Headgear",
        "armor": "Armor",
        "footgear": "Footgear",
        "one_hand": "a 1-Hand item",
        "two_hands": "a 2-Hands item",
        "other": "an item with no slot",
        "vehicle": "a Vehicle",
        "ship": "a Ship",
    }[slot]


# --------------------------------------------------------------------------------------------
# Multipliers ("+1 per card discarded", "+2 for each Elf on your side")
# --------------------------------------------------------------------------------------------


class PlayersOnSide(Model):
    players_on_side: Condition

    def phrase(self) -> str:
        return f"for each {self.players_on_side.phrase().split(' ', 1)[-1]} on the munchkins' side"


class EquippedWithTag(Model):
    equipped_with_tag: CardTag

    def phrase(self) -> str:
        return f"for each {self.equipped_with_tag.replace('-', ' ')} item you have equipped"


Per = Literal["discarded_card", "monster"] | PlayersOnSide | EquippedWithTag


def _per_phrase(per: Per | None) -> str:
    if per is None:
        return ""
    if per == "discarded_card":
        return " for each card discarded"
    if per == "monster":
        return " for each monster"
    assert not isinstance(per, str)
    return " " + per.phrase()


def _when_phrase(when: Condition | None, word: str = "for") -> str:
    return f" {word} {when.phrase()}" if when is not None else ""


# --------------------------------------------------------------------------------------------
# Effects
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextContext:
    """What a phrase needs to know about the card it is printed on."""

    on_monster: bool = False


class EffectBase(Model):
    """An effect. ``when`` restricts it to a condition; see the module docstring for whom."""

    when: Condition | None = None

    @abstractmethod
    def describe(self, ctx: TextContext) -> str:
        """The effect in plain words, as a sentence fragment without the final period."""

    def children(self) -> Iterator[EffectBase]:
        """Nested effects (otherwise branches, roll outcomes...), for walking a card."""
        return iter(())

    def conditions(self) -> Iterator[ConditionBase]:
        if self.when is not None:
            yield self.when


class OutcomeBase(EffectBase):
    """Something that happens to a player. ``otherwise`` applies when it finds nothing to act
    on, or when its ``when`` condition does not hold."""

    otherwise: list[Effect] | None = None

    def describe(self, ctx: TextContext) -> str:
        text = self.outcome_text()
        if self.when is not None:
            text = f"if you are {self.when.phrase()}, {text}"
        if self.otherwise:
            alt = "; ".join(e.describe(ctx) for e in self.otherwise)
            text = f"{text}; otherwise {alt}"
        return text

    @abstractmethod
    def outcome_text(self) -> str: ...

    def children(self) -> Iterator[EffectBase]:
        yield from self.otherwise or ()


# -- combat -----------------------------------------------------------------------------------


class Strength(EffectBase):
    """A change to combat strength: the monster's on a monster card, the player's elsewhere."""

    type: Literal["strength"]
    amount: int
    per: Per | None = None
    duration: Duration | None = None

    def conditions(self) -> Iterator[ConditionBase]:
        yield from super().conditions()
        if isinstance(self.per, PlayersOnSide):
            yield self.per.players_on_side

    def describe(self, ctx: TextContext) -> str:
        if ctx.on_monster:
            return (
                f"{_signed(self.amount)} to its combat strength{_when_phrase(self.when, 'against')}"
            )
        text = f"{_signed(self.amount)} to your combat strength{_per_phrase(self.per)}"
        if self.when is not None:
            text += _when_phrase(self.when, "if you are" if self.when.about_player else "against")
        if self.duration == "next_combat":
            text += ", in your next combat only"
        return text


class RunAway(EffectBase):
    """A change to Run Away rolls: against this monster only on a monster card, else all."""

    type: Literal["runaway"]
    amount: int
    per: Per | None = None

    def describe(self, ctx: TextContext) -> str:
        target = "from it" if ctx.on_monster else "from any monster"
        return f"{_signed(self.amount)} to Run Away {target}{_per_phrase(self.per)}"


class DieRolls(EffectBase):
    type: Literal["die_rolls"]
    amount: int

    def describe(self, ctx: TextContext) -> str:
        return f"{_signed(self.amount)} to every die roll you make"


class WinsTies(EffectBase):
    type: Literal["wins_ties"]

    def describe(self, ctx: TextContext) -> str:
        return "you win ties in combat"


class AutomaticEscape(EffectBase):
    type: Literal["automatic_escape"]
    players: int = Field(default=1, ge=1, le=2)
    timing: Literal["instead_of_roll", "after_failed_roll"] = "instead_of_roll"
    # An item that buys the escape by being thrown away (once, instead of rolling).
    discard_this: bool = False

    def describe(self, ctx: TextContext) -> str:
        if ctx.on_monster:
            return f"escape from it is automatic{_when_phrase(self.when)}"
        if self.discard_this:
            target = f"from {self.when.phrase()}" if self.when else "from a monster"
            return f"instead of rolling to Run Away {target}, discard this to escape automatically"
        who = "you, or you and your helper," if self.players == 2 else "you"
        when = (
            "after a failed Run Away roll"
            if self.timing == "after_failed_roll"
            else ("instead of rolling to Run Away")
        )
        return f"{when}, {who} escape automatically"


class CannotEscape(EffectBase):
    type: Literal["cannot_escape"]

    def describe(self, ctx: TextContext) -> str:
        return "no one can Run Away from it"


class NoPursuit(EffectBase):
    type: Literal["no_pursuit"]
    max_level: int = Field(ge=1)
    unless: Condition | None = None

    def describe(self, ctx: TextContext) -> str:
        text = f"it will not pursue a character of Level {self.max_level} or lower"
        if self.unless is not None:
            text += f", except {self.unless.phrase()}"
        return text

    def conditions(self) -> Iterator[ConditionBase]:
        yield from super().conditions()
        if self.unless is not None:
            yield self.unless


class OnEscape(EffectBase):
    """A cost of running from the monster, paid by every runner: even one who escapes."""

    type: Literal["on_escape"]
    effects: list[Effect] = Field(min_length=1)

    def describe(self, ctx: TextContext) -> str:
        who = (
            f"{self.when.phrase()} who runs from it, even escaping"
            if self.when
            else "whoever runs from it, even escaping"
        )
        return f"{who}: " + "; ".join(e.describe(ctx) for e in self.effects)

    def children(self) -> Iterator[EffectBase]:
        yield from self.effects


class BeforeCombat(EffectBase):
    type: Literal["before_combat"]
    effects: list[Effect] = Field(min_length=1)

    def describe(self, ctx: TextContext) -> str:
        return "before the fight begins: " + "; ".join(e.describe(ctx) for e in self.effects)

    def children(self) -> Iterator[EffectBase]:
        yield from self.effects


class NoHelp(EffectBase):
    type: Literal["no_help"]

    def describe(self, ctx: TextContext) -> str:
        return "no one may help against it: it must be fought alone"


class LevelOnly(EffectBase):
    type: Literal["level_only"]

    def describe(self, ctx: TextContext) -> str:
        return "items and other bonuses count for nothing: fight it with your Level alone"


class IgnoreLevel(EffectBase):
    type: Literal["ignore_level"]

    def describe(self, ctx: TextContext) -> str:
        return "your Level counts for nothing: only your bonuses fight it"


class RefusesCombat(EffectBase):
    type: Literal["refuses_combat"]
    treasures: int = Field(default=0, ge=0)
    # The refused player may discard this many Treasure cards to draw as many new ones.
    trade_treasures: int = Field(default=0, ge=0)

    def describe(self, ctx: TextContext) -> str:
        text = f"it will not fight {self.when.phrase() if self.when else 'anyone'}"
        if self.treasures:
            text += f", who draws {_plural(self.treasures, 'Treasure')} instead"
        if self.trade_treasures:
            n = _plural(self.trade_treasures, "Treasure card")
            text += f", who may instead discard {n} from their hand to draw as many, face down"
        return text


class MayDecline(EffectBase):
    type: Literal["may_decline"]
    unless: Condition | None = None

    def describe(self, ctx: TextContext) -> str:
        text = "you may choose not to fight it and walk on, with no reward"
        if self.unless is not None:
            text += f" ({self.unless.phrase()} must fight it)"
        return text

    def conditions(self) -> Iterator[ConditionBase]:
        yield from super().conditions()
        if self.unless is not None:
            yield self.unless


class ChaseAway(EffectBase):
    type: Literal["chase_away"]
    by: Condition
    treasures: bool = True

    def describe(self, ctx: TextContext) -> str:
        reward = "its Treasure is still drawn" if self.treasures else "no reward"
        return (
            f"{self.by.phrase()} on the munchkins' side can drive it off without a fight "
            f"(no level; {reward})"
        )

    def conditions(self) -> Iterator[ConditionBase]:
        yield from super().conditions()
        yield self.by


class Bribe(EffectBase):
    type: Literal["bribe"]
    min_gold: int = Field(ge=0)

    def describe(self, ctx: TextContext) -> str:
        return f"you may avoid the fight by giving it an item worth {self.min_gold} Gold or more"


class EscapeByDiscard(EffectBase):
    type: Literal["escape_by_discard"]
    tags: list[CardTag] = Field(min_length=1)

    def describe(self, ctx: TextContext) -> str:
        kinds = " or ".join(t.replace("-", " ") for t in self.tags)
        return f"when losing, you escape automatically by discarding a {kinds} item"


class ExtraLevels(EffectBase):
    type: Literal["extra_levels"]
    amount: int = Field(ge=1)

    def describe(self, ctx: TextContext) -> str:
        reason = self.when.phrase() if self.when else "killing it"
        return f"{_plural(self.amount, 'extra level')} for {reason}"


class ExtraTreasures(EffectBase):
    type: Literal["extra_treasures"]
    amount: int = Field(ge=1)

    def describe(self, ctx: TextContext) -> str:
        who = self.when.phrase() if self.when else "the winner"
        return f"{who} draws {_plural(self.amount, 'extra Treasure')} for killing it"


class KillMonster(EffectBase):
    type: Literal["kill_monster"]

    def describe(self, ctx: TextContext) -> str:
        return f"kills {self.when.phrase() if self.when else 'a monster'} outright"


# -- outcomes: levels, items, cards -----------------------------------------------------------

Amount = int | Literal["roll"]


def _amount_phrase(amount: Amount, singular: str, plural: str | None = None) -> str:
    if amount == "roll":
        return f"as many {plural or singular + 's'} as the number rolled"
    assert isinstance(amount, int)
    return _plural(amount, singular, plural)


class LoseLevels(OutcomeBase):
    type: Literal["lose_levels"]
    amount: Amount

    def outcome_text(self) -> str:
        return f"lose {_amount_phrase(self.amount, 'level')}"


class GainLevels(OutcomeBase):
    type: Literal["gain_levels"]
    amount: int = Field(ge=1)
    may_win: bool = False
    target: Literal["chosen_player", "each_matching_player", "self"] = "chosen_player"

    def outcome_text(self) -> str:
        who = {
            "chosen_player": "you or the player you choose",
            "each_matching_player": "every such player",
            "self": "you",
        }[self.target]
        text = (
            f"{who} gain{'s' if self.target == 'each_matching_player' else ''} "
            f"{_plural(self.amount, 'level')}"
        )
        return text + (" (this can win the game)" if self.may_win else " (never the winning level)")

    def describe(self, ctx: TextContext) -> str:
        if self.target == "each_matching_player" and self.when is not None:
            return (
                f"every player who is {self.when.phrase()} gains "
                f"{_plural(self.amount, 'level')}"
                + (" (this can win the game)" if self.may_win else " (never the winning level)")
            )
        return super().describe(ctx)


class SetLevel(OutcomeBase):
    type: Literal["set_level"]
    to: int | Literal["lowest_in_play"]

    def outcome_text(self) -> str:
        if self.to == "lowest_in_play":
            return "drop to the Level of the lowest-Level player"
        return f"drop to Level {self.to}"


class Death(OutcomeBase):
    type: Literal["death"]

    def outcome_text(self) -> str:
        return "you are dead"


class LoseItems(OutcomeBase):
    type: Literal["lose_items"]
    count: int | Literal["all"] = 1
    slot: Slot | None = None
    size: Size | None = None
    tag: CardTag | None = None
    worn: bool = False
    pick: Literal["victim", "biggest_bonus"] = "victim"

    def outcome_text(self) -> str:
        words = []
        if self.size:
            words.append("Big" if self.size == "big" else "Small")
        if self.tag:
            words.append(
                "below-the-waist" if self.tag == "below-waist" else self.tag.replace("-", " ")
            )
        singular, plural = {
            None: ("item", "items"),
            "headgear": ("Headgear", "Headgear"),
            "armor": ("Armor", "Armor"),
            "footgear": ("Footgear", "Footgear"),
            "one_hand": ("1-Hand item", "1-Hand items"),
            "two_hands": ("2-Hands item", "2-Hands items"),
            "other": ("slotless item", "slotless items"),
            "vehicle": ("Vehicle", "Vehicles"),
            "ship": ("Ship", "Ships"),
        }[self.slot]
        one = " ".join([*words, singular])
        many = " ".join([*words, plural])
        if self.pick == "biggest_bonus":
            worn = " you have equipped" if self.worn else ""
            return f"lose the {one}{worn} that gives you the biggest bonus"
        if self.worn and self.slot and self.count == 1:
            return f"discard the {one} you are wearing"
        worn = " you are wearing" if self.worn else ""
        if self.count == "all":
            return f"discard all the {many}{worn}" if worn else f"discard all your {many}"
        assert isinstance(self.count, int)
        if self.count == 1:
            return f"discard {_article(one)}{worn} of your choice"
        return f"discard {self.count} {many}{worn} of your choice"


class LoseGoldValue(OutcomeBase):
    type: Literal["lose_gold_value"]
    amount: int = Field(ge=1)

    def outcome_text(self) -> str:
        return f"lose items worth at least {self.amount:,} Gold; with less, lose every item"


class DiscardHand(OutcomeBase):
    type: Literal["discard_hand"]

    def outcome_text(self) -> str:
        return "discard your whole hand"


class LoseCards(OutcomeBase):
    """Lose a number of cards, mixing items in play and cards in hand as the victim likes."""

    type: Literal["lose_cards"]
    count: Amount

    def outcome_text(self) -> str:
        return f"lose {_amount_phrase(self.count, 'card')}, items or hand cards as you choose"


class LoseCharacterCard(OutcomeBase):
    type: Literal["lose_character_card"]
    axis: Axis
    count: int | Literal["all"] = 1
    name: TraitName | None = None

    def outcome_text(self) -> str:
        noun = _title(self.axis)
        if self.name:
            return f"discard your {_title(self.name)} card"
        if self.count == "all":
            return f"discard every {noun} card you have"
        return f"discard {_article(noun)} card of your choice"


class ChangeCharacterCard(OutcomeBase):
    type: Literal["change_character_card"]
    axis: Axis

    def outcome_text(self) -> str:
        noun = _title(self.axis)
        return (
            f"the first {noun} found going down the Door discards replaces yours "
            f"(none found: you lose your {noun}); no effect if you have no {noun}"
        )


class ChangeSex(OutcomeBase):
    type: Literal["change_sex"]

    def outcome_text(self) -> str:
        return "your character's sex changes"


class RivalsTake(OutcomeBase):
    type: Literal["rivals_take"]
    takers: Literal[
        "left_then_right", "highest_level", "each_other_from_left", "each_other_from_right"
    ]
    what: Literal["item", "treasure", "hand_card"]
    count: int = Field(default=1, ge=1)

    def outcome_text(self) -> str:
        who = {
            "left_then_right": "the player on your left, then the one on your right,",
            "highest_level": "each player of the highest Level",
            "each_other_from_left": "going left, each other player",
            "each_other_from_right": "going right, each other player",
        }[self.takers]
        what = {
            "item": "item of their choice you have in play",
            "treasure": "Treasure card of yours (in play, or unseen from your hand)",
            "hand_card": "card from your hand, unseen",
        }[self.what]
        amount = "one" if self.count == 1 else str(self.count)
        return f"{who} takes {amount} {what}"


class Roll(OutcomeBase):
    type: Literal["roll"]
    outcomes: list[RollOutcome] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers_the_die(self) -> Roll:
        faces = sorted(f for o in self.outcomes for f in range(o.min, o.max + 1))
        if faces != list(range(1, 7)):
            raise ValueError("the outcomes must cover each die face 1 to 6 exactly once")
        return self

    def outcome_text(self) -> str:
        parts = [
            f"{o.min}-{o.max}: {'; '.join(e.describe(TextContext()) for e in o.effects)}"
            if o.min != o.max
            else f"{o.min}: {'; '.join(e.describe(TextContext()) for e in o.effects)}"
            for o in self.outcomes
        ]
        return "roll a die; on " + ", on ".join(parts)

    def children(self) -> Iterator[EffectBase]:
        yield from super().children()
        for o in self.outcomes:
            yield from o.effects


class RollOutcome(Model):
    min: int = Field(ge=1, le=6)
    max: int = Field(ge=1, le=6)
    effects: list[Effect]


class Choose(OutcomeBase):
    type: Literal["choose"]
    options: list[list[Effect]] = Field(min_length=2)

    def outcome_text(self) -> str:
        return "choose one: " + ", or ".join(
            " and ".join(e.describe(TextContext()) for e in option) for option in self.options
        )

    def children(self) -> Iterator[EffectBase]:
        yield from super().children()
        for option in self.options:
            yield from option


class StealItem(OutcomeBase):
    type: Literal["steal_item"]
    size: Size | None = None

    def outcome_text(self) -> str:
        size = f"{self.size.capitalize()} " if self.size else ""
        return f"take a {size}item another player has in play"


class StealLevel(OutcomeBase):
    type: Literal["steal_level"]

    def outcome_text(self) -> str:
        return "take a level from another player: they lose it and you gain it"


class DrawTreasures(OutcomeBase):
    type: Literal["draw_treasures"]
    count: int = Field(ge=1)
    face_up: bool = False
    recipient: Literal["self", "fighter"] = "self"

    def outcome_text(self) -> str:
        who = "the player who was fighting draws" if self.recipient == "fighter" else "draw"
        return f"{who} {_plural(self.count, 'Treasure')}" + (" face up" if self.face_up else "")


class TakeFromDiscard(OutcomeBase):
    type: Literal["take_from_discard"]
    count: int = Field(default=1, ge=1)

    def outcome_text(self) -> str:
        return f"take {_plural(self.count, 'card')} of your choice from either discard pile"


class OthersPayValue(OutcomeBase):
    """After the victim loses an item, each other player must lose items worth as much."""

    type: Literal["others_pay_value"]
    levels: int = Field(default=1, ge=0)

    def outcome_text(self) -> str:
        return (
            "each other player must then give up items worth at least the Gold value of the item "
            f"you lost; anyone who cannot loses every item and {_plural(self.levels, 'level')}"
        )


class DiscardOwnCard(OutcomeBase):
    """Discard a card of the player's own (in play or in hand), used as an ability's side cost."""

    type: Literal["discard_card"]
    kind: str | None = Field(default=None, pattern=r"^[a-z_]+$")

    def outcome_text(self) -> str:
        what = _article(self.kind.replace("_", " ")) if self.kind else "a card"
        return f"discard {what} you have in play"


# -- combat tricks (mostly one-shots and other cards) -----------------------------------------


class RemoveMonster(EffectBase):
    type: Literal["remove_monster"]
    count: int | Literal["all"] = 1
    treasures: bool = False

    def describe(self, ctx: TextContext) -> str:
        who = (
            "every monster"
            if self.count == "all"
            else ("one monster" if self.count == 1 else f"{self.count} monsters")
        )
        reward = "its Treasure is still drawn" if self.treasures else "no Treasure"
        return f"{who} leaves the combat without being killed (no level; {reward})"


class AddMonster(EffectBase):
    type: Literal["add_monster"]

    def describe(self, ctx: TextContext) -> str:
        return (
            "add a monster from your hand to any combat; their strengths add up and each "
            "is fled from separately"
        )


class Mate(EffectBase):
    type: Literal["mate"]
    # A modifier to every Run Away roll from either of the pair.
    runaway: int = 0

    def describe(self, ctx: TextContext) -> str:
        text = (
            "a copy of one monster, with every enhancer on it, joins the fight; killing both "
            "pays levels and Treasure for each"
        )
        if self.runaway:
            text += f"; {_signed(self.runaway)} to Run Away from either of the pair"
        return text


class ReplaceMonster(EffectBase):
    type: Literal["replace_monster"]

    def describe(self, ctx: TextContext) -> str:
        return (
            "remove one monster from a fight, with every card played on it, and put a monster "
            "from your hand in its place"
        )


class CancelCurse(EffectBase):
    type: Literal["cancel_curse"]

    def describe(self, ctx: TextContext) -> str:
        return "cancel a Curse, at any time"


class CancelEscape(EffectBase):
    type: Literal["cancel_escape"]

    def describe(self, ctx: TextContext) -> str:
        return "after someone escapes, the escape is undone and they must roll to Run Away again"


class ChangeDieRoll(EffectBase):
    type: Literal["change_die_roll"]

    def describe(self, ctx: TextContext) -> str:
        return "after any die roll, set the result to the number you choose"


class DoubleStrength(EffectBase):
    type: Literal["double_strength"]

    def describe(self, ctx: TextContext) -> str:
        return "doubles your combat strength" + (f" in {self.when.phrase()}" if self.when else "")


class TransferCombat(EffectBase):
    type: Literal["transfer_combat"]

    def describe(self, ctx: TextContext) -> str:
        return (
            "another player of your choice takes over the fight; the first fighter may then "
            "Loot the Room"
        )


class ForceHelp(EffectBase):
    type: Literal["force_help"]

    def describe(self, ctx: TextContext) -> str:
        return "you may make another player help you in a fight (never a fight for the win)"


class TakeItemInCombat(EffectBase):
    type: Literal["take_item_in_combat"]

    def describe(self, ctx: TextContext) -> str:
        return (
            "while fighting, take one item from another player if it turns your loss into a "
            "win (you may first drop an item of your own)"
        )


# -- what a player may have ---------------------------------------------------------------------


class Cheat(EffectBase):
    type: Literal["cheat"]

    def describe(self, ctx: TextContext) -> str:
        return (
            "attach to one item: you may carry and use it whatever the rules or its "
            "restrictions say; it is discarded when the item goes"
        )


class ExtraCharacterCard(EffectBase):
    """Super Munchkin, Half-Breed and their cousins: a second card on one character axis."""

    type: Literal["extra_character_card"]
    axis: Axis
    count: int = Field(default=1, ge=1)
    # False: playable with no card on its axis, and it stays when the last one goes
    # (Impossible's Extra Training).
    needs_host: bool = True

    def describe(self, ctx: TextContext) -> str:
        noun = _title(self.axis)
        if not self.needs_host:
            more = _plural(self.count, f"more {noun}", f"more {_axis_plural(self.axis)}")
            return (
                f"you may have {more} in play than the rules allow; play it whenever you like, "
                "with or without one"
            )
        if self.count > 1:
            return (
                f"attach to {_article(noun)}: you may have up to {self.count + 1} "
                f"{_axis_plural(self.axis)}, with everything each gives and takes; it is "
                f"discarded when your last {noun} goes"
            )
        return (
            f"attach to {_article(noun)}: with two {_axis_plural(self.axis)}, you have everything "
            "both give and take; with one, you get its advantages and none of its drawbacks "
            f"(ability costs are still paid); it is discarded when your last {noun} goes"
        )


class ExtraBigItems(EffectBase):
    type: Literal["extra_big_items"]
    count: int | Literal["unlimited"]

    def describe(self, ctx: TextContext) -> str:
        if self.count == "unlimited":
            return "you may carry any number of Big items"
        return f"you may carry {_plural(self.count, 'extra Big item')}"


class HandSize(EffectBase):
    type: Literal["hand_size"]
    size: int = Field(ge=0)

    def describe(self, ctx: TextContext) -> str:
        return f"you may keep {_plural(self.size, 'card')} in your hand"


class CarryItem(EffectBase):
    """A follower that carries one item for the player, outside the equip limits."""

    type: Literal["carry_item"]
    big: bool = True

    def describe(self, ctx: TextContext) -> str:
        big = " (even a Big one)" if self.big else ""
        return (
            f"carries one item{big} for you, outside the usual slot limits; no item may be "
            "handed to it during combat"
        )


class HelperLevels(EffectBase):
    type: Literal["helper_levels"]
    amount: int = Field(default=1, ge=1)

    def describe(self, ctx: TextContext) -> str:
        return f"when you help kill a monster, you gain {_plural(self.amount, 'level')} per monster"


class SellDouble(EffectBase):
    type: Literal["sell_double"]
    per_turn: int = Field(default=1, ge=1)

    def describe(self, ctx: TextContext) -> str:
        return f"once a turn, sell {_plural(self.per_turn, 'item')} for double its Gold"


class OnlySlotBonuses(EffectBase):
    type: Literal["only_slot_bonuses"]
    slot: Slot
    duration: Duration | None = None

    def describe(self, ctx: TextContext) -> str:
        when = "in your next combat, " if self.duration == "next_combat" else ""
        return f"{when}only {_slot_phrase(self.slot)} gives you a bonus"


class CurseImmunity(EffectBase):
    type: Literal["curse_immunity"]
    source: Literal["own_door"] = "own_door"

    def describe(self, ctx: TextContext) -> str:
        return (
            "a Curse you draw face up when you kick open the door on your turn has no effect on you"
        )


class MetaAbility(EffectBase):
    """Super Munchkin's meta-abilities, which several cards grant."""

    type: Literal["meta_ability"]
    ability: Literal["flight", "secret_hq", "secret_identity", "theft"]

    def describe(self, ctx: TextContext) -> str:
        return {
            "flight": "Flight: +1 to Run Away (Flight from several cards still gives +1)",
            "secret_hq": "Secret HQ: one more card allowed in your hand",
            "secret_identity": (
                "Secret Identity: when a Trap would hit you, roll a die: on 1-3 it misses; on 6 "
                "it hits and this card is lost too"
            ),
            "theft": (
                "Theft: discard a card to try to steal a Small item another player carries, "
                "outside combat; roll 4 or more, 1 less for each other Theft you have, or lose "
                "a level"
            ),
        }[self.ability]


class ExtraPowerRank(EffectBase):
    """An Origin: your Powers' total Rank may exceed your Level by this much."""

    type: Literal["extra_power_rank"]
    amount: int = Field(ge=1)

    def describe(self, ctx: TextContext) -> str:
        return f"your Powers may total {self.amount} Rank more than your Level"


class UseMonsterLevel(EffectBase):
    """Fight with the Level of a monster card discarded to pay for the ability (Power Switch)."""

    type: Literal["use_monster_level"]

    def describe(self, ctx: TextContext) -> str:
        return "in this combat, the discarded monster's Level replaces your own"


class DrawFromDiscard(EffectBase):
    type: Literal["draw_from_discard"]

    def describe(self, ctx: TextContext) -> str:
        return "take the top card of that deck's discards instead"


Effect = Annotated[
    Strength
    | RunAway
    | DieRolls
    | WinsTies
    | AutomaticEscape
    | CannotEscape
    | NoPursuit
    | OnEscape
    | BeforeCombat
    | NoHelp
    | LevelOnly
    | IgnoreLevel
    | RefusesCombat
    | MayDecline
    | ChaseAway
    | Bribe
    | EscapeByDiscard
    | ExtraLevels
    | ExtraTreasures
    | KillMonster
    | LoseLevels
    | GainLevels
    | SetLevel
    | Death
    | LoseItems
    | LoseGoldValue
    | DiscardHand
    | LoseCards
    | LoseCharacterCard
    | ChangeCharacterCard
    | ChangeSex
    | RivalsTake
    | Roll
    | Choose
    | StealItem
    | StealLevel
    | DrawTreasures
    | TakeFromDiscard
    | DiscardOwnCard
    | RemoveMonster
    | AddMonster
    | Mate
    | ReplaceMonster
    | CancelCurse
    | CancelEscape
    | ChangeDieRoll
    | DoubleStrength
    | TransferCombat
    | ForceHelp
    | TakeItemInCombat
    | Cheat
    | ExtraCharacterCard
    | ExtraBigItems
    | HandSize
    | CarryItem
    | HelperLevels
    | SellDouble
    | OnlySlotBonuses
    | OthersPayValue
    | CurseImmunity
    | MetaAbility
    | ExtraPowerRank
    | UseMonsterLevel
    | DrawFromDiscard,
    Field(discriminator="type"),
]

EFFECT_TYPES: tuple[type[EffectBase], ...] = tuple(typing.get_args(typing.get_args(Effect)[0]))
OUTCOME_TYPES: frozenset[str] = frozenset(
    typing.get_args(t.model_fields["type"].annotation)[0]
    for t in EFFECT_TYPES
    if issubclass(t, OutcomeBase)
)

# --------------------------------------------------------------------------------------------
# Abilities (race, class and other character cards)
# --------------------------------------------------------------------------------------------


class Cost(Model):
    discard: int = Field(default=0, ge=0)
    discard_up_to: int = Field(default=0, ge=0)
    discard_hand: bool = False
    # Discards must come from the hand (not from the cards in play).
    from_hand: bool = False

    def phrase(self) -> str:
        source = " from your hand" if self.from_hand else ""
        if self.discard_hand:
            return "discard your whole hand"
        if self.discard_up_to:
            return f"discard up to {_plural(self.discard_up_to, 'card')}{source}"
        if self.discard:
            return f"discard {_plural(self.discard, 'card')}{source}"
        return ""


class Ability(Model):
    """An activated ability: paid for with its cost, used at its timing, within its limit."""

    name: CardName
    timing: Timing = "any"
    cost: Cost | None = None
    limit: Literal["once_per_combat", "once_per_turn", "once_per_victim_per_combat"] | None = None
    target: Literal["self", "fighting_player", "monster", "other_player"] = "self"
    when: Condition | None = None
    effects: list[Effect] = Field(min_length=1)

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")

    def describe(self, ctx: TextContext) -> str:
        timing = {
            "any": "",
            "combat": "in combat",
            "running_away": "when running away",
            "own_turn": "on your turn",
            "on_draw": "when you would draw a card face up",
            "outside_combat": "when neither you nor your target is in combat",
        }[self.timing]
        prefix = ", ".join(
            p
            for p in (
                timing,
                f"against {self.when.phrase()}" if self.when else "",
                self.cost.phrase() if self.cost else "",
            )
            if p
        )
        body = "; ".join(e.describe(ctx) for e in self.effects)
        if self.target == "fighting_player":
            body = (
                f"a player in combat gets {body.replace('your combat strength', 'combat strength')}"
            )
        limit = {
            None: "",
            "once_per_combat": " (once per combat)",
            "once_per_turn": " (once per turn)",
            "once_per_victim_per_combat": " (once per victim per combat)",
        }[self.limit]
        return f"{self.name}: {prefix + ': ' if prefix else ''}{body}{limit}"


# --------------------------------------------------------------------------------------------
# Encoding status
# --------------------------------------------------------------------------------------------


class Full(Model):
    status: Literal["full"]


class Partial(Model):
    status: Literal["partial"]
    clauses: list[Prose] = Field(min_length=1)


class TextOnly(Model):
    status: Literal["text_only"]
    reason: Prose


Encoding = Annotated[Full | Partial | TextOnly, Field(discriminator="status")]

# --------------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------------


class CardBase(Model):
    name: CardName
    # None: outside both decks (SpongeBob's Role cards), or not known yet (say so in notes).
    deck: Deck | None
    # None: how many the box holds is not known.
    copies: int | None = Field(default=1, ge=1, le=99)
    tags: list[CardTag] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)
    notes: Prose | None = None
    encoding: Encoding

    # Stats that a kind may lack; overridden where the kind has them.
    STAT_FIELDS: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="after")
    def _full_means_known(self) -> CardBase:
        if self.encoding.status == "full":
            unknown = [name for name in self.STAT_FIELDS if getattr(self, name) is None]
            if unknown:
                raise ValueError(
                    f"encoding is 'full' but {', '.join(unknown)} unknown; "
                    "use 'partial' or 'text_only' and say why"
                )
        if self.encoding.status != "full" and not self.notes:
            raise ValueError("a card that is not fully encoded needs notes with its text")
        if len(set(self.tags)) != len(self.tags):
            raise ValueError("tags repeat")
        return self

    @property
    def kind_name(self) -> str:
        return str(getattr(self, "kind"))  # noqa: B009 - every concrete card has a kind

    def all_effects(self) -> Iterator[EffectBase]:
        """Every effect on the card, nested ones included."""
        stack: list[EffectBase] = list(self.top_level_effects())
        while stack:
            effect = stack.pop(0)
            yield effect
            stack.extend(effect.children())

    def top_level_effects(self) -> Iterator[EffectBase]:
        yield from self.effects

    def all_conditions(self) -> Iterator[ConditionBase]:
        for effect in self.all_effects():
            yield from effect.conditions()


class MonsterCard(CardBase):
    kind: Literal["monster"]
    level: int | None = Field(default=None, ge=0)
    treasures: int | None = Field(default=None, ge=0)
    levels_gained: int | None = Field(default=1, ge=0)
    bad_stuff: list[Effect] = Field(default_factory=list)

    STAT_FIELDS = ("level", "treasures", "levels_gained")

    @model_validator(mode="after")
    def _bad_stuff_are_outcomes(self) -> MonsterCard:
        for effect in self.bad_stuff:
            if not isinstance(effect, OutcomeBase):
                raise ValueError(
                    f"bad_stuff holds what happens to the victim; {effect.type!r} "
                    "belongs in effects"
                )
        return self

    def top_level_effects(self) -> Iterator[EffectBase]:
        yield from self.effects
        yield from self.bad_stuff


class CurseCard(CardBase):
    kind: Literal["curse", "trap"]
    persistent: bool = False
    ends_with_slot: Slot | None = None


class MonsterEnhancerCard(CardBase):
    kind: Literal["monster_enhancer"]
    strength: int | None = None
    treasures: int | None = None
    strength_floor: int | None = Field(default=None, ge=1)
    treasures_floor: int | None = Field(default=None, ge=0)

    STAT_FIELDS = ("strength", "treasures")


class CharacterCard(CardBase):
    kind: Literal[
        "race", "class", "accent", "loyalty", "species", "power", "origin", "training", "role"
    ]
    rank: int | None = Field(default=None, ge=1)
    abilities: list[Ability] = Field(default_factory=list)

    def top_level_effects(self) -> Iterator[EffectBase]:
        yield from self.effects
        for ability in self.abilities:
            yield from ability.effects

    def all_conditions(self) -> Iterator[ConditionBase]:
        yield from super().all_conditions()
        for ability in self.abilities:
            if ability.when is not None:
                yield ability.when


class ItemCard(CardBase):
    kind: Literal["item", "ship"]
    slot: Slot | None = None
    big: bool = False
    bonus: int | None = 0
    gold: int | None = Field(default=None, ge=0)
    usable_by: Condition | None = None
    not_usable_by: Condition | None = None

    STAT_FIELDS = ("slot", "bonus", "gold")

    def all_conditions(self) -> Iterator[ConditionBase]:
        yield from super().all_conditions()
        yield from (c for c in (self.usable_by, self.not_usable_by) if c is not None)


class OneShotCard(CardBase):
    kind: Literal["one_shot"]
    bonus: int | None = None
    gold: int | None = Field(default=None, ge=0)
    side: Literal["either", "player", "monster"] = "either"
    played_by: Literal["anyone", "combatant"] = "anyone"
    usable_by: Condition | None = None
    not_usable_by: Condition | None = None

    STAT_FIELDS = ("gold",)

    def all_conditions(self) -> Iterator[ConditionBase]:
        yield from super().all_conditions()
        yield from (c for c in (self.usable_by, self.not_usable_by) if c is not None)


class LevelCard(CardBase):
    kind: Literal["go_up_a_level"]
    requires: Condition | None = None
    timing: Literal["any", "after_combat"] = "any"

    def all_conditions(self) -> Iterator[ConditionBase]:
        yield from super().all_conditions()
        if self.requires is not None:
            yield self.requires


class FollowerCard(CardBase):
    kind: Literal["hireling", "ally", "sidekick"]
    bonus: int | None = 0
    gold: int | None = Field(default=None, ge=0)
    timing: Literal["any", "own_turn"] = "any"
    abilities: list[Ability] = Field(default_factory=list)

    def top_level_effects(self) -> Iterator[EffectBase]:
        yield from self.effects
        for ability in self.abilities:
            yield from ability.effects


class UnknownKindCard(CardBase):
    """A card known by name only: its kind (and so its stats) is not known yet."""

    kind: Literal["unknown"]

    @model_validator(mode="after")
    def _only_text(self) -> UnknownKindCard:
        if self.encoding.status != "text_only":
            raise ValueError("a card of unknown kind can only be 'text_only'")
        return self


class OtherCard(CardBase):
    kind: Literal["other_door", "other_treasure"]
    requires: Condition | None = None
    timing: Timing = "any"

    def all_conditions(self) -> Iterator[ConditionBase]:
        yield from super().all_conditions()
        if self.requires is not None:
            yield self.requires


Card = Annotated[
    MonsterCard
    | CurseCard
    | MonsterEnhancerCard
    | CharacterCard
    | ItemCard
    | OneShotCard
    | LevelCard
    | FollowerCard
    | OtherCard
    | UnknownKindCard,
    Field(discriminator="kind"),
]
CARD_TYPES: tuple[type[CardBase], ...] = tuple(typing.get_args(typing.get_args(Card)[0]))
KINDS: tuple[str, ...] = tuple(
    kind for t in CARD_TYPES for kind in typing.get_args(t.model_fields["kind"].annotation)
)

# --------------------------------------------------------------------------------------------
# Sets
# --------------------------------------------------------------------------------------------

SetCode = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=60)]


class SetInfo(Model):
    code: SetCode
    name: Annotated[str, Field(min_length=1, max_length=120)]
    cards_in_box: int | None = Field(default=None, ge=1)
    official: bool = True
    year: int | None = Field(default=None, ge=1990, le=2100)
    description: Prose | None = None


class SetDocument(Model):
    """A set file: the set's facts and its cards, in the effect language of `language`."""

    language: Literal[1] = LANGUAGE_VERSION
    set: SetInfo
    cards: list[Card]


_card_adapter: TypeAdapter[Card] = TypeAdapter(Card)

# --------------------------------------------------------------------------------------------
# Errors with paths, lines and the nearest valid word
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentError:
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.path or '(document)'}: {self.message}"


@dataclass
class CardDocumentError(Exception):
    """A document that does not parse; every error names its path (and line, from YAML)."""

    errors: list[DocumentError]
    source: str | None = None

    def __str__(self) -> str:
        head = f"{self.source}: " if self.source else ""
        return head + "; ".join(str(e) for e in self.errors)

    def lines(self) -> list[str]:
        out = []
        for error in self.errors:
            where = ":".join(str(p) for p in (self.source, error.line) if p)
            what = f"{error.path}: {error.message}" if error.path else error.message
            out.append(f"{where}: {what}" if where else what)
        return out


def nearest_word(word: str, candidates: Iterable[str]) -> str | None:
    """The valid word closest to a misspelt one, if any is close enough to be a likely typo."""
    matches = difflib.get_close_matches(str(word), list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def _union_members(annotation: Any) -> dict[str, Any] | None:
    """For a discriminated union annotation, map each tag to its member type."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        base, *meta = typing.get_args(annotation)
        discriminator = next((m for m in meta if isinstance(m, Discriminator)), None) or next(
            (
                m.discriminator
                for m in meta
                if hasattr(m, "discriminator") and m.discriminator is not None
            ),
            None,
        )
        if discriminator is None:
            return None
        members: dict[str, Any] = {}
        for member in typing.get_args(base):
            if typing.get_origin(member) is Annotated:
                cls, *tags = typing.get_args(member)
                tag = next(t.tag for t in tags if isinstance(t, Tag))
                members[tag] = cls
            elif isinstance(discriminator, str):
                for value in typing.get_args(member.model_fields[discriminator].annotation):
                    members[value] = member
        return members
    return None


def _strip_optional(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _walk(root: Any, loc: Sequence[str | int]) -> tuple[list[str | int], Any]:
    """Follow a pydantic error location through the definitions.

    Returns the location without union tags (the path a person would write) and the type found
    at its end (a model class, when the location ends inside one)."""
    current: Any = root
    path: list[str | int] = []
    for part in loc:
        current = _strip_optional(current)
        members = _union_members(current)
        if members is not None and isinstance(part, str) and part in members:
            current = members[part]
            continue
        if typing.get_origin(current) is Annotated:
            current = _strip_optional(typing.get_args(current)[0])
            members = _union_members(current)
        if isinstance(part, int) and typing.get_origin(current) is list:
            current = typing.get_args(current)[0]
            path.append(part)
            continue
        if isinstance(current, type) and issubclass(current, BaseModel) and isinstance(part, str):
            field_name = next(
                (n for n, f in current.model_fields.items() if (f.alias or n) == part), None
            )
            if field_name is not None:
                current = current.model_fields[field_name].annotation
                path.append(part)
                continue
        if typing.get_origin(current) in (typing.Union, types.UnionType):
            # A plain union (int | "roll"): pydantic names the branch; it is not a path step.
            continue
        path.append(part)
        current = None
    return path, current


def _model_keys(model: Any) -> list[str]:
    model = _strip_optional(model)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return [f.alias or n for n, f in model.model_fields.items()]
    return []


def format_path(parts: Sequence[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_QUOTED = re.compile(r"'([^']*)'")


def _error_message(error: Any, parent: Any, field_name: str | int | None) -> str:
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden":
        valid = _model_keys(parent)
        hint = nearest_word(str(field_name), valid)
        message = f"unknown key {field_name!r}"
        if hint:
            message += f"; did you mean {hint!r}?"
        elif valid:
            message += f"; valid keys: {', '.join(valid)}"
        return message
    if kind == "union_tag_invalid":
        tags = _QUOTED.findall(str(ctx.get("expected_tags", "")))
        word = ctx.get("tag")
        message = f"unknown {ctx.get('discriminator', 'tag').strip(chr(39))} {word!r}"
        hint = nearest_word(str(word), tags)
        return message + (f"; did you mean {hint!r}?" if hint else f"; valid: {', '.join(tags)}")
    if kind == "condition_shape":
        given = error.get("input")
        if isinstance(given, dict) and len(given) == 1:
            word = str(next(iter(given)))
            keys = [c.key for c in CONDITION_TYPES]
            hint = nearest_word(word, keys)
            return f"unknown condition {word!r}" + (
                f"; did you mean {hint!r}?" if hint else f"; valid: {', '.join(keys)}"
            )
        return str(error["msg"])
    if kind == "union_tag_not_found":
        return f"missing {str(ctx.get('discriminator', 'tag')).strip(chr(39))!s}"
    if kind == "literal_error":
        words = _QUOTED.findall(str(ctx.get("expected", "")))
        given = error.get("input")
        hint = nearest_word(str(given), words)
        message = f"{given!r} is not one of {', '.join(words)}"
        return message + (f"; did you mean {hint!r}?" if hint else "")
    if kind == "missing":
        return "required key is missing"
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


def errors_from_validation(
    exc: ValidationError, root: Any, lines: dict[tuple[str | int, ...], int] | None = None
) -> list[DocumentError]:
    """Turn pydantic's errors into path + message (+ line) errors, one per distinct place."""
    out: list[DocumentError] = []
    seen: set[tuple[str, str]] = set()
    errors = exc.errors()
    # A plain union reports every branch; keep the most specific message per path.
    for error in errors:
        loc = tuple(error["loc"])
        path, _ = _walk(root, loc)
        parent_path, parent = _walk(root, loc[:-1]) if loc else ([], root)
        last = loc[-1] if loc else None
        message = _error_message(error, parent, last)
        if error["type"] == "extra_forbidden":
            path = [*parent_path, last] if last is not None else parent_path
        elif error["type"] == "union_tag_not_found" and isinstance(error.get("input"), dict):
            # The discriminator is missing: most often because its key is misspelt.
            discriminator = str((error.get("ctx") or {}).get("discriminator", "")).strip("'")
            typo = next((k for k in error["input"] if nearest_word(str(k), [discriminator])), None)
            if typo is not None and typo != discriminator:
                path = [*path, typo]
                message = f"unknown key {typo!r}; did you mean {discriminator!r}?"
            elif discriminator.isidentifier():
                path = [*path, discriminator]
        elif error["type"] in ("union_tag_invalid", "union_tag_not_found"):
            discriminator = str((error.get("ctx") or {}).get("discriminator", "")).strip("'")
            if discriminator.isidentifier():
                path = [*path, discriminator]
        display = format_path(path)
        key = (display, message)
        if key in seen:
            continue
        seen.add(key)
        line = line_for(path, lines) if lines else None
        out.append(DocumentError(display, message, line))
    return _collapse_union_branches(out)


def _collapse_union_branches(errors: list[DocumentError]) -> list[DocumentError]:
    by_path: dict[str, list[DocumentError]] = {}
    for error in errors:
        by_path.setdefault(error.path, []).append(error)
    out: list[DocumentError] = []
    for path, group in by_path.items():
        if len(group) > 1 and all(e.message.startswith(("Input should be", "'")) for e in group):
            expected = "; or ".join(e.message for e in group)
            out.append(DocumentError(path, expected, group[0].line))
        else:
            out.extend(group)
    return out


def line_for(path: Sequence[str | int], lines: dict[tuple[str | int, ...], int]) -> int | None:
    """The line of a path in a YAML document, or of its nearest ancestor that has one."""
    for end in range(len(path), -1, -1):
        line = lines.get(tuple(path[:end]))
        if line is not None:
            return line
    return None


# --------------------------------------------------------------------------------------------
# YAML with line numbers (and no silent duplicate keys)
# --------------------------------------------------------------------------------------------


class _StrictLoader(yaml.SafeLoader):
    """Safe YAML that refuses duplicate keys instead of keeping the last one silently."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"duplicate key {key!r} (first at line {seen[key] + 1})",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

# YAML 1.2 booleans only: in YAML 1.1 `on`, `off`, `yes` and `no` are booleans, and the scenario
# format uses `on:` as a key.
_StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def _line_map(node: yaml.Node) -> dict[tuple[str | int, ...], int]:
    lines: dict[tuple[str | int, ...], int] = {}

    def visit(n: yaml.Node, path: tuple[str | int, ...]) -> None:
        lines.setdefault(path, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            for key_node, value_node in n.value:
                child = (*path, key_node.value)
                lines[child] = key_node.start_mark.line + 1
                visit(value_node, child)
        elif isinstance(n, yaml.SequenceNode):
            for index, item in enumerate(n.value):
                visit(item, (*path, index))

    visit(node, ())
    return lines


@dataclass
class ParsedYaml:
    data: Any
    lines: dict[tuple[str | int, ...], int] = field(default_factory=dict)


def read_yaml(text: str, source: str = "<yaml>") -> ParsedYaml:
    """Parse YAML text, keeping the line of every key and item; syntax errors name the line."""
    try:
        node = yaml.compose(text, Loader=_StrictLoader)
        data = yaml.load(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or str(exc)
        raise CardDocumentError(
            [DocumentError("", f"YAML syntax: {problem}", line)], source
        ) from exc
    except yaml.YAMLError as exc:
        raise CardDocumentError([DocumentError("", f"YAML syntax: {exc}")], source) from exc
    return ParsedYaml(data, _line_map(node) if node is not None else {})


# --------------------------------------------------------------------------------------------
# Entry points: parse, dump, schema
# --------------------------------------------------------------------------------------------


def parse_card(data: Any, source: str | None = None) -> CardBase:
    """Parse one card document (a mapping), or raise CardDocumentError naming each error."""
    try:
        card: CardBase = _card_adapter.validate_python(data)
    except ValidationError as exc:
        raise CardDocumentError(errors_from_validation(exc, Card), source) from exc
    return card


def parse_set(
    data: Any, source: str | None = None, lines: dict[tuple[str | int, ...], int] | None = None
) -> SetDocument:
    """Parse a set document; duplicate card names are errors too."""
    try:
        document = SetDocument.model_validate(data)
    except ValidationError as exc:
        errors = errors_from_validation(exc, SetDocument, lines)
        raise CardDocumentError(_name_the_cards(errors, data), source) from exc
    duplicates: list[DocumentError] = []
    first_seen: dict[str, int] = {}
    for index, card in enumerate(document.cards):
        key = card.name.casefold()
        if key in first_seen:
            path = ("cards", index, "name")
            duplicates.append(
                DocumentError(
                    format_path(path),
                    f"duplicate card {card.name!r} (already cards[{first_seen[key]}]); "
                    "give one entry with copies instead",
                    line_for(path, lines or {}),
                )
            )
        else:
            first_seen[key] = index
    if duplicates:
        raise CardDocumentError(duplicates, source)
    return document


_CARD_PATH = re.compile(r"^cards\[(\d+)\]")


def _name_the_cards(errors: list[DocumentError], data: Any) -> list[DocumentError]:
    """Say which card each error is in: a path alone is hard to find in a long file."""
    cards = data.get("cards") if isinstance(data, dict) else None
    out = []
    for error in errors:
        match = _CARD_PATH.match(error.path)
        if match and isinstance(cards, list) and int(match.group(1)) < len(cards):
            entry = cards[int(match.group(1))]
            name = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(name, str):
                error = DocumentError(error.path, f"{error.message} (card {name!r})", error.line)
        out.append(error)
    return out


def load_set_file(path: Path) -> SetDocument:
    """Read and parse a set file; every error carries the file, line and path."""
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDocumentError([DocumentError("", f"cannot read: {exc}")], source) from exc
    parsed = read_yaml(text, source)
    return parse_set(parsed.data, source, parsed.lines)


_FIRST_KEYS = ("name", "deck", "kind", "type", "copies")
_LAST_KEYS = ("tags", "effects", "bad_stuff", "abilities", "notes", "encoding")


def _ordered(value: Any) -> Any:
    """Keys in reading order: identity first, stats next, effects and status last."""
    if isinstance(value, dict):
        keys = sorted(
            value,
            key=lambda k: (
                0 if k in _FIRST_KEYS else 2 if k in _LAST_KEYS else 1,
                _FIRST_KEYS.index(k)
                if k in _FIRST_KEYS
                else _LAST_KEYS.index(k)
                if k in _LAST_KEYS
                else 0,
            ),
        )
        return {k: _ordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def dump_card(card: CardBase) -> dict[str, Any]:
    """The card as a plain document, keys in reading order; parse_card(dump_card(c)) == c."""
    return dict(_ordered(card.model_dump(mode="json", by_alias=True, exclude_unset=True)))


def _hoist_repeated_unions(schema: dict[str, Any]) -> dict[str, Any]:
    """Pydantic inlines a union at every use; name the repeated ones once under $defs."""
    counts: dict[str, int] = {}

    def key_of(node: dict[str, Any]) -> str:
        return json.dumps(node, sort_keys=True)

    def count(node: Any) -> None:
        if isinstance(node, dict):
            if len(node.get("oneOf", ())) >= 3:
                counts[key_of(node)] = counts.get(key_of(node), 0) + 1
            for value in node.values():
                count(value)
        elif isinstance(node, list):
            for value in node:
                count(value)

    count(schema)
    names: dict[str, str] = {}
    defs: dict[str, Any] = schema.setdefault("$defs", {})
    for key, seen in counts.items():
        if seen < 2:
            continue
        node = json.loads(key)
        refs = json.dumps(node)
        name = (
            "Effect"
            if '"LoseLevels"' in refs
            else "Condition"
            if '"RaceIs"' in refs
            else f"Union{len(names) + 1}"
        )
        names[key] = name
        defs[name] = node

    def replace(node: Any, top: bool = False) -> Any:
        if isinstance(node, dict):
            if not top and key_of(node) in names:
                return {"$ref": f"#/$defs/{names[key_of(node)]}"}
            return {k: replace(v) for k, v in node.items()}
        if isinstance(node, list):
            return [replace(v) for v in node]
        return node

    hoisted = {k: replace(v) for k, v in schema.items() if k != "$defs"}
    hoisted["$defs"] = {
        name: (replace(value, top=name in names.values()) if isinstance(value, dict) else value)
        for name, value in defs.items()
    }
    return hoisted


def document_hash(document: dict[str, Any]) -> str:
    """The identity of a card document: sha256 of its canonical JSON."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def card_json_schema() -> dict[str, Any]:
    schema = _hoist_repeated_unions(_card_adapter.json_schema(by_alias=True))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"Munchkin card document, effect language v{LANGUAGE_VERSION}"
    return schema


def card_json_schema_text() -> str:
    return json.dumps(card_json_schema(), indent=2, sort_keys=True) + "\n"


_RECURSIVE_MODELS: tuple[type[BaseModel], ...] = (
    *CONDITION_TYPES,
    *EFFECT_TYPES,
    RollOutcome,
    PlayersOnSide,
    EquippedWithTag,
    Ability,
    *CARD_TYPES,
    SetDocument,
)
for _model in _RECURSIVE_MODELS:
    _model.model_rebuild()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write-schema", action="store_true", help=f"write {SCHEMA_PATH.name}")
    args = parser.parse_args(argv)
    if args.write_schema:
        SCHEMA_PATH.write_text(card_json_schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
    else:
        sys.stdout.write(card_json_schema_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
