"""Conditions: typed predicates, one key each, composed with all / any / not; and the
multipliers of strength effects ("+1 per ...")."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    Discriminator,
    Field,
    Tag,
    model_validator,
)

from validator.engine.cards.vocabulary import (
    MAX_LIST_ITEMS,
    CardName,
    CardTag,
    Model,
    Number,
    Sex,
    Slot,
    TraitName,
    title_case,
    with_article,
)

# --------------------------------------------------------------------------------------------
# Conditions: typed predicates, one key each
# --------------------------------------------------------------------------------------------


class ConditionBase(Model):
    key: ClassVar[str]
    # Whether the condition tests a player ("if you are an Elf") or the fight ("against...").
    about_player: ClassVar[bool] = True
    # The word a card's `requires:` puts before the phrase ("playable only by an Elf",
    # "playable only against an Undead monster").
    requirement_word: ClassVar[str] = "by"

    @abstractmethod
    def phrase(self) -> str:
        """A noun phrase naming who or what matches ("an Elf", "Level 4 or higher")."""

    def requirement(self) -> str:
        """What a card's `requires:` asks, after "playable only" ("by an Elf", "while a
        Hireling is in play (anyone's)")."""
        return f"{self.requirement_word} {self.phrase()}"

    def mentions(self) -> Iterator[tuple[str, str]]:
        """Every (axis or "tag", name) the condition tests, for search and blend reports."""
        return iter(())


class AxisCondition(ConditionBase):
    axis: ClassVar[str]

    def trait(self) -> str:
        return str(getattr(self, self.axis.replace("class", "class_")))

    def phrase(self) -> str:
        return with_article(title_case(self.trait()))

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
    min: Number | None = Field(default=None, ge=1)
    max: Number | None = Field(default=None, ge=1)

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
        return f"a player with {slot_phrase(self.wearing)} equipped"


class HasInPlay(ConditionBase):
    key = "has_in_play"
    has_in_play: str = Field(pattern=r"^[a-z_]+$")

    def phrase(self) -> str:
        return f"a player with {with_article(self.has_in_play.replace('_', ' '))} in play"


class InPlayAnywhere(ConditionBase):
    """A card of this kind is in play in any player's area, not only the player's own (Kill
    the Hireling)."""

    key = "in_play_anywhere"
    in_play_anywhere: str = Field(pattern=r"^[a-z_]+$")

    def phrase(self) -> str:
        what = with_article(self.in_play_anywhere.replace("_", " "))
        return f"anyone, as long as {what} is in play (any player's)"

    def requirement(self) -> str:
        # Not about who plays the card (anyone may): about what is on the table.
        what = with_article(title_case(self.in_play_anywhere))
        return f"while {what} is in play (anyone's)"


class MonsterTagged(ConditionBase):
    about_player = False
    requirement_word = "against"
    key = "monster_tag"
    monster_tag: CardTag

    def phrase(self) -> str:
        return f"{with_article(title_case(self.monster_tag))} monster"

    def mentions(self) -> Iterator[tuple[str, str]]:
        yield ("tag", self.monster_tag)


class MonsterNamed(ConditionBase):
    about_player = False
    requirement_word = "against"
    key = "monster"
    monster: CardName

    def phrase(self) -> str:
        return f"the {self.monster}"


class MonsterLevelIn(ConditionBase):
    about_player = False
    requirement_word = "against"
    key = "monster_level"
    monster_level: Range

    def phrase(self) -> str:
        return f"a monster of Level {self.monster_level.phrase()}"


class HelperPresent(ConditionBase):
    about_player = False
    requirement_word = "in"
    key = "helper_present"
    helper_present: bool

    def phrase(self) -> str:
        return "a fight with a helper" if self.helper_present else "a fight with no helper"


class UsedTag(ConditionBase):
    about_player = False
    requirement_word = "after"
    key = "used_tag"
    used_tag: CardTag

    def phrase(self) -> str:
        return f"a win using a {self.used_tag.replace('-', ' ')} card"

    def mentions(self) -> Iterator[tuple[str, str]]:
        yield ("tag", self.used_tag)


class BonusesUsed(ConditionBase):
    about_player = False
    requirement_word = "after"
    key = "bonuses_used"
    bonuses_used: bool

    def phrase(self) -> str:
        return "a win helped by bonuses" if self.bonuses_used else "a win on Level alone"


class AllOf(ConditionBase):
    key = "all"
    all: list[Condition] = Field(max_length=MAX_LIST_ITEMS, min_length=2)

    def phrase(self) -> str:
        return " and ".join(c.phrase() for c in self.all)

    def requirement(self) -> str:
        return joined_requirements(self.all, "and")

    def mentions(self) -> Iterator[tuple[str, str]]:
        for c in self.all:
            yield from c.mentions()


class AnyOf(ConditionBase):
    key = "any"
    any: list[Condition] = Field(max_length=MAX_LIST_ITEMS, min_length=2)

    def phrase(self) -> str:
        return " or ".join(c.phrase() for c in self.any)

    def requirement(self) -> str:
        return joined_requirements(self.any, "or")

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


def joined_requirements(conditions: list[Condition], word: str) -> str:
    """Several requirements as one ("by an Elf or a Dwarf"; "by an Elf and while a Hireling is
    in play (anyone's)"): the players' conditions share one "by"."""
    clauses = [c.requirement() for c in conditions]
    if all(clause.startswith("by ") for clause in clauses):
        return "by " + f" {word} ".join(clause.removeprefix("by ") for clause in clauses)
    return f" {word} ".join(clauses)


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
    InPlayAnywhere,
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
    | Annotated[InPlayAnywhere, Tag("in_play_anywhere")]
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


def slot_phrase(slot: str) -> str:
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


def per_phrase(per: Per | None) -> str:
    if per is None:
        return ""
    if per == "discarded_card":
        return " for each card discarded"
    if per == "monster":
        return " for each monster"
    assert not isinstance(per, str)
    return " " + per.phrase()


def when_phrase(when: Condition | None, word: str = "for") -> str:
    return f" {word} {when.phrase()}" if when is not None else ""


_RECURSIVE: tuple[type[BaseModel], ...] = (*CONDITION_TYPES, PlayersOnSide, EquippedWithTag)
for _model in _RECURSIVE:
    _model.model_rebuild()
