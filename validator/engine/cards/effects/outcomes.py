"""Outcomes, what happens to a player (Bad Stuff above all): levels, items, cards lost or won."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from validator.engine.cards.effects.base import EffectBase, OutcomeBase, TextContext
from validator.engine.cards.vocabulary import (
    MAX_LIST_ITEMS,
    NUMBER_LIMIT,
    Axis,
    CardTag,
    Model,
    Number,
    Size,
    Slot,
    TraitName,
    count_phrase,
    title_case,
    with_article,
)

if TYPE_CHECKING:
    from validator.engine.cards.effects import Effect

Amount = Number | Literal["roll"]


def _amount_phrase(amount: Amount, singular: str, plural: str | None = None) -> str:
    if amount == "roll":
        return f"as many {plural or singular + 's'} as the number rolled"
    assert isinstance(amount, int)
    return count_phrase(amount, singular, plural)


class LoseLevels(OutcomeBase):
    type: Literal["lose_levels"]
    amount: Amount

    def outcome_text(self) -> str:
        return f"lose {_amount_phrase(self.amount, 'level')}"


class GainLevels(OutcomeBase):
    type: Literal["gain_levels"]
    amount: int = Field(ge=1, le=NUMBER_LIMIT)
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
            f"{count_phrase(self.amount, 'level')}"
        )
        return text + (" (this can win the game)" if self.may_win else " (never the winning level)")

    def describe(self, ctx: TextContext) -> str:
        if self.target == "each_matching_player" and self.when is not None:
            return (
                f"every player who is {self.when.phrase()} gains "
                f"{count_phrase(self.amount, 'level')}"
                + (" (this can win the game)" if self.may_win else " (never the winning level)")
            )
        return super().describe(ctx)


class SetLevel(OutcomeBase):
    type: Literal["set_level"]
    to: Number | Literal["lowest_in_play"]

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
    count: Number | Literal["all"] = 1
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
            return f"discard {with_article(one)}{worn} of your choice"
        return f"discard {self.count} {many}{worn} of your choice"


class LoseGoldValue(OutcomeBase):
    type: Literal["lose_gold_value"]
    amount: int = Field(ge=1, le=NUMBER_LIMIT)

    def outcome_text(self) -> str:
        return f"lose items worth at least {self.amount:,} Gold; with less, lose every item"


class DiscardHand(OutcomeBase):
    type: Literal["discard_hand"]

    def outcome_text(self) -> str:
        return "discard your whole hand"


class DiscardFromHand(OutcomeBase):
    """Throw away cards from the hand, the victim's pick. Holding fewer than `count`, the
    victim throws away all they hold and `if_fewer` applies as well (Congressional Hearing)."""

    type: Literal["discard_from_hand"]
    count: int = Field(ge=1, le=NUMBER_LIMIT)
    if_fewer: list[Effect] | None = Field(default=None, max_length=MAX_LIST_ITEMS)

    def outcome_text(self) -> str:
        text = f"discard {count_phrase(self.count, 'card')} of your choice from your hand"
        if self.if_fewer:
            extra = "; ".join(e.describe(TextContext()) for e in self.if_fewer)
            text += f"; if you hold fewer, discard all you hold and {extra} as well"
        return text

    def children(self) -> Iterator[EffectBase]:
        yield from super().children()
        yield from self.if_fewer or ()


class LoseCards(OutcomeBase):
    """Lose a number of cards, mixing items in play and cards in hand as the victim likes."""

    type: Literal["lose_cards"]
    count: Amount

    def outcome_text(self) -> str:
        return f"lose {_amount_phrase(self.count, 'card')}, items or hand cards as you choose"


class LoseCharacterCard(OutcomeBase):
    type: Literal["lose_character_card"]
    axis: Axis
    count: Number | Literal["all"] = 1
    name: TraitName | None = None

    def outcome_text(self) -> str:
        noun = title_case(self.axis)
        if self.name:
            return f"discard your {title_case(self.name)} card"
        if self.count == "all":
            return f"discard every {noun} card you have"
        return f"discard {with_article(noun)} card of your choice"


class ChangeCharacterCard(OutcomeBase):
    type: Literal["change_character_card"]
    axis: Axis

    def outcome_text(self) -> str:
        noun = title_case(self.axis)
        return (
            f"the first {noun} found going down the Door discards replaces yours "
            f"(none found: you lose your {noun}); no effect if you have no {noun}"
        )


class ChangeSex(OutcomeBase):
    type: Literal["change_sex"]

    def outcome_text(self) -> str:
        return "your character's sex changes"


# Which other players act on the victim, and in what order (rivals_take, rivals_discard).
Rivals = Literal[
    "left_then_right", "highest_level", "each_other_from_left", "each_other_from_right"
]
RIVALS_PHRASES: dict[str, str] = {
    "left_then_right": "the player on your left, then the one on your right,",
    "highest_level": "each player of the highest Level",
    "each_other_from_left": "going left, each other player",
    "each_other_from_right": "going right, each other player",
}


class RivalsTake(OutcomeBase):
    type: Literal["rivals_take"]
    takers: Rivals
    what: Literal["item", "treasure", "hand_card"]
    count: int = Field(default=1, ge=1, le=NUMBER_LIMIT)

    def outcome_text(self) -> str:
        who = RIVALS_PHRASES[self.takers]
        what = {
            "item": "item of their choice you have in play",
            "treasure": "Treasure card of yours (in play, or unseen from your hand)",
            "hand_card": "card from your hand, unseen",
        }[self.what]
        amount = "one" if self.count == 1 else str(self.count)
        return f"{who} takes {amount} {what}"


class RivalsDiscard(OutcomeBase):
    """Other players each choose items of the victim's, which are discarded: nobody keeps them
    (the Leperchaun's neighbours). `rivals_take` is the same choice with the card kept."""

    type: Literal["rivals_discard"]
    choosers: Rivals
    count: int = Field(default=1, ge=1, le=NUMBER_LIMIT)

    def outcome_text(self) -> str:
        who = RIVALS_PHRASES[self.choosers]
        if self.count == 1:
            return f"{who} chooses one item you have in play, which is discarded (nobody keeps it)"
        return (
            f"{who} chooses {self.count} items you have in play, which are discarded "
            "(nobody keeps them)"
        )


class Roll(OutcomeBase):
    type: Literal["roll"]
    outcomes: list[RollOutcome] = Field(max_length=MAX_LIST_ITEMS, min_length=1)

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
    effects: list[Effect] = Field(max_length=MAX_LIST_ITEMS)


class Choose(OutcomeBase):
    type: Literal["choose"]
    options: list[list[Effect]] = Field(max_length=MAX_LIST_ITEMS, min_length=2)

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
    """Draw Treasures. `face_up`: true, drawn face up (everyone sees them); false, face down
    (into the hand unseen; Tuba of Charm); left out when the card does not say. The engine
    deals them to the hand either way: only the rules text tells them apart."""

    type: Literal["draw_treasures"]
    count: int = Field(ge=1, le=NUMBER_LIMIT)
    face_up: bool | None = None
    recipient: Literal["self", "fighter"] = "self"

    def outcome_text(self) -> str:
        who = "the player who was fighting draws" if self.recipient == "fighter" else "draw"
        face = {True: " face up", False: " face down", None: ""}[self.face_up]
        return f"{who} {count_phrase(self.count, 'Treasure')}{face}"


class TakeFromDiscard(OutcomeBase):
    type: Literal["take_from_discard"]
    count: int = Field(default=1, ge=1, le=NUMBER_LIMIT)

    def outcome_text(self) -> str:
        return f"take {count_phrase(self.count, 'card')} of your choice from either discard pile"


class OthersPayValue(OutcomeBase):
    """After the victim loses an item, each other player must lose items worth as much."""

    type: Literal["others_pay_value"]
    levels: int = Field(default=1, ge=0, le=NUMBER_LIMIT)

    def outcome_text(self) -> str:
        return (
            "each other player must then give up items worth at least the Gold value of the item "
            f"you lost; anyone who cannot loses every item and {count_phrase(self.levels, 'level')}"
        )


class DiscardOwnCard(OutcomeBase):
    """Discard a card of the player's own (in play or in hand), used as an ability's side cost."""

    type: Literal["discard_card"]
    kind: str | None = Field(default=None, pattern=r"^[a-z_]+$")
    # "any": the card may be in any player's area (a rival's first, then the player's own).
    owner: Literal["self", "any"] = "self"

    def outcome_text(self) -> str:
        what = with_article(self.kind.replace("_", " ")) if self.kind else "a card"
        if self.owner == "any":
            return f"discard {what} in play, yours or another player's"
        return f"discard {what} you have in play"
