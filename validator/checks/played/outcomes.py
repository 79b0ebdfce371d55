"""Outcomes a card brings for its user (at a table where there is something to take),
removals against two monsters, and a card that acts as soon as it is drawn."""

from __future__ import annotations

from collections.abc import Sequence

from validator.checks.oracle import Seat, Victim, predict
from validator.checks.played.shared import Source
from validator.checks.references import IMP, OGRE, STRANGER, traits_of
from validator.checks.runner import (
    CheckContext,
    conditions_of,
    expect_values,
    is_predictable,
    kinds_of,
    player,
    table_matches,
    trait_names,
    walk_effects,
)
from validator.checks.victims import DOOM, DOOM_CARD
from validator.engine import (
    CardBase,
    DrawTreasures,
    EffectBase,
    GainLevels,
    OutcomeBase,
    RemoveMonster,
    Roll,
    StealLevel,
    TakeFromDiscard,
)


def removal_check(
    ctx: CheckContext, source: Source, effect: RemoveMonster, outcomes: Sequence[OutcomeBase]
) -> None:
    """Against the Ogre and the Imp: the monsters removed leave without a kill (no level;
    their Treasure only if the effect says so); the others are fought as usual."""
    everyone = effect.count == "all" or int(effect.count) >= 2
    draws = [e for e in outcomes if isinstance(e, DrawTreasures)]
    only_draws = len(draws) == len(outcomes)  # other outcomes are not predicted here
    # A rival plays it when what it draws goes to the fighter, to show whose it is.
    by = (
        "Rival"
        if source.ability is None and any(e.recipient == "fighter" for e in draws)
        else "Hero"
    )
    hands = {"Hero": 0, "Rival": 0}
    for draw in draws:
        hands["Hero" if draw.recipient == "fighter" else by] += draw.count
    paid = 3 if everyone else 2  # the Ogre's 2 Treasures, and the Imp's 1 when it goes too
    treasures = (paid if effect.treasures else 0) + (0 if everyone else 1)
    hands["Hero"] += treasures
    user = player(by, 3, in_play=source.table(), hand=source.hand())
    players = [user, player("Rival")] if by == "Hero" else [player("Hero", 3), user]
    steps = [source.step(by, on=None if everyone else OGRE)]
    ctx.run(
        f"{source.label}: {'every monster leaves' if everyone else 'one monster leaves'}",
        {
            "players": players,
            "combat": {"fighter": "Hero", "monsters": [OGRE, IMP]},
            "steps": steps if everyone else [*steps, {"resolve": True}],
        },
        expect_values(
            outcome="won",
            levels={"Hero": 3 if everyone else 4},
            treasures_drawn=treasures,
            hand_sizes=hands if only_draws else {},
        ),
        covers=[RemoveMonster] + ([DrawTreasures] if only_draws else []),
    )
    if not everyone:
        # One monster of two, none named: the card cannot choose, so it is refused before
        # anything changes (the card still in hand, both monsters still there).
        ctx.run(
            f"{source.label}: refused when two monsters are there and none is named",
            {
                "players": players,
                "combat": {"fighter": "Hero", "monsters": [OGRE, IMP]},
                "steps": [source.step(by)],
                "expect": {"error": True, "hand_sizes": {by: len(source.hand())}},
            },
            expect_values(monster_strength=5 + 1),
        )


OUTCOME_TABLE = [Seat("Rival", 5, ["Validator Helm", "Validator Ram"]), Seat("Third", 4)]


