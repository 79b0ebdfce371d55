"""Effects, each typed and discriminated by `type`, and the outcomes that happen to players.

The effect types live in modules by family (base, combat, outcomes, monsters, tricks,
allowances); `Effect`, their union, is made here once all are defined. The order of that union
is the order of the JSON Schema, of EFFECT_TYPES and of the card editor's list.
"""

from __future__ import annotations

import typing
from typing import Annotated

from pydantic import BaseModel, Field

from validator.engine.cards.effects.allowances import (
    CarryItem,
    Cheat,
    CurseImmunity,
    DrawFromDiscard,
    ExtraBigItems,
    ExtraCharacterCard,
    ExtraPowerRank,
    HandSize,
    HelperLevels,
    MetaAbility,
    OnlySlotBonuses,
    SellDouble,
    UseMonsterLevel,
)
from validator.engine.cards.effects.base import (
    EffectBase,
    OutcomeBase,
    TextContext,
)
from validator.engine.cards.effects.combat import (
    AfterEscape,
    AutomaticEscape,
    BeforeCombat,
    Bribe,
    CannotEscape,
    ChaseAway,
    DieRolls,
    EscapeByDiscard,
    ExtraLevels,
    ExtraTreasures,
    IgnoreLevel,
    KillMonster,
    LevelOnly,
    MayDecline,
    NoHelp,
    NoPursuit,
    OnEscape,
    RefusesCombat,
    RunAway,
    Strength,
    WinsTies,
)
from validator.engine.cards.effects.monsters import (
    AddMonster,
    Mate,
    RemoveMonster,
    ReplaceMonster,
)
from validator.engine.cards.effects.outcomes import (
    Amount,
    ChangeCharacterCard,
    ChangeSex,
    Choose,
    Death,
    DiscardFromHand,
    DiscardHand,
    DiscardOwnCard,
    DrawTreasures,
    GainLevels,
    LoseCards,
    LoseCharacterCard,
    LoseGoldValue,
    LoseItems,
    LoseLevels,
    OthersPayValue,
    RivalsDiscard,
    RivalsTake,
    Roll,
    RollOutcome,
    SetLevel,
    StealItem,
    StealLevel,
    TakeFromDiscard,
)
from validator.engine.cards.effects.tricks import (
    CancelCurse,
    CancelEscape,
    ChangeDieRoll,
    DoubleStrength,
    ForceHelp,
    TakeItemInCombat,
    TransferCombat,
)

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
    | RivalsDiscard
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

# The models that name `Effect` (nested effects) could not be completed in their own modules,
# which do not hold it: rebuilt here, each resolves it from this module's namespace.
_RECURSIVE: tuple[type[BaseModel], ...] = (*EFFECT_TYPES, RollOutcome)
for _model in _RECURSIVE:
    _model.model_rebuild()

__all__ = [
    "EFFECT_TYPES",
    "OUTCOME_TYPES",
    "AddMonster",
    "AfterEscape",
    "Amount",
    "AutomaticEscape",
    "BeforeCombat",
    "Bribe",
    "CancelCurse",
    "CancelEscape",
    "CannotEscape",
    "CarryItem",
    "ChangeCharacterCard",
    "ChangeDieRoll",
    "ChangeSex",
    "ChaseAway",
    "Cheat",
    "Choose",
    "CurseImmunity",
    "Death",
    "DieRolls",
    "DiscardFromHand",
    "DiscardHand",
    "DiscardOwnCard",
    "DoubleStrength",
    "DrawFromDiscard",
    "DrawTreasures",
    "Effect",
    "EffectBase",
    "EscapeByDiscard",
    "ExtraBigItems",
    "ExtraCharacterCard",
    "ExtraLevels",
    "ExtraPowerRank",
    "ExtraTreasures",
    "ForceHelp",
    "GainLevels",
    "HandSize",
    "HelperLevels",
    "IgnoreLevel",
    "KillMonster",
    "LevelOnly",
    "LoseCards",
    "LoseCharacterCard",
    "LoseGoldValue",
    "LoseItems",
    "LoseLevels",
    "Mate",
    "MayDecline",
    "MetaAbility",
    "NoHelp",
    "NoPursuit",
    "OnEscape",
    "OnlySlotBonuses",
    "OthersPayValue",
    "OutcomeBase",
    "RefusesCombat",
    "RemoveMonster",
    "ReplaceMonster",
    "RivalsDiscard",
    "RivalsTake",
    "Roll",
    "RollOutcome",
    "RunAway",
    "SellDouble",
    "SetLevel",
    "StealItem",
    "StealLevel",
    "Strength",
    "TakeFromDiscard",
    "TakeItemInCombat",
    "TextContext",
    "TransferCombat",
    "UseMonsterLevel",
    "WinsTies",
]
