"""Effects played into a fight: strength doubled or added, an automatic escape, a kill, the
fight handed over, dice changed, an escape undone, a curse cancelled (`COMBAT_CHECKS`)."""

from __future__ import annotations

from validator.checks.played.shared import PlayedCheck, losing_fight
from validator.checks.references import OGRE, RAGE, monster_document, stand_in_monster, traits_of
from validator.checks.runner import CheckContext, expect_values, player, trait_names
from validator.engine import (
    AutomaticEscape,
    CancelCurse,
    CancelEscape,
    CardBase,
    ChangeDieRoll,
    DoubleStrength,
    EffectBase,
    KillMonster,
    OneShotCard,
    PlayersOnSide,
    Strength,
    TransferCombat,
)


def _double_strength_check(ctx: CheckContext, card: CardBase, effect: DoubleStrength) -> None:
    ctx.run(
        "doubles the player's strength",
        {
            "players": [player("Hero", 3, hand=[card.name]), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=6),
        covers=[DoubleStrength],
    )
    # Only a player in the fight can double their own strength: a bystander is refused, and
    # keeps the card.
    ctx.run(
        "refused to a player outside the combat",
        {
            "players": [player("Hero", 3), player("Rival", 1, hand=[card.name])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Rival"}],
            "expect": {"error": True, "hand_sizes": {"Rival": 1}},
        },
        expect_values(fighter_strength=3),
    )


def _automatic_escape_check(ctx: CheckContext, card: CardBase, effect: AutomaticEscape) -> None:
    if not isinstance(card, OneShotCard):
        return  # only a one-shot is played into a fight for it
    ctx.run(
        "an automatic escape",
        {
            "players": [player("Hero", 6, hand=[card.name]), player("Rival", 1, hand=[RAGE])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Hero"},
                {"resolve": True},
            ],
            "dice": [1, 1],
        },
        expect_values(outcome="escaped", levels={"Hero": 6}),
        covers=[AutomaticEscape],
    )
    if effect.players == 2 and effect.timing == "instead_of_roll":
        # For two, its player and the helper both get away, though both dice fail: neither
        # meets the Ogre's Bad Stuff (a level each).
        ctx.run(
            "an automatic escape for the fighter and the helper",
            {
                "players": [
                    player("Hero", 6, hand=[card.name]),
                    player("Rival", 3),
                    player("Foe", 1, hand=[RAGE]),
                ],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [
                    {"help": "Rival"},
                    {"play": RAGE, "by": "Foe", "on": OGRE},
                    {"play": card.name, "by": "Hero"},
                    {"resolve": True},
                ],
                "dice": [1, 1],
            },
            expect_values(outcome="escaped", levels={"Hero": 6, "Rival": 3}),
            covers=[AutomaticEscape],
        )


def _strength_per_check(ctx: CheckContext, card: CardBase, effect: Strength) -> None:
    traits = traits_of(
        [effect.per.players_on_side] if isinstance(effect.per, PlayersOnSide) else []
    )
    if len(traits) != 1:
        return
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    ctx.run(
        "its bonus per matching player",
        {
            "players": [
                player("Hero", 2, hand=[card.name], in_play=trait_names(traits)),
                player("Rival"),
            ],
            "combat": fight,
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=2 + effect.amount),
        covers=[Strength],
    )
    ctx.run(
        "nothing without one",
        {
            "players": [player("Hero", 2, hand=[card.name]), player("Rival")],
            "combat": fight,
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(fighter_strength=2),
    )


def strength_in_play_check(ctx: CheckContext, card: CardBase, effect: Strength) -> None:
    """A card that stays in play with a plain bonus (a Training, an Ally): its owner's
    strength is their Level plus the bonus; a rival's is not touched."""
    if isinstance(card, OneShotCard) or effect.when is not None:
        return  # a one-shot's bonus is checked as played; a conditional one is not staged
    ctx.run(
        "its bonus counts for its owner",
        {
            "players": [player("Hero", 2, in_play=[card.name]), player("Rival", 3)],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"help": "Rival"}],
        },
        expect_values(fighter_strength=2 + effect.amount + 3, monster_strength=5),
        covers=[Strength],
    )


def _kill_monster_check(ctx: CheckContext, card: CardBase, effect: KillMonster) -> None:
    monster = OGRE if effect.when is None else stand_in_monster(effect.when)
    if monster is None:
        return
    # The Ogre pays 2 Treasures; a stand-in (Level 10) pays 1.
    ctx.run(
        f"kills {monster} outright",
        {
            "players": [player("Hero", 1, hand=[card.name]), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [monster]},
            "steps": [{"play": card.name, "by": "Hero"}],
        },
        expect_values(
            outcome="won", levels={"Hero": 2}, treasures_drawn=2 if monster == OGRE else 1
        ),
        covers=[KillMonster],
    )


def _transfer_check(ctx: CheckContext, card: CardBase, effect: TransferCombat) -> None:
    # The new fighter wins and takes the rewards; the first may still Loot the Room.
    ctx.run(
        "another player takes over the fight",
        {
            "players": [player("Hero", 1, hand=[card.name]), player("Rival", 8)],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [
                {"play": card.name, "by": "Hero", "on": "Rival"},
                {"resolve": True},
                {"loot_room": "Hero"},
            ],
        },
        expect_values(
            outcome="won",
            fighter_strength=8,
            treasures_drawn=2,
            levels={"Hero": 1, "Rival": 9},
            hand_sizes={"Hero": 1, "Rival": 2},
        ),
        covers=[TransferCombat],
    )
    # The fight goes to another player: naming no one, or someone already fighting, is
    # refused and the card kept.
    for label, on in (("no one named", None), ("the fighter named", "Hero")):
        ctx.run(
            f"refused with {label}",
            {
                "players": [player("Hero", 1, hand=[card.name]), player("Rival", 8)],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"play": card.name, "by": "Hero", **({"on": on} if on else {})}],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
            expect_values(fighter_strength=1),
        )


