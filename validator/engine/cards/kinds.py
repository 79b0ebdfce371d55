"""Abilities, encoding status, the card kinds with their stats, and set documents."""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from typing import Annotated, ClassVar, Literal

from pydantic import (
    BaseModel,
    Field,
    TypeAdapter,
    model_validator,
)

from validator.engine.cards.conditions import Condition, ConditionBase
from validator.engine.cards.effects import Effect, EffectBase, OutcomeBase, TextContext
from validator.engine.cards.provenance import MAX_SOURCES, CardProvenance, SourceRef
from validator.engine.cards.vocabulary import (
    LANGUAGE_VERSION,
    MAX_CARDS_PER_SET,
    MAX_EFFECTS_PER_CARD,
    MAX_LIST_ITEMS,
    NUMBER_LIMIT,
    CardName,
    CardTag,
    Deck,
    Model,
    Number,
    Prose,
    Slot,
    Timing,
    count_phrase,
)

# --------------------------------------------------------------------------------------------
# Abilities (race, class and other character cards)
# --------------------------------------------------------------------------------------------


class Cost(Model):
    discard: int = Field(default=0, ge=0, le=NUMBER_LIMIT)
    discard_up_to: int = Field(default=0, ge=0, le=NUMBER_LIMIT)
    discard_hand: bool = False
    # Discards must come from the hand (not from the cards in play).
    from_hand: bool = False

    def phrase(self) -> str:
        source = " from your hand" if self.from_hand else ""
        if self.discard_hand:
            return "discard your whole hand"
        if self.discard_up_to:
            return f"discard up to {count_phrase(self.discard_up_to, 'card')}{source}"
        if self.discard:
            return f"discard {count_phrase(self.discard, 'card')}{source}"
        return ""


class Ability(Model):
    """An activated ability: paid for with its cost, used at its timing, within its limit."""

    name: CardName
    timing: Timing = "any"
    cost: Cost | None = None
    limit: Literal["once_per_combat", "once_per_turn", "once_per_victim_per_combat"] | None = None
    target: Literal["self", "fighting_player", "monster", "other_player"] = "self"
    when: Condition | None = None
    effects: list[Effect] = Field(max_length=MAX_LIST_ITEMS, min_length=1)

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
    clauses: list[Prose] = Field(max_length=MAX_LIST_ITEMS, min_length=1)


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
    copies: Number | None = Field(default=1, ge=1, le=99)
    tags: list[CardTag] = Field(max_length=MAX_LIST_ITEMS, default_factory=list)
    effects: list[Effect] = Field(max_length=MAX_LIST_ITEMS, default_factory=list)
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
        effects = sum(1 for _ in self.all_effects())
        if effects > MAX_EFFECTS_PER_CARD:
            raise ValueError(
                f"the card holds {effects} effects, nested ones counted; "
                f"at most {MAX_EFFECTS_PER_CARD}"
            )
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
    level: Number | None = Field(default=None, ge=0)
    treasures: Number | None = Field(default=None, ge=0)
    levels_gained: Number | None = Field(default=1, ge=0)
    bad_stuff: list[Effect] = Field(max_length=MAX_LIST_ITEMS, default_factory=list)

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
    strength: Number | None = None
    treasures: Number | None = None
    strength_floor: Number | None = Field(default=None, ge=1)
    treasures_floor: Number | None = Field(default=None, ge=0)

    STAT_FIELDS = ("strength", "treasures")


class CharacterCard(CardBase):
    kind: Literal[
        "race", "class", "accent", "loyalty", "species", "power", "origin", "training", "role"
    ]
    rank: Number | None = Field(default=None, ge=1)
    abilities: list[Ability] = Field(max_length=MAX_LIST_ITEMS, default_factory=list)

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
    bonus: Number | None = 0
    gold: Number | None = Field(default=None, ge=0)
    usable_by: Condition | None = None
    not_usable_by: Condition | None = None

    STAT_FIELDS = ("slot", "bonus", "gold")

    def all_conditions(self) -> Iterator[ConditionBase]:
        yield from super().all_conditions()
        yield from (c for c in (self.usable_by, self.not_usable_by) if c is not None)


class OneShotCard(CardBase):
    kind: Literal["one_shot"]
    bonus: Number | None = None
    gold: Number | None = Field(default=None, ge=0)
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
    # after_combat: once a fight won this turn is over; after_any_combat: once any fight this
    # turn is over, won, fled or lost.
    timing: Literal["any", "after_combat", "after_any_combat"] = "any"

    def all_conditions(self) -> Iterator[ConditionBase]:
        yield from super().all_conditions()
        if self.requires is not None:
            yield self.requires


class FollowerCard(CardBase):
    kind: Literal["hireling", "ally", "sidekick"]
    bonus: Number | None = 0
    gold: Number | None = Field(default=None, ge=0)
    timing: Literal["any", "own_turn"] = "any"
    abilities: list[Ability] = Field(max_length=MAX_LIST_ITEMS, default_factory=list)

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
    cards_in_box: Number | None = Field(default=None, ge=1)
    official: bool = True
    year: Number | None = Field(default=None, ge=1990, le=2100)
    description: Prose | None = None


class SetDocument(Model):
    """A set file: the set's facts and its cards, in the effect language of `language`."""

    language: Literal[1] = LANGUAGE_VERSION
    set: SetInfo
    # Where the facts come from (validator/engine/cards/provenance.py). A set file writes each
    # card's provenance on the card; parse_set gathers them here by card name.
    sources: list[SourceRef] = Field(default_factory=list, max_length=MAX_SOURCES)
    cards: list[Card] = Field(max_length=MAX_CARDS_PER_SET)
    provenance: dict[CardName, CardProvenance] = Field(default_factory=dict)


card_adapter: TypeAdapter[Card] = TypeAdapter(Card)


_RECURSIVE: tuple[type[BaseModel], ...] = (Ability, *CARD_TYPES, SetDocument)
for _model in _RECURSIVE:
    _model.model_rebuild()
