"""Effects that change who is in a fight: a monster removed, added, mated or replaced."""

from __future__ import annotations

from typing import Literal

from validator.engine.cards.effects.base import EffectBase, TextContext
from validator.engine.cards.vocabulary import Number, signed


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
