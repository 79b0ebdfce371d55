"""Monsters brought into a fight from the hand: added beside the first, mated (a copy), or
swapped in, each refused without a monster of its player's own (`MONSTER_CHECKS`)."""

from __future__ import annotations

from typing import Any

from validator.checks.played.shared import PlayedCheck, losing_fight
from validator.checks.references import IMP, OGRE, RAGE
from validator.checks.runner import CheckContext, expect_caught, expect_values, player
from validator.engine import AddMonster, CardBase, EffectBase, Mate, ReplaceMonster


def _add_monster_check(ctx: CheckContext, card: CardBase, effect: AddMonster) -> None:
    players = [
        player("Hero", 1, in_play=["Validator Gauntlet"]),
        player("Rival", hand=[card.name, IMP]),
    ]
    steps = [{"play": card.name, "by": "Rival", "with": IMP}, {"resolve": True}]
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    passed = ctx.run(
        "strengths add up, and both pay",
        {"players": players, "combat": fight, "steps": steps},
        expect_values(monster_strength=6, outcome="won", levels={"Hero": 3}, treasures_drawn=3),
    )
    # Fled separately: a 5 escapes one, a 1 is caught by the other (-1 for the Ogre, -2 the Imp).
    _monster_from_hand_refusals(ctx, card, {"players": players, "combat": fight}, "Rival", {})
    players[0] = player("Hero", 4)
    if passed is not None:
        ctx.run(
            "each is fled from separately",
            {"players": players, "combat": fight, "steps": steps, "dice": [5, 1]},
            lambda v: (
                expect_caught(v)
                or (None if v["levels"]["Hero"] in (2, 3) else f"Level {v['levels']['Hero']}")
            ),
            covers=[AddMonster],
        )
    follower_kind = SACRIFICED_FOLLOWERS.get(ctx.set_code)
    if follower_kind is not None:
        _sacrifice_from_two_run(ctx, card, follower_kind)


# The sets whose rulebooks let a follower be given up to escape (SpongeBob's Allies, Super
# Munchkin's Sidekicks): "automatic escape from all monsters in a combat".
SACRIFICED_FOLLOWERS = {"munchkin-spongebob": "ally", "munchkin-super": "sidekick"}


def _sacrifice_from_two_run(ctx: CheckContext, card: CardBase, follower_kind: str) -> None:
    """The Imp brought in beside the Ogre (6 together): a plain follower of the kind the set's
    rulebook names lends its +3 (SpongeBob's Allies "may grant you combat bonuses": the card
    says how much), so the Level 4 Hero beats both, 7 to 6; enraged, they are too strong and the
    Hero gives it up instead of rolling: no die is rolled (the 1s would be caught by both), the
    Hero escapes both monsters and keeps the Level (the Rage makes the fight lost)."""
    follower = f"Validator {follower_kind.title()}"
    document = {
        "name": follower,
        "deck": "door",
        "kind": follower_kind,
        "bonus": 3,
        "encoding": {"status": "full"},
    }
    players = [player("Hero", 4, in_play=[follower]), player("Rival", hand=[card.name, IMP])]
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    brought = {"play": card.name, "by": "Rival", "with": IMP}
    ctx.run(
        f"the {follower_kind}'s bonus counts against both monsters",
        {"players": players, "combat": fight, "steps": [brought], "cards": [document]},
        expect_values(fighter_strength=4 + 3, monster_strength=6),
    )
    ctx.run(
        f"the {follower_kind} given up escapes both monsters",
        {
            "players": [players[0], player("Rival", hand=[card.name, IMP, RAGE])],
            "combat": fight,
            "steps": [
                brought,
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"sacrifice": follower, "by": "Hero"},
                {"resolve": True},
            ],
            "dice": [1, 1],
            "cards": [document],
            "expect": {"not_in_play": {"Hero": [follower]}},
        },
        expect_values(outcome="escaped", levels={"Hero": 4}),
    )


