"""Effects, each typed and discriminated by `type`, and the outcomes that happen to players."""

from __future__ import annotations

import typing
from abc import abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    Field,
    model_validator,
)

from validator.engine.cards.conditions import (
    Condition,
    ConditionBase,
    Per,
    PlayersOnSide,
    _per_phrase,
    _when_phrase,
    slot_phrase,
)
from validator.engine.cards.vocabulary import (
    MAX_LIST_ITEMS,
    NUMBER_LIMIT,
    Axis,
    CardTag,
    Duration,
    Model,
    Number,
    Size,
    Slot,
    TraitName,
    _article,
    _axis_plural,
    _title,
    count_phrase,
    signed,
)

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

    otherwise: list[Effect] | None = Field(default=None, max_length=MAX_LIST_ITEMS)

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
    amount: Number
    per: Per | None = None
    duration: Duration | None = None

    def conditions(self) -> Iterator[ConditionBase]:
        yield from super().conditions()
        if isinstance(self.per, PlayersOnSide):
            yield self.per.players_on_side

    def describe(self, ctx: TextContext) -> str:
        if ctx.on_monster:
            return (
                f"{signed(self.amount)} to its combat strength{_when_phrase(self.when, 'against')}"
            )
        text = f"{signed(self.amount)} to your combat strength{_per_phrase(self.per)}"
        if self.when is not None:
            text += _when_phrase(self.when, "if you are" if self.when.about_player else "against")
        if self.duration == "next_combat":
            text += ", in your next combat only"
        return text


class RunAway(EffectBase):
    """A change to Run Away rolls: against this monster only on a monster card, else all."""

    type: Literal["runaway"]
    amount: Number
    per: Per | None = None

    def describe(self, ctx: TextContext) -> str:
        target = "from it" if ctx.on_monster else "from any monster"
        return (
            f"{signed(self.amount)} to Run Away {target}{_per_phrase(self.per)}"
            f"{_when_phrase(self.when)}"
        )


class DieRolls(EffectBase):
    type: Literal["die_rolls"]
    amount: Number

    def describe(self, ctx: TextContext) -> str:
        return f"{signed(self.amount)} to every die roll you make"


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
    max_level: int = Field(ge=1, le=NUMBER_LIMIT)
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
    effects: list[Effect] = Field(max_length=MAX_LIST_ITEMS, min_length=1)

    def describe(self, ctx: TextContext) -> str:
        who = (
            f"{self.when.phrase()} who runs from it, even escaping"
            if self.when
            else "whoever runs from it, even escaping"
        )
        return f"{who}: " + "; ".join(e.describe(ctx) for e in self.effects)

    def children(self) -> Iterator[EffectBase]:
        yield from self.effects


class AfterEscape(EffectBase):
    """A reward for getting away: on an item in use, what its player gains once they have
    escaped every monster they ran from (Tuba of Charm)."""

    type: Literal["after_escape"]
    effects: list[Effect] = Field(max_length=MAX_LIST_ITEMS, min_length=1)

    def describe(self, ctx: TextContext) -> str:
        return "after you get away from a fight: " + "; ".join(
            e.describe(ctx) for e in self.effects
        )

    def children(self) -> Iterator[EffectBase]:
        yield from self.effects


class BeforeCombat(EffectBase):
    type: Literal["before_combat"]
    effects: list[Effect] = Field(max_length=MAX_LIST_ITEMS, min_length=1)

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
    treasures: int = Field(default=0, ge=0, le=NUMBER_LIMIT)
    # The refused player may discard this many Treasure cards to draw as many new ones:
    # from the hand, or ("anywhere") any of theirs, in the hand or in play.
    trade_treasures: int = Field(default=0, ge=0, le=NUMBER_LIMIT)
    trade_from: Literal["hand", "anywhere"] = "hand"

    def describe(self, ctx: TextContext) -> str:
        text = f"it will not fight {self.when.phrase() if self.when else 'anyone'}"
        if self.treasures:
            text += f", who draws {count_phrase(self.treasures, 'Treasure')} instead"
        if self.trade_treasures:
            n = count_phrase(self.trade_treasures, "Treasure card")
            where = "from their hand" if self.trade_from == "hand" else "in hand or in play"
            text += f", who may instead discard {n} {where} to draw as many, face down"
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
    min_gold: int = Field(ge=0, le=NUMBER_LIMIT)

    def describe(self, ctx: TextContext) -> str:
        return f"you may avoid the fight by giving it an item worth {self.min_gold} Gold or more"