def _die_check(ctx: CheckContext, card: CardBase, effect: ChangeDieRoll) -> None:
    # The runner sets the die to the number that helps most: a 6 escapes the Ogre.
    document = losing_fight(card, "Hero", dice=[1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Hero"},
        {"resolve": True},
    ]
    ctx.run(
        "a die of 1 becomes a 6",
        document,
        expect_values(outcome="escaped", levels={"Hero": 3}),
        covers=[ChangeDieRoll],
    )
    # The best a die can show is a 6: against a monster that is -2 to outrun, 6 - 2 = 4 is
    # still caught (ESCAPE_ROLL is 5), and the Level 3 Hero loses a level to it.
    slow = monster_document("Validator Slug", 9, effects=[{"type": "runaway", "amount": -2}])
    ctx.run(
        "a die made a 6 is still short against a -2",
        {
            "cards": [slow],
            "players": [player("Hero", 3, hand=[card.name]), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [slow["name"]]},
            "dice": [1],
            "steps": [{"play": card.name, "by": "Hero"}, {"resolve": True}],
        },
        expect_values(outcome="caught", levels={"Hero": 2}),
    )


def _glue_check(ctx: CheckContext, card: CardBase, effect: CancelEscape) -> None:
    # A 6 escapes, is undone, and the second roll (1) is caught: the Ogre takes a level.
    document = losing_fight(card, "Rival", dice=[6, 1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Rival", "on": "Hero"},
        {"resolve": True},
    ]
    ctx.run(
        "an escape undone must be rolled again",
        document,
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[CancelEscape],
    )
    # Named no one, it holds the fighter (the one who would run).
    document = losing_fight(card, "Rival", dice=[6, 1, 1])
    document["steps"] = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Rival"},
        {"resolve": True},
    ]
    ctx.run(
        "the fighter held when no one is named",
        document,
        expect_values(outcome="caught", levels={"Hero": 2}),
        covers=[CancelEscape],
    )


def _cancel_curse_check(ctx: CheckContext, card: CardBase, effect: CancelCurse) -> None:
    # The Hex (-3 in the next combat) counts in this one until it is cancelled, mid-fight.
    ctx.run(
        "a curse cancelled in the middle of a fight",
        {
            "players": [
                player("Hero", 4, in_play=["Validator Hex"], hand=[card.name]),
                player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero", "on": "Hero"}],
            "expect": {"not_in_play": {"Hero": ["Validator Hex"]}},
        },
        expect_values(fighter_strength=4),
        covers=[CancelCurse],
    )
    # Named at no one, it cancels its player's own curse.
    ctx.run(
        "its player's own curse cancelled when no one is named",
        {
            "players": [
                player("Hero", 4, in_play=["Validator Hex"], hand=[card.name]),
                player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": card.name, "by": "Hero"}],
            "expect": {"not_in_play": {"Hero": ["Validator Hex"]}},
        },
        expect_values(fighter_strength=4),
        covers=[CancelCurse],
    )
    # Out of combat too, named at no one, it cancels its player's own curse.
    ctx.run(
        "its player's own curse cancelled out of combat when no one is named",
        {
            "players": [
                player("Hero", 4, in_play=["Validator Hex"], hand=[card.name]),
                player("Rival"),
            ],
            "steps": [{"play": card.name, "by": "Hero"}],
            "expect": {"not_in_play": {"Hero": ["Validator Hex"]}, "hand_sizes": {"Hero": 0}},
        },
        covers=[CancelCurse],
    )
    # With no curse on its target, there is nothing to cancel: refused, the card kept.
    ctx.run(
        "refused with no curse to cancel",
        {
            "players": [player("Hero", 4, hand=[card.name]), player("Rival")],
            "steps": [{"play": card.name, "by": "Hero", "on": "Hero"}],
            "expect": {"error": True, "hand_sizes": {"Hero": 1}},
        },
    )


COMBAT_CHECKS: dict[type[EffectBase], PlayedCheck] = {
    DoubleStrength: _double_strength_check,
    AutomaticEscape: _automatic_escape_check,
    Strength: lambda ctx, card, e: (
        _strength_per_check(ctx, card, e) if e.per else strength_in_play_check(ctx, card, e)
    ),
    KillMonster: _kill_monster_check,
    TransferCombat: _transfer_check,
    ChangeDieRoll: _die_check,
    CancelEscape: _glue_check,
    CancelCurse: _cancel_curse_check,
}