def outcomes_check(
    ctx: CheckContext, source: Source, outcomes: Sequence[EffectBase], fight: bool = False
) -> None:
    """Outcomes for the player who uses the card, at a table where there is something to take:
    a rival with a Small and a Big item and a Level to spare, a Race card in the Door discards.
    A card that takes from one player is played on the lower one; a taken card is played (in a
    `fight`, where the Hero uses it while facing the Ogre, it is kept in the hand)."""
    walked = walk_effects(outcomes)
    target = "Third" if any(isinstance(e, StealLevel) for e in walked) else None
    takes = any(isinstance(e, TakeFromDiscard) for e in walked)
    play_taken = takes and not fight
    faces = sorted({o.min for e in walked if isinstance(e, Roll) for o in e.outcomes}) or [3]
    # A card that raises its user is also used at Level 9, where no card gives the winning level.
    raises = any(isinstance(e, GainLevels | StealLevel) for e in walked)
    for level in [3, 9] if raises and not fight else [3]:
        players = [
            player("Hero", level, in_play=source.table(), hand=source.hand()),
            player("Rival", 5, in_play=["Validator Stranger", *OUTCOME_TABLE[0].items]),
            player("Third", 4),
        ]
        steps = [
            {"discard_card": "Validator Stranger", "by": "Rival"},
            source.step(on=target),
            *([{"play": "Validator Stranger", "by": "Hero"}] if play_taken else []),
        ]
        for face in faces:
            victim = Victim(level, [], 0, set(), others=[s.copy() for s in OUTCOME_TABLE])
            victim.discard, victim.target = [STRANGER], target
            states = predict(outcomes, victim, face)
            for state in states:
                if play_taken and STRANGER not in state.discard:
                    state.doors -= 1  # the Race card taken is then played
                    state.traits.add(STRANGER)
            refused = level == 9 and target is not None
            if refused:
                # Taking a level at Level 9 would be the winning one: the card is refused, still
                # in the hand, and the table stays as it was.
                kept = victim.copy()
                if source.ability is None and source.card.deck == "treasure":
                    kept.hand += 1
                elif source.ability is None:
                    kept.doors += 1
                states = [kept]
            ctx.run(
                ("in a fight: " if fight else "")
                + f"{source.label}, die {face}"
                + (f", at Level {level}" if level != 3 else ""),
                {
                    "players": players,
                    **({"combat": {"fighter": "Hero", "monsters": [OGRE]}} if fight else {}),
                    "steps": steps,
                    "dice": [face],
                    **({"expect": {"error": "winning level"}} if refused else {}),
                },
                table_matches(victim, states),
                covers=kinds_of(outcomes) if all(is_predictable(e) for e in outcomes) else [],
            )
    if takes and not fight:
        # Both discard piles empty (no card discarded yet): there is nothing to take, and the
        # rest of the card acts as predicted.
        bare = Victim(3, [], 0, set(), others=[s.copy() for s in OUTCOME_TABLE])
        bare.target = target
        ctx.run(
            f"{source.label} with both discard piles empty",
            {
                "players": [
                    player("Hero", 3, in_play=source.table(), hand=source.hand()),
                    player("Rival", 5, in_play=OUTCOME_TABLE[0].items),
                    player("Third", 4),
                ],
                "steps": [source.step(on=target)],
                "dice": [faces[0]],
            },
            table_matches(bare, predict(outcomes, bare, faces[0])),
        )


def on_draw_check(ctx: CheckContext, card: CardBase, outcomes: Sequence[EffectBase]) -> None:
    """Drawn the usual way (kicking the door, or as a monster's Treasure), it acts at once on
    whoever draws it; two others have the traits its conditions name, one of them at Level 9.
    Kicked open, a third with those traits was killed just before: the dead cannot level up
    nor receive cards (core rules, Death), so nothing the card gives reaches them."""
    traits = traits_of(c for e in outcomes for c in conditions_of(e))
    others = [Seat("Rival", 4, traits=set(traits)), Seat("Third", 9, traits=set(traits))]
    players = [player(s.name, s.level, in_play=trait_names(traits)) for s in others]
    if card.deck == "door":
        fallen = Seat("Fallen", 5, traits=set(traits), dead=True)
        victim = Victim(3, [], 0, set(), others=[*others, fallen])
        document = {
            "players": [
                player("Hero", 3, hand=[DOOM]),
                *players,
                player(fallen.name, fallen.level, in_play=trait_names(traits)),
            ],
            "deck": {"door": [card.name]},
            "steps": [{"play": DOOM, "by": "Hero", "on": fallen.name}, {"kick_door": "Hero"}],
            "cards": [DOOM_CARD],
        }
    else:  # the first of the Ogre's 2 Treasures, after its level
        victim = Victim(4, ["Validator Gauntlet"], 1, set(), others=others)
        document = {
            "players": [player("Hero", 3, in_play=["Validator Gauntlet"]), *players],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "deck": {"treasure": [card.name]},
            "steps": [{"resolve": True}],
        }
    ctx.run(
        "it acts as soon as it is drawn",
        document,
        table_matches(victim, predict(outcomes, victim, 3)),
        covers=kinds_of(outcomes) if all(is_predictable(e) for e in outcomes) else [],
    )
    if card.deck == "treasure":
        _on_draw_by_helper_check(ctx, card, outcomes)
        if all(isinstance(e, DrawTreasures) for e in outcomes):
            _draws_past_the_deck_check(ctx, card)


