"""Combat tricks, mostly one-shots: cancel a Curse or an escape, change a roll, double strength,
hand the fight over, force help, take an item."""

from __future__ import annotations

from typing import Literal

from validator.engine.cards.effects.base import EffectBase, TextContext


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
