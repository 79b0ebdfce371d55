"""Checks of the effects that come with playing a card or using an ability. Other cards and
followers are checked by these alone; one-shots and characters' abilities reuse them. A
`Source` says how the Hero brings the effect in (the card played, or its ability used);
outcomes are played at a table where there is something to take, removals against two
monsters, and every other effect by its check in `PLAYED_CHECKS` (doubled strength, a kill, a
fight handed over, dice changed, an escape undone, a curse cancelled, Cheat!, monsters added,
mated or swapped, items taken or carried, a level stolen), each with the refusals its card
implies.

One module per family: `outcomes` (outcomes, removals, cards acting when drawn), `combat`,
`cheats`, `monsters` (brought in from the hand), `taken` (items taken or carried, a level
stolen), over `shared` (`Source`); `dispatch` gathers their checks into `PLAYED_CHECKS`.
"""

from __future__ import annotations

from validator.checks.played.combat import strength_in_play_check
from validator.checks.played.dispatch import PLAYED_CHECKS, follower_checks, played_checks
from validator.checks.played.outcomes import OUTCOME_TABLE, outcomes_check, removal_check
from validator.checks.played.shared import Source

__all__ = [
    "OUTCOME_TABLE",
    "PLAYED_CHECKS",
    "Source",
    "follower_checks",
    "outcomes_check",
    "played_checks",
    "removal_check",
    "strength_in_play_check",
]