def _draws_past_the_deck_check(ctx: CheckContext, card: CardBase) -> None:
    """Its draws run the Treasure deck out (every other Treasure of the table but one is in
    the Keeper's hand): the fighter gets the one left, and no more. Core rules, card
    management: an empty deck is made again from its discards, so the Ogre's second Treasure
    comes from the discards, where the card itself lies once it has acted (drawn again, it
    finds nothing left to draw); with no discards either, nothing is drawn."""
    treasures = [
        c.name for _, c in ctx.library.cards() if c.deck == "treasure" for _ in range(c.copies or 1)
    ]
    if treasures.count(card.name) != 1 or "Validator Gauntlet" not in treasures:
        return
    rest = [n for n in treasures if n not in (card.name, "Validator Gauntlet")]
    if not rest:
        return
    spare, kept = rest[0], rest[1:]
    ctx.run(
        "its draws run the Treasure deck out",
        {
            "players": [
                player("Hero", 3, in_play=["Validator Gauntlet"]),
                player("Keeper", 1, hand=kept),
            ],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "deck": {"treasure": [card.name, spare]},
            "steps": [{"resolve": True}],
        },
        expect_values(
            outcome="won", levels={"Hero": 4}, hand_sizes={"Hero": 1, "Keeper": len(kept)}
        ),
    )
    # The deck holds only the card, the rest but four in the Keeper's hand; the Hero sells
    # those four (1,000 Gold: a level) before kicking open the door to the Ogre. The Ogre's
    # second Treasure comes from the deck made again from the four sold, and the card's draws
    # take three of the other three: the Hero ends with four cards.
    sold = ["Validator Ram", "Validator Helm", "Validator Mail", "Validator Boots"]
    if not all(name in rest for name in sold):
        return
    kept = list(rest)
    for name in sold:
        kept.remove(name)
    ctx.run(
        "its draws after the deck was made again from the discards",
        {
            "players": [
                player("Hero", 3, in_play=["Validator Gauntlet", *sold]),
                player("Keeper", 1, hand=kept),
            ],
            "deck": {"treasure": [card.name], "door": [OGRE]},
            "steps": [{"sell": sold, "by": "Hero"}, {"kick_door": "Hero"}, {"resolve": True}],
        },
        expect_values(
            outcome="won", levels={"Hero": 5}, hand_sizes={"Hero": 4, "Keeper": len(kept)}
        ),
    )


def _on_draw_by_helper_check(
    ctx: CheckContext, card: CardBase, outcomes: Sequence[EffectBase]
) -> None:
    """Drawn by a helper as their share of the Ogre's Treasure (the helper was promised both,
    core rules, Asking for help): it acts on the helper who drew it, not on the fighter. The
    helper is the Hero here, the one whose table is predicted; the fighter gets a level and
    no card."""
    fighter = Seat("Fighter", 4, ["Validator Gauntlet"])
    victim = Victim(2, [], 1, set(), others=[fighter])  # the Ogre's second Treasure too
    ctx.run(
        "drawn by the helper, it acts for the helper",
        {
            "players": [
                player("Fighter", 3, in_play=["Validator Gauntlet"]),
                player("Hero", 2),
            ],
            "combat": {"fighter": "Fighter", "monsters": [OGRE]},
            "deck": {"treasure": [card.name]},
            "steps": [{"help": "Hero", "treasures": 2}, {"resolve": True}],
        },
        table_matches(victim, predict(outcomes, victim, 3)),
    )
