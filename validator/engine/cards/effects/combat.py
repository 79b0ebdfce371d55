"""Effects on a fight: strength, Run Away, help, and the ways past a monster and its rewards."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from validator.engine.cards.conditions import (
    Condition,
    ConditionBase,
    Per,
    PlayersOnSide,
    per_phrase,
    when_phrase,
)
from validator.engine.cards.effects.base import EffectBase, TextContext
from validator.engine.cards.vocabulary import (
    MAX_LIST_ITEMS,
    NUMBER_LIMIT,
    CardTag,
    Duration,
    Number,
    count_phrase,
    signed,
)

if TYPE_CHECKING:
    from validator.engine.cards.effects import Effect


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
                f"{signed(self.amount)} to its combat strength{when_phrase(self.when, 'against')}"
            )
        text = f"{signed(self.amount)} to your combat strength{per_phrase(self.per)}"
        if self.when is not None:
            text += when_phrase(self.when, "if you are" if self.when.about_player else "against")
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
            f"{signed(self.amount)} to Run Away {target}{per_phrase(self.per)}"
            f"{when_phrase(self.when)}"
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
            return f"escape from it is automatic{when_phrase(self.when)}"
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
