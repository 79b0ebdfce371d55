"""Each effect played to its check (`PLAYED_CHECKS`, gathered from the families), and the
cards checked by these alone: other cards (`played_checks`) and followers."""

from __future__ import annotations

from validator.checks.played.cheats import CHEAT_CHECKS
from validator.checks.played.combat import COMBAT_CHECKS
from validator.checks.played.monsters import MONSTER_CHECKS
from validator.checks.played.outcomes import on_draw_check, outcomes_check, removal_check
from validator.checks.played.shared import PlayedCheck, Source
from validator.checks.played.taken import TAKEN_CHECKS
from validator.checks.references import OGRE
from validator.checks.runner import CheckContext, player
from validator.engine import CardBase, EffectBase, OutcomeBase, RemoveMonster

PLAYED_CHECKS: dict[type[EffectBase], PlayedCheck] = {
    **COMBAT_CHECKS,
    **CHEAT_CHECKS,
    **MONSTER_CHECKS,
    **TAKEN_CHECKS,
}


def played_checks(ctx: CheckContext, card: CardBase) -> None:
    """Effects that come with playing the card, each checked by its type."""
    outcomes = [e for e in card.effects if isinstance(e, OutcomeBase)]
    removals = [e for e in card.effects if isinstance(e, RemoveMonster)]
    for removal in removals:
        removal_check(ctx, Source(card), removal, outcomes)
    timing = getattr(card, "timing", "any")
    if outcomes and not removals:
        if timing == "on_draw":
            on_draw_check(ctx, card, outcomes)
        elif timing not in ("combat", "running_away"):
            outcomes_check(ctx, Source(card), outcomes)
    for effect in card.effects:
        check = PLAYED_CHECKS.get(type(effect))
        if check is not None:
            check(ctx, card, effect)


def follower_checks(ctx: CheckContext, card: CardBase) -> None:
    """A follower's effects, and when it joins: one the card lets be played at any time (the
    core rules say so of the Hireling) joins on any turn, even in its player's own fight."""
    played_checks(ctx, card)
    name = card.name
    if card.kind_name != "sidekick":
        # Only Items are traded (core rules, Trading; SpongeBob's Allies never are): a
        # Hireling or an Ally stays with its player, and so does what was offered back.
        ctx.run(
            "not traded away",
            {
                "players": [
                    player("Hero", 3, in_play=[name]),
                    player("Rival", 3, in_play=["Validator Trinket"]),
                ],
                "steps": [
                    {"give": [name], "by": "Hero", "to": "Rival", "take": ["Validator Trinket"]}
                ],
                "expect": {
                    "error": "not an Item",
                    "in_play": {"Hero": [name], "Rival": ["Validator Trinket"]},
                    "not_in_play": {"Rival": [name]},
                },
            },
        )
    if card.kind_name == "hireling":
        # The rules let Allies and Sidekicks be given up for an automatic escape; a Hireling
        # has no such power (the card says he carries an item, nothing more): refused, kept.
        ctx.run(
            "not sacrificed for an escape",
            {
                "players": [player("Hero", 1, in_play=[name]), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"sacrifice": name, "by": "Hero"}],
                "expect": {"error": "cannot be sacrificed", "in_play": {"Hero": [name]}},
            },
        )
    if getattr(card, "timing", "any") != "any":
        return
    ctx.run(
        "played on another player's turn",
        {
            "players": [player("Hero", 3), player("Rival", 2, hand=[name])],
            "steps": [{"play": name, "by": "Rival"}],
            "expect": {"in_play": {"Rival": [name]}, "hand_sizes": {"Rival": 0}},
        },
    )
    ctx.run(
        "played in its player's fight",
        {
            "players": [player("Hero", 3, hand=[name]), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"in_play": {"Hero": [name]}, "hand_sizes": {"Hero": 0}},
        },
    )
