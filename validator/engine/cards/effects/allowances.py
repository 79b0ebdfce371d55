"""What a player may have or do beyond the usual rules: Cheat!, extra character cards, Big
items, hand size, followers that carry, meta-abilities and the like."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from validator.engine.cards.conditions import slot_phrase
from validator.engine.cards.effects.base import EffectBase, TextContext
from validator.engine.cards.vocabulary import (
    NUMBER_LIMIT,
    Axis,
    Duration,
    Number,
    Slot,
    axis_plural,
    count_phrase,
    title_case,
    with_article,
)


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
    count: int = Field(default=1, ge=1, le=NUMBER_LIMIT)
    # False: playable with no card on its axis, and it stays when the last one goes
    # (Impossible's Extra Training).
    needs_host: bool = True

    def describe(self, ctx: TextContext) -> str:
        noun = title_case(self.axis)
        if not self.needs_host:
            more = count_phrase(self.count, f"more {noun}", f"more {axis_plural(self.axis)}")
            return (
                f"you may have {more} in play than the rules allow; play it whenever you like, "
                "with or without one"
            )
        if self.count > 1:
            return (
                f"attach to {with_article(noun)}: you may have up to {self.count + 1} "
                f"{axis_plural(self.axis)}, with everything each gives and takes; it is "
                f"discarded when your last {noun} goes"
            )
        return (
            f"attach to {with_article(noun)}: with two {axis_plural(self.axis)}, you have "
            "everything both give and take; with one, you get its advantages and none of its "
            "drawbacks "
            f"(ability costs are still paid); it is discarded when your last {noun} goes"
        )


class ExtraBigItems(EffectBase):
    type: Literal["extra_big_items"]
    count: Number | Literal["unlimited"]

    def describe(self, ctx: TextContext) -> str:
        if self.count == "unlimited":
            return "you may carry any number of Big items"
        return f"you may carry {count_phrase(self.count, 'extra Big item')}"


class HandSize(EffectBase):
    type: Literal["hand_size"]
    size: int = Field(ge=0, le=NUMBER_LIMIT)

    def describe(self, ctx: TextContext) -> str:
        return f"you may keep {count_phrase(self.size, 'card')} in your hand"


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
    amount: int = Field(default=1, ge=1, le=NUMBER_LIMIT)

    def describe(self, ctx: TextContext) -> str:
        levels = count_phrase(self.amount, "level")
        return f"when you help kill a monster, you gain {levels} per monster"


class SellDouble(EffectBase):
    type: Literal["sell_double"]
    per_turn: int = Field(default=1, ge=1, le=NUMBER_LIMIT)

    def describe(self, ctx: TextContext) -> str:
        return f"once a turn, sell {count_phrase(self.per_turn, 'item')} for double its Gold"


class OnlySlotBonuses(EffectBase):
    type: Literal["only_slot_bonuses"]
    slot: Slot
    duration: Duration | None = None

    def describe(self, ctx: TextContext) -> str:
        when = "in your next combat, " if self.duration == "next_combat" else ""
        return f"{when}only {slot_phrase(self.slot)} gives you a bonus"


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
    amount: int = Field(ge=1, le=NUMBER_LIMIT)

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