def _mate_check(ctx: CheckContext, card: CardBase, effect: Mate) -> None:
    # Ogre (5) + Vigor (+3, +1 Treasure), twice: 16 strong, 2 levels and 6 Treasures.
    passed = ctx.run(
        "a copy with its enhancers: both to kill, both pay",
        {
            "players": [
                player("Hero", 3, in_play=["Validator Gauntlet"]),
                player("Rival", hand=["Validator Vigor", card.name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": "Validator Vigor", "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Rival", "on": OGRE},
                {"resolve": True},
            ],
        },
        expect_values(monster_strength=16, outcome="won", levels={"Hero": 5}, treasures_drawn=6),
    )
    # An enhancer played on the copy afterwards enhances the pair, as one played before does.
    ctx.run(
        "an enhancer on the copy enhances both",
        {
            "players": [
                player("Hero", 3, in_play=["Validator Gauntlet"]),
                player("Rival", hand=["Validator Vigor", card.name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Rival", "on": OGRE},
                {"play": "Validator Vigor", "by": "Rival", "on": f"{OGRE} (Mate)"},
                {"resolve": True},
            ],
        },
        expect_values(monster_strength=16, outcome="won", levels={"Hero": 5}, treasures_drawn=6),
    )
    # Named at the copy, it copies the same monster again: a third Ogre (15 strong, 3 levels
    # and 6 Treasures for a 33-strong Hero).
    ctx.run(
        "played on the copy, a third of the same monster",
        {
            "players": [
                player("Hero", 3, in_play=["Validator Gauntlet"]),
                player("Rival", hand=[card.name, card.name]),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Rival", "on": f"{OGRE} (Mate)"},
                {"resolve": True},
            ],
        },
        expect_values(monster_strength=15, outcome="won", levels={"Hero": 6}, treasures_drawn=6),
    )
    needed = 5 - effect.runaway
    if passed is None or not 2 <= needed <= 6:
        return
    # One die short of the modified roll is caught (by an Ogre: -1); the other roll escapes.
    ctx.run(
        f"running from the pair at {effect.runaway:+d}",
        {
            "players": [player("Hero", 3), player("Rival", hand=[card.name])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Rival", "on": OGRE}, {"resolve": True}],
            "dice": [needed - 1, needed],
        },
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[Mate],
    )


def _replace_check(ctx: CheckContext, card: CardBase, effect: ReplaceMonster) -> None:
    # The Enraged Ogre goes, Rage and all; the Imp from the hand is fought instead.
    document = losing_fight(card, "Hero")
    document["players"][0]["hand"].append(IMP)
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Hero", "on": OGRE, "with": IMP},
        {"resolve": True},
    ]
    ctx.run(
        "a monster swapped for one from the hand",
        document,
        expect_values(monster_strength=1, outcome="won", levels={"Hero": 4}, treasures_drawn=1),
        covers=[ReplaceMonster],
    )
    _monster_from_hand_refusals(ctx, card, losing_fight(card, "Hero"), "Hero", {"on": OGRE})


def _monster_from_hand_refusals(
    ctx: CheckContext,
    card: CardBase,
    document: dict[str, Any],
    by: str,
    target: dict[str, Any],
) -> None:
    """The monster it brings in comes from its player's own hand, as the card says: named with
    something that is not a monster, or with nothing (while another player holds a monster), the
    card is refused and the fight is left as it was (the Ogre alone, every card still in hand)."""
    players = [dict(p) for p in document["players"]]
    bringer = next(p for p in players if p["name"] == by)
    other = next(p for p in players if p["name"] != by)
    # Its player holds no monster, only an item; the other player holds the Imp.
    bringer["hand"] = [card.name, "Validator Helm", *(h for h in bringer["hand"] if h != card.name)]
    bringer["hand"] = [h for h in bringer["hand"] if h != IMP]
    other["hand"] = [*other.get("hand", []), IMP]
    held = {by: len(bringer["hand"]), other["name"]: len(other["hand"])}
    for label, named in (
        ("a card that is not a monster", {"with": "Validator Helm"}),
        ("nothing", {}),
    ):
        ctx.run(
            f"refused with {label}",
            {
                **document,
                "players": players,
                "steps": [{"play": card.name, "by": by, **target, **named}],
                "expect": {"error": True, "hand_sizes": held},
            },
            expect_values(monster_strength=5),
        )


MONSTER_CHECKS: dict[type[EffectBase], PlayedCheck] = {
    AddMonster: _add_monster_check,
    Mate: _mate_check,
    ReplaceMonster: _replace_check,
}