class EscapeByDiscard(EffectBase):
    type: Literal["escape_by_discard"]
    tags: list[CardTag] = Field(max_length=MAX_LIST_ITEMS, min_length=1)

    def describe(self, ctx: TextContext) -> str:
        kinds = " or ".join(t.replace("-", " ") for t in self.tags)
        return f"when losing, you escape automatically by discarding a {kinds} item"


class ExtraLevels(EffectBase):
    type: Literal["extra_levels"]
    amount: int = Field(ge=1, le=NUMBER_LIMIT)

    def describe(self, ctx: TextContext) -> str:
        reason = self.when.phrase() if self.when else "killing it"
        return f"{count_phrase(self.amount, 'extra level')} for {reason}"


class ExtraTreasures(EffectBase):
    type: Literal["extra_treasures"]
    amount: int = Field(ge=1, le=NUMBER_LIMIT)

    def describe(self, ctx: TextContext) -> str:
        who = self.when.phrase() if self.when else "the winner"
        return f"{who} draws {count_phrase(self.amount, 'extra Treasure')} for killing it"


class KillMonster(EffectBase):
    type: Literal["kill_monster"]

    def describe(self, ctx: TextContext) -> str:
        return f"kills {self.when.phrase() if self.when else 'a monster'} outright"


# -- outcomes: levels, items, cards -----------------------------------------------------------

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
            return f"discard {_article(one)}{worn} of your choice"
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
    count: int = Field(default=1, ge=1, le=NUMBER_LIMIT)

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
    type: Literal["draw_treasures"]
    count: int = Field(ge=1, le=NUMBER_LIMIT)
    face_up: bool = False
    recipient: Literal["self", "fighter"] = "self"

    def outcome_text(self) -> str:
        who = "the player who was fighting draws" if self.recipient == "fighter" else "draw"
        return f"{who} {count_phrase(self.count, 'Treasure')}" + (
            " face up" if self.face_up else ""
        )


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
        what = _article(self.kind.replace("_", " ")) if self.kind else "a card"
        if self.owner == "any":
            return f"discard {what} in play, yours or another player's"
        return f"discard {what} you have in play"


# -- combat tricks (mostly one-shots and other cards) -----------------------------------------


class RemoveMonster(EffectBase):
    type: Literal["remove_monster"]
    count: Number | Literal["all"] = 1
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
    runaway: Number = 0

    def describe(self, ctx: TextContext) -> str:
        text = (
            "a copy of one monster, with every enhancer on it, joins the fight; killing both "
            "pays levels and Treasure for each"
        )
        if self.runaway:
            text += f"; {signed(self.runaway)} to Run Away from either of the pair"
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
    # False: the helper made to help may ask no share of the Treasure (Kneepads of Allure).
    helper_reward: bool = True

    def describe(self, ctx: TextContext) -> str:
        text = "you may make another player help you in a fight (never a fight for the win)"
        if not self.helper_reward:
            text += "; a helper made to help asks no reward"
        return text


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
    count: int = Field(default=1, ge=1, le=NUMBER_LIMIT)
    # False: playable with no card on its axis, and it stays when the last one goes
    # (Impossible's Extra Training).
    needs_host: bool = True

    def describe(self, ctx: TextContext) -> str:
        noun = _title(self.axis)
        if not self.needs_host:
            more = count_phrase(self.count, f"more {noun}", f"more {_axis_plural(self.axis)}")
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


Effect = Annotated[
    Strength
    | RunAway
    | DieRolls
    | WinsTies
    | AutomaticEscape
    | CannotEscape
    | NoPursuit
    | OnEscape
    | AfterEscape
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
    | DiscardFromHand
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


_RECURSIVE: tuple[type[BaseModel], ...] = (*EFFECT_TYPES, RollOutcome)
for _model in _RECURSIVE:
    _model.model_rebuild()
