"""The base of every effect, and of the outcomes: what happens to a player."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from validator.engine.cards.conditions import Condition, ConditionBase
from validator.engine.cards.vocabulary import MAX_LIST_ITEMS, Model

if TYPE_CHECKING:
    # Effects nest effects: the union of every type is made once all of them are defined, in
    # the package, which rebuilds the models that name it.
    from validator.engine.cards.effects import Effect


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
