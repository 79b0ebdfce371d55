"""Checks of character cards (races, classes and the other character axes): their passive
effects (Run Away, winning ties, hand size, another Big item, levels for helping, selling at
double value) and their abilities with costs, conditions and targets, the effects an ability
brings checked as if the card were played (`played`).
"""

from __future__ import annotations

from typing import Any

from validator.checks.played import (
    Source,
    outcomes_check,
    removal_check,
    strength_in_play_check,
)
from validator.checks.references import (
    DRIFTER,
    OGRE,
    RAGE,
    TITAN,
    human_relic,
    relic_for,
    stand_in_monster,
    tag_token,
)
from validator.checks.runner import (
    CheckContext,
    Covers,
    expect_values,
    player,
    typing_literal,
)
from validator.engine import (
    Ability,
    CharacterCard,
    DrawFromDiscard,
    EquippedWithTag,
    ExtraBigItems,
    HandSize,
    OutcomeBase,
    RemoveMonster,
    RunAway,
    Strength,
    UseMonsterLevel,
    WinsTies,
)


def character_checks(ctx: CheckContext, card: CharacterCard) -> None:
    """A character card's passive effects and its abilities, each by its rule."""
    name = card.name
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    rage = [{"play": RAGE, "by": "Rival", "on": OGRE}, {"resolve": True}]
    for effect in card.effects:
        if isinstance(effect, RunAway) and effect.when is None and effect.per is None:
            needed = 5 - effect.amount
            ctx.run(
                f"{effect.amount:+d} to Run Away",
                {
                    "players": [
                        player("Hero", 6, in_play=[name]),
                        player("Rival", 1, hand=[RAGE]),
                    ],
                    "combat": fight,
                    "steps": rage,
                    "dice": [needed],
                },
                expect_values(outcome="escaped"),
            )
            if needed - 1 >= 1:
                ctx.run(
                    f"{effect.amount:+d} to Run Away, one short",
                    {
                        "players": [
                            player("Hero", 6, in_play=[name]),
                            player("Rival", 1, hand=[RAGE]),
                        ],
                        "combat": fight,
                        "steps": rage,
                        "dice": [needed - 1],
                    },
                    expect_values(outcome="caught"),
                    covers=[RunAway],
                )
        elif isinstance(effect, Strength) and effect.per is None:
            strength_in_play_check(ctx, card, effect)
        elif isinstance(effect, Strength) and isinstance(effect.per, EquippedWithTag):
            _strength_per_tagged_item_check(ctx, card, effect, effect.per.equipped_with_tag)
        elif isinstance(effect, WinsTies):
            ctx.run(
                "wins a tie",
                {
                    "players": [player("Hero", 5, in_play=[name]), player("Rival")],
                    "combat": fight,
                    "steps": [{"resolve": True}],
                },
                expect_values(outcome="won"),
                covers=[WinsTies],
            )
            # The card works for the side it helps (core rules, helping: a Warrior helper
            # wins ties): 3 + 2 against the Ogre's 5 is won.
            ctx.run(
                "a helper with it wins a tie",
                {
                    "players": [player("Hero", 3), player("Helper", 2, in_play=[name])],
                    "combat": fight,
                    "steps": [{"help": "Helper"}, {"resolve": True}],
                },
                expect_values(outcome="won", levels={"Hero": 4, "Helper": 2}),
            )
            # Only ties: one short of the monster is still lost. And a tie is won only by
            # the card in play: held in the hand, it wins nothing, and the tie is lost like
            # any other (core rules, combat: the monster wins ties). The die's 1 then fails
            # the escape.
            for label, level, in_play, hand in (
                ("one short of the monster is lost", 4, [name], []),
                ("a tie lost with the card in the hand", 5, [], [name]),
            ):
                ctx.run(
                    label,
                    {
                        "players": [
                            player("Hero", level, in_play=in_play, hand=hand),
                            player("Rival"),
                        ],
                        "combat": fight,
                        "steps": [{"resolve": True}],
                        "dice": [1],
                    },
                    expect_values(outcome="caught", levels={"Hero": level - 1}),
                )
        elif isinstance(effect, HandSize):
            ctx.run(
                f"keeps {effect.size} cards after charity",
                {
                    "players": [
                        player(
                            "Hero",
                            5,
                            in_play=[name],
                            hand=["Validator Trinket"] * (effect.size + 1),
                        ),
                        player("Rival", 1),
                    ],
                    "steps": [{"end_turn": True}],
                },
                expect_values(hand_sizes={"Hero": effect.size}),
                covers=[HandSize],
            )
            # The card over the limit goes to the lowest-Level player only (core rules,
            # Charity); a hand under the limit is kept whole.
            for label, held, kept, given in (
                ("charity to the lowest-Level player only", effect.size + 1, effect.size, 1),
                ("a hand under its limit kept whole", effect.size - 2, effect.size - 2, 0),
            ):
                ctx.run(
                    label,
                    {
                        "players": [
                            player("Hero", 5, in_play=[name], hand=["Validator Trinket"] * held),
                            player("Rival", 3),
                            player("Third", 1),
                        ],
                        "steps": [{"end_turn": True}],
                    },
                    expect_values(hand_sizes={"Hero": kept, "Rival": 0, "Third": given}),
                )
        elif isinstance(effect, ExtraBigItems):
            ctx.run(
                "carries another Big item",
                {
                    "players": [
                        player("Hero", 5, in_play=[name, "Validator Cart"], hand=["Validator Ram"]),
                        player("Rival"),
                    ],
                    "steps": [{"equip": "Validator Ram", "by": "Hero"}],
                    "expect": {"equipped": {"Hero": ["Validator Cart", "Validator Ram"]}},
                },
                covers=[ExtraBigItems],
            )
        elif typing_literal(type(effect)) == "helper_levels":
            ctx.run(
                "a helper gains a level per monster",
                {
                    "players": [
                        player("Hero", 3, in_play=["Validator Gauntlet"]),
                        player("Helper", 2, in_play=[name]),
                    ],
                    "combat": fight,
                    "steps": [{"help": "Helper"}, {"resolve": True}],
                },
                expect_values(levels={"Helper": 3, "Hero": 4}),
                covers=["helper_levels"],
            )
            # A level per monster slain: two monsters, two levels.
            ctx.run(
                "a helper gains a level for each of two monsters",
                {
                    "players": [
                        player("Hero", 3, in_play=["Validator Gauntlet"]),
                        player("Helper", 2, in_play=[name]),
                    ],
                    "combat": {"fighter": "Hero", "monsters": [OGRE, OGRE]},
                    "steps": [{"help": "Helper"}, {"resolve": True}],
                },
                expect_values(levels={"Helper": 4, "Hero": 5}),
            )
            # Help is given in a fight: with none going on, the offer is refused.
            ctx.run(
                "helping with no fight refused",
                {
                    "players": [player("Hero", 3), player("Helper", 2, in_play=[name])],
                    "steps": [{"help": "Helper"}],
                    "expect": {"error": True, "levels": {"Helper": 2}},
                },
            )
            # Only one player may help (core rules, combat): a second offer is refused, and
            # its Level is not added to the side (3 + 30 + 2).
            ctx.run(
                "a second helper refused",
                {
                    "players": [
                        player("Hero", 3, in_play=["Validator Gauntlet"]),
                        player("Helper", 2, in_play=[name]),
                        player("Third", 4),
                    ],
                    "combat": fight,
                    "steps": [{"help": "Helper"}, {"help": "Third"}],
                    "expect": {"error": True},
                },
                expect_values(fighter_strength=35),
            )
            _helper_win_checks(ctx, name, fight)
        elif typing_literal(type(effect)) == "sell_double":
            # 400 doubled + 200 makes the 1,000 that 600 alone would not.
            ctx.run(
                "sells one item at double value",
                {
                    "players": [
                        player("Hero", 3, in_play=[name], hand=["Validator Ram", "Validator Helm"]),
                        player("Rival"),
                    ],
                    "steps": [{"sell": ["Validator Ram", "Validator Helm"], "by": "Hero"}],
                },
                expect_values(levels={"Hero": 4}),
                covers=["sell_double"],
            )
    # A character card may be discarded at any time, even in a fight (core rules, Races and
    # Classes); an item is not got rid of that way (it is sold, traded or lost), and stays.
    ctx.run(
        f"{name} discarded in a fight",
        {
            "players": [player("Hero", 3, in_play=[name]), player("Rival")],
            "combat": fight,
            "steps": [{"discard_card": name, "by": "Hero"}],
            "expect": {"not_in_play": {"Hero": [name]}},
        },
    )
    relic = relic_for(card)
    if relic is not None:
        # An item only this card's character may use counts while the card is in play, and
        # its bonus stops the moment the card is discarded (core rules, Items: the Mace of
        # Sharpness counts only for someone who is a Cleric at the moment).
        ctx.run(
            f"an item only for {name} counts nothing once {name} is discarded",
            {
                "players": [player("Hero", 3, in_play=[name, relic]), player("Rival")],
                "combat": fight,
                "steps": [{"discard_card": name, "by": "Hero"}],
                "expect": {"in_play": {"Hero": [relic]}},
            },
            expect_values(fighter_strength=3, monster_strength=5),
        )
    if card.kind == "race" and name.casefold() != "human":
        # With no Race card, a character is Human (core rules, Race): an item only for
        # Humans is refused beside the card, and equipped once the card is discarded.
        human = human_relic()
        ctx.run(
            f"Human once {name} is discarded: an item only for Humans equipped",
            {
                "players": [player("Hero", 3, in_play=[name], hand=[human]), player("Rival")],
                "steps": [
                    {"discard_card": name, "by": "Hero"},
                    {"equip": human, "by": "Hero"},
                ],
                "expect": {"equipped": {"Hero": [human]}},
            },
        )
        ctx.run(
            f"an item only for Humans refused beside {name}",
            {
                "players": [player("Hero", 3, in_play=[name], hand=[human]), player("Rival")],
                "steps": [{"equip": human, "by": "Hero"}],
                "expect": {"error": True, "in_play": {"Hero": [name]}},
            },
        )
    ctx.run(
        "an item refused as a discarded character card",
        {
            "players": [player("Hero", 3, in_play=[name, "Validator Helm"]), player("Rival")],
            "steps": [{"discard_card": "Validator Helm", "by": "Hero"}],
            "expect": {"error": True, "in_play": {"Hero": [name, "Validator Helm"]}},
        },
    )
    if card.abilities:
        # An ability the card does not have is refused, nothing paid: Theft (which Super
        # Munchkin also grants without a card ability) when the card has none so named.
        missing = "no-such-ability" if any(a.slug == "theft" for a in card.abilities) else "theft"
        ctx.run(
            "an ability the card does not have refused",
            {
                "players": [
                    player("Hero", 3, in_play=[name], hand=["Validator Trinket"]),
                    player("Rival", in_play=["Validator Helm"]),
                ],
                "dice": [6],
                "steps": [
                    {
                        "use": name,
                        "ability": missing,
                        "by": "Hero",
                        "discard": ["Validator Trinket"],
                    }
                ],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Hero": 1},
                    "in_play": {"Rival": ["Validator Helm"]},
                },
            },
            expect_values(levels={"Hero": 3}),
        )
    if len(card.abilities) > 1:
        # A card of several abilities is told which one: unnamed, none is used, nothing paid.
        ctx.run(
            "an ability refused when not named, the card having several",
            {
                "players": [
                    player("Hero", 3, in_play=[name], hand=["Validator Trinket"]),
                    player("Rival"),
                ],
                "combat": fight,
                "steps": [{"use": name, "by": "Hero", "discard": ["Validator Trinket"]}],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
            expect_values(fighter_strength=3),
        )
    for ability in card.abilities:
        if any(isinstance(e, UseMonsterLevel) for e in ability.effects):
            _monster_level_checks(ctx, card, ability)
        strength = [e for e in ability.effects if isinstance(e, Strength)]
        run = [e for e in ability.effects if isinstance(e, RunAway)]
        discards = ability.cost.discard_up_to or ability.cost.discard if ability.cost else 0
        hand = ["Validator Trinket"] * max(discards, 1)
        monster = OGRE
        if strength and ability.target == "self" and ability.when is None and discards:
            total = sum(e.amount * (discards if e.per == "discarded_card" else 1) for e in strength)
            ctx.run(
                f"{ability.name} with {discards} discard(s)",
                {
                    "players": [player("Hero", 3, in_play=[name], hand=hand), player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [
                        {
                            "use": name,
                            "ability": ability.slug,
                            "by": "Hero",
                            "discard": hand[:discards],
                        }
                    ],
                },
                expect_values(
                    fighter_strength=3 + total, hand_sizes={"Hero": len(hand) - discards}
                ),
                covers=[Strength, "ability"],
            )
            # A bonus for the user names no monster, however many there are; a card's only
            # ability need not be named either.
            only = len(card.abilities) == 1
            ctx.run(
                f"{ability.name} against two monsters, none named"
                + (", nor the ability" if only else ""),
                {
                    "players": [player("Hero", 3, in_play=[name], hand=hand), player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [monster, monster]},
                    "steps": [
                        {
                            "use": name,
                            **({} if only else {"ability": ability.slug}),
                            "by": "Hero",
                            "discard": hand[:discards],
                        }
                    ],
                },
                expect_values(fighter_strength=3 + total, monster_strength=10),
            )
        elif strength and ability.when is not None:
            ctx.run(
                f"{ability.name} refused outside its condition",
                {
                    "players": [player("Hero", 3, in_play=[name], hand=hand), player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [
                        {"use": name, "ability": ability.slug, "by": "Hero", "discard": hand[:1]}
                    ],
                    "expect": {"error": "works only"},
                },
                covers=["ability_condition"],
            )
            _conditional_ability_check(ctx, card, ability, strength)
        elif strength and ability.target == "fighting_player":
            total = sum(e.amount for e in strength)
            ctx.run(
                f"{ability.name} on a fighting player",
                {
                    "players": [player("Hero", 3), player("Rival", 1, in_play=[name], hand=hand)],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [
                        {
                            "use": name,
                            "ability": ability.slug,
                            "by": "Rival",
                            "on": "Hero",
                            "discard": hand[: max(1, discards)],
                        }
                    ],
                },
                expect_values(fighter_strength=3 + total),
                covers=[Strength, "ability"],
            )
            # Named at no one it falls on the fighter; a player outside the fight is refused
            # (the cards kept).
            step = {"use": name, "ability": ability.slug, "by": "Rival"}
            paid = {"discard": hand[: max(1, discards)]}
            third = player("Third", 2)
            ctx.run(
                f"{ability.name} on the fighter when no one is named",
                {
                    "players": [player("Hero", 3), player("Rival", 1, in_play=[name], hand=hand)],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [{**step, **paid}],
                },
                expect_values(fighter_strength=3 + total),
            )
            ctx.run(
                f"{ability.name} refused on a player outside the fight",
                {
                    "players": [
                        player("Hero", 3),
                        player("Rival", 1, in_play=[name], hand=hand),
                        third,
                    ],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [{**step, "on": "Third", **paid}],
                    "expect": {"error": True, "hand_sizes": {"Rival": len(hand)}},
                },
                expect_values(fighter_strength=3),
            )
        elif run and discards:
            total = sum(e.amount * discards for e in run)
            needed = 5 - total
            # The roll the discards make just enough escapes; one below it (a face of the
            # die) is still caught.
            tries: list[tuple[int, str, str, Covers]] = [
                (max(1, needed), "escaped", "", [RunAway, "ability"])
            ]
            if needed - 1 >= 1:
                tries.append((needed - 1, "caught", ", one short", []))
            for die, outcome, short, covers in tries:
                ctx.run(
                    f"{ability.name} helps running away{short}",
                    {
                        "players": [
                            player("Hero", 6, in_play=[name], hand=hand),
                            player("Rival", 1, hand=[RAGE]),
                        ],
                        "combat": fight,
                        "steps": [
                            {"play": RAGE, "by": "Rival", "on": OGRE},
                            {
                                "use": name,
                                "ability": ability.slug,
                                "by": "Hero",
                                "discard": hand[:discards],
                            },
                            {"resolve": True},
                        ],
                        "dice": [die],
                    },
                    expect_values(outcome=outcome),
                    covers=covers,
                )
        _ability_effect_checks(ctx, card, ability)
        ability_refusals(ctx, card, ability)
        _ability_payments(ctx, card, ability)
        _per_victim_checks(ctx, card, ability)
        _removal_ends_the_fight_check(ctx, card, ability)


def _conditional_ability_check(
    ctx: CheckContext, card: CharacterCard, ability: Ability, strength: list[Strength]
) -> None:
    """A strength ability against a monster it names: used on a stand-in for that monster."""
    monster = stand_in_monster(ability.when) if ability.when is not None else None
    if monster is None or ability.target != "self":
        return
    source = Source(card, ability)
    discards = len(source.hand())
    total = sum(e.amount * (discards if e.per == "discarded_card" else 1) for e in strength)
    ctx.run(
        f"{ability.name} against {monster}",
        {
            "players": [
                player("Hero", 3, in_play=source.table(), hand=source.hand()),
                player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [monster]},
            "steps": [source.step()],
        },
        expect_values(fighter_strength=3 + total),
        covers=[Strength],
    )
    # The fight is against that monster while it is in it, another monster beside it or not.
    ctx.run(
        f"{ability.name} against {monster} and another monster",
        {
            "players": [
                player("Hero", 3, in_play=source.table(), hand=source.hand()),
                player("Rival"),
            ],
            "combat": {"fighter": "Hero", "monsters": [monster, OGRE]},
            "steps": [source.step()],
        },
        expect_values(fighter_strength=3 + total),
    )


def _ability_effect_checks(ctx: CheckContext, card: CharacterCard, ability: Ability) -> None:
    source = Source(card, ability)
    outcomes = [e for e in ability.effects if isinstance(e, OutcomeBase)]
    for effect in ability.effects:
        if isinstance(effect, RemoveMonster):
            removal_check(ctx, source, effect, outcomes)
        elif isinstance(effect, DrawFromDiscard):
            _draw_from_discard_check(ctx, source)
            _draw_before_paying_check(ctx, source)
    if outcomes and ability.timing not in ("combat", "running_away") and ability.target == "self":
        outcomes_check(ctx, source, outcomes)


def _draw_from_discard_check(ctx: CheckContext, source: Source) -> None:
    # The Door deck would give the Ogre (a fight); the top of the discards is a Race card,
    # which comes to the hand instead and can then be played.
    ctx.run(
        f"{source.label}: the top of the discards instead of a draw",
        {
            "players": [
                player("Hero", 3, in_play=source.table(), hand=source.hand()),
                player("Rival", in_play=["Validator Stranger"]),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"discard_card": "Validator Stranger", "by": "Rival"},
                source.step(),
                {"kick_door": "Hero"},
                {"play": "Validator Stranger", "by": "Hero"},
            ],
            "expect": {"in_play": {"Hero": ["Validator Stranger"]}, "outcome": "none"},
        },
        expect_values(hand_sizes={"Hero": 0}),
        covers=[DrawFromDiscard],
    )


def _draw_before_paying_check(ctx: CheckContext, source: Source) -> None:
    # Paid once the card is taken (the card's own order): a Door card paid for it does not
    # land on the Door discards first, so the Race card on top is still the one taken.
    ability = source.ability
    if ability is None or ability.timing != "on_draw" or ability.cost is None:
        return
    paid = ["Validator Door"] * (ability.cost.discard or 1)
    ctx.run(
        f"{source.label}: the top of the discards taken before the payment",
        {
            "players": [
                player("Hero", 3, in_play=source.table(), hand=paid),
                player("Rival", in_play=["Validator Stranger"]),
            ],
            "deck": {"door": [OGRE]},
            "steps": [
                {"discard_card": "Validator Stranger", "by": "Rival"},
                {
                    "use": source.card.name,
                    "ability": ability.slug,
                    "by": "Hero",
                    "discard": paid,
                },
                {"kick_door": "Hero"},
                {"play": "Validator Stranger", "by": "Hero"},
            ],
            "expect": {"in_play": {"Hero": ["Validator Stranger"]}, "outcome": "none"},
        },
        expect_values(hand_sizes={"Hero": 0}),
    )


def _removal_ends_the_fight_check(ctx: CheckContext, card: CharacterCard, ability: Ability) -> None:
    # The last monster sent away ends the fight at once (no resolve step): no level, and its
    # Treasure when the card says so (the Ogre's 2).
    removal = next((e for e in ability.effects if isinstance(e, RemoveMonster)), None)
    if removal is None or ability.timing != "combat" or ability.when is not None:
        return
    cost = ability.cost
    held = 1 if cost is None or cost.discard_hand else cost.discard or cost.discard_up_to or 1
    hand = ["Validator Trinket"] * held
    ctx.run(
        f"{ability.name} on the only monster ends the fight",
        {
            "players": [player("Hero", 3, in_play=[card.name], hand=hand), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "deck": {"treasure": ["Validator Helm", "Validator Mail"]},
            "steps": [
                {
                    "use": card.name,
                    "ability": ability.slug,
                    "by": "Hero",
                    "discard": [] if cost is not None and cost.discard_hand else hand,
                }
            ],
        },
        expect_values(
            outcome="won",
            levels={"Hero": 3},
            treasures_drawn=2 if removal.treasures else 0,
        ),
    )


def ability_refusals(ctx: CheckContext, card: CharacterCard, ability: Ability) -> None:
    """What the ability's card refuses, read from its cost, timing and limit: more discards
    than it takes, or fewer than it costs; use out of combat when it is for combat; a second
    use in one fight when it is once per combat. Each refusal leaves the hand as it was."""
    cost, name = ability.cost, card.name
    if cost is None or cost.discard_hand or ability.when is not None or ability.target != "self":
        return
    most = cost.discard_up_to or cost.discard
    if not most:
        return
    hand = ["Validator Trinket"] * (most + 2)
    fight = {"combat": {"fighter": "Hero", "monsters": [OGRE]}}
    in_combat = ability.timing in ("combat", "running_away")

    def use(discards: int) -> dict[str, Any]:
        return {"use": name, "ability": ability.slug, "by": "Hero", "discard": hand[:discards]}

    def refused(label: str, steps: list[dict[str, Any]], held: int, combat: bool) -> None:
        ctx.run(
            label,
            {
                "players": [player("Hero", 3, in_play=[name], hand=hand), player("Rival")],
                **(fight if combat else {}),
                "steps": steps,
                "expect": {"error": True, "hand_sizes": {"Hero": held}},
            },
        )

    with ctx.together(["ability_cost"]):
        refused(f"{ability.name} with {most + 1} discards", [use(most + 1)], len(hand), in_combat)
        if cost.discard and cost.discard > 1:
            refused(f"{ability.name} with 1 discard", [use(1)], len(hand), in_combat)
    if in_combat:
        refused(f"{ability.name} outside combat", [use(most)], len(hand), False)
    # Once per combat when the card says so, and for a combat ability paid "up to N" cards
    # with no limit stated: a second use would take it past its N discards in the fight.
    capped = ability.timing == "combat" and ability.limit is None and bool(cost.discard_up_to)
    if ability.limit == "once_per_combat" or capped:
        # The second use asks for a single discard, which the hand still has.
        second = 1 if cost.discard_up_to else most
        refused(
            f"{ability.name} twice in one fight", [use(most), use(second)], len(hand) - most, True
        )
    if ability.timing == "on_draw":
        # Used by its player about to kick open the door (own turn, no fight yet), and only
        # with a card in the Door discards to take.
        toss = {"discard_card": "Validator Stranger", "by": "Rival"}
        stranger = player("Rival", 1, in_play=["Validator Stranger"])
        for label, players, steps, combat in (
            (
                "on another player's turn",
                [
                    player("Hero", 3),
                    {**stranger, "in_play": ["Validator Stranger", name], "hand": hand},
                ],
                [toss, {**use(most), "by": "Rival"}],
                False,
            ),
            (
                "in a fight",
                [player("Hero", 3, in_play=[name], hand=hand), stranger],
                [toss, use(most)],
                True,
            ),
            (
                "with the Door discards empty",
                [player("Hero", 3, in_play=[name], hand=hand), player("Rival")],
                [use(most)],
                False,
            ),
        ):
            user = "Rival" if label.startswith("on another") else "Hero"
            ctx.run(
                f"{ability.name} refused {label}",
                {
                    "players": players,
                    **(fight if combat else {}),
                    "steps": steps,
                    "expect": {"error": True, "hand_sizes": {user: len(hand)}},
                },
            )
    if cost.discard_up_to:
        # "Up to N" still costs at least one card.
        refused(f"{ability.name} with no discard", [use(0)], len(hand), in_combat)
    if ability.timing == "outside_combat":
        refused(f"{ability.name} by a player in combat", [use(most)], len(hand), True)
    # A card's ability is its player's only while the card is in play.
    ctx.run(
        f"{ability.name} refused with {name} in the hand",
        {
            "players": [player("Hero", 3, hand=[name, *hand]), player("Rival")],
            **(fight if in_combat else {}),
            "steps": [use(most)],
            "expect": {"error": True, "hand_sizes": {"Hero": len(hand) + 1}},
        },
    )
    if cost.from_hand:
        # Paid from the hand: an item on the table is no payment, and stays. An on-draw
        # ability gets a card in the Door discards, so that only the payment is wrong.
        on_draw = ability.timing == "on_draw"
        ctx.run(
            f"{ability.name} refused paid from the table",
            {
                "players": [
                    player("Hero", 3, in_play=[name, "Validator Helm"], hand=hand),
                    player("Rival", in_play=["Validator Stranger"] if on_draw else []),
                ],
                **(fight if in_combat else {}),
                "steps": [
                    *([{"discard_card": "Validator Stranger", "by": "Rival"}] if on_draw else []),
                    {
                        "use": name,
                        "ability": ability.slug,
                        "by": "Hero",
                        "discard": ["Validator Helm", *hand[: most - 1]],
                    },
                ],
                "expect": {
                    "error": True,
                    "hand_sizes": {"Hero": len(hand)},
                    "in_play": {"Hero": ["Validator Helm"]},
                },
            },
        )


def _ability_payments(ctx: CheckContext, card: CharacterCard, ability: Ability) -> None:
    """What may pay for the ability. The rulebooks let any card in play or in the hand be
    discarded to power an ability, so another character card of the user's (a Race beside a
    Class) pays and leaves play; a cost of the whole hand is refused when the hand is empty."""
    cost, name = ability.cost, card.name
    if cost is None or ability.when is not None:
        return
    in_combat = ability.timing in ("combat", "running_away")
    fight = {"combat": {"fighter": "Hero", "monsters": [OGRE]}} if in_combat else {}
    if cost.discard_hand and ability.target in ("self", "monster"):
        ctx.run(
            f"{ability.name} refused with an empty hand",
            {
                "players": [player("Hero", 3, in_play=[name]), player("Rival")],
                **fight,
                "steps": [{"use": name, "ability": ability.slug, "by": "Hero"}],
                "expect": {"error": True},
            },
            expect_values(monster_strength=5) if in_combat else None,
        )
        return
    most = cost.discard_up_to or cost.discard
    if cost.discard_hand or cost.from_hand or not most or ability.target != "self":
        return
    # The card whose ability it is pays nothing: discarded, its ability is gone with it.
    ctx.run(
        f"{ability.name} refused paid with {name} itself",
        {
            "players": [
                player("Hero", 3, in_play=[name], hand=["Validator Trinket"] * most),
                player("Rival"),
            ],
            **fight,
            "steps": [
                {
                    "use": name,
                    "ability": ability.slug,
                    "by": "Hero",
                    "discard": [name, *["Validator Trinket"] * (most - 1)],
                }
            ],
            "dice": [6],
            "expect": {"error": True, "in_play": {"Hero": [name]}},
        },
        expect_values(hand_sizes={"Hero": most}),
    )
    # A character card of another axis than the card's, so both stay in play together.
    other = DRIFTER if card.kind == "race" else "Validator Stranger"
    hand = ["Validator Trinket"] * most
    ctx.run(
        f"{ability.name} paid with another character card in play",
        {
            "players": [player("Hero", 3, in_play=[name, other], hand=hand), player("Rival")],
            **fight,
            "steps": [
                {
                    "use": name,
                    "ability": ability.slug,
                    "by": "Hero",
                    "discard": [other, *hand[: most - 1]],
                }
            ],
            # A die for an ability that rolls: the top face, whatever it then does.
            "dice": [6],
            "expect": {"in_play": {"Hero": [name]}, "not_in_play": {"Hero": [other]}},
        },
        expect_values(hand_sizes={"Hero": len(hand) - (most - 1)}),
    )


def _per_victim_checks(ctx: CheckContext, card: CharacterCard, ability: Ability) -> None:
    """An ability limited to once per victim in a combat (Backstab) hits each player in the
    fight once: the fighter and the helper both, but the same one twice is refused."""
    if ability.limit != "once_per_victim_per_combat" or ability.target != "fighting_player":
        return
    strength = [e for e in ability.effects if isinstance(e, Strength)]
    cost = ability.cost
    per_use = max(1, (cost.discard or cost.discard_up_to) if cost else 0)
    if not strength or (cost is not None and (cost.discard_hand or cost.from_hand)):
        return
    total = sum(e.amount for e in strength)
    name = card.name
    hand = ["Validator Trinket"] * (2 * per_use)

    def use(on: str) -> dict[str, Any]:
        return {
            "use": name,
            "ability": ability.slug,
            "by": "Rival",
            "on": on,
            "discard": hand[:per_use],
        }

    players = [
        player("Hero", 3),
        player("Rival", 1, in_play=[name], hand=hand),
        player("Helper", 2),
    ]
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    ctx.run(
        f"{ability.name} on the fighter and on the helper",
        {
            "players": players,
            "combat": fight,
            "steps": [{"help": "Helper"}, use("Hero"), use("Helper")],
        },
        expect_values(fighter_strength=3 + 2 + 2 * total, hand_sizes={"Rival": 0}),
    )
    ctx.run(
        f"{ability.name} twice on the fighter refused",
        {
            "players": players,
            "combat": fight,
            "steps": [use("Hero"), use("Hero")],
            "expect": {"error": True, "hand_sizes": {"Rival": per_use}},
        },
        expect_values(fighter_strength=3 + total),
    )


def _helper_win_checks(ctx: CheckContext, name: str, fight: dict[str, Any]) -> None:
    """A helper's levels for helping never win the game (a win takes a kill of one's own),
    unless the table plays shared victories and the fighter wins by this kill: then the
    helper wins too, whatever the helper's Level (core rules, optional rules)."""
    shared = {"options": {"shared_victory": True}}
    for label, options, hero, helper, levels, winners in (
        ("a helper at Level 9 does not win by helping", {}, 9, 9, (10, 9), ["Hero"]),
        (
            "a shared victory: the helper wins with the fighter",
            shared,
            9,
            3,
            (10, 4),
            ["Hero", "Helper"],
        ),
        ("a shared victory needs the fighter's win", shared, 3, 9, (4, 9), []),
    ):
        ctx.run(
            label,
            {
                **options,
                "players": [
                    player("Hero", hero, in_play=["Validator Gauntlet"]),
                    player("Helper", helper, in_play=[name]),
                ],
                "combat": fight,
                "steps": [{"help": "Helper"}, {"resolve": True}],
            },
            expect_values(
                levels={"Hero": levels[0], "Helper": levels[1]}, winners=winners, outcome="won"
            ),
        )


def _strength_per_tagged_item_check(
    ctx: CheckContext, card: CharacterCard, effect: Strength, tag: str
) -> None:
    """A bonus per item of a tag in use (Knife Training: +3 per Knife): counted from the items
    the owner has equipped that carry the tag, so none without one, twice with two, and never
    for an item of another tag nor for one only carried. The tag's token has no bonus of its
    own; the Helm beside it adds its +1."""
    token = tag_token(tag)
    for label, equipped, carried, count in (
        ("no bonus without an item of its tag", [], [], 0),
        ("its bonus for each of two items of its tag", [token, token], [], 2),
        ("no bonus for an item of its tag only carried", [token], [token], 1),
    ):
        ctx.run(
            label,
            {
                "players": [
                    player(
                        "Hero", 2, in_play=[card.name, "Validator Helm", *equipped], carried=carried
                    ),
                    player("Rival"),
                ],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
            },
            expect_values(fighter_strength=2 + 1 + effect.amount * count, monster_strength=5),
            covers=[Strength],
        )


def _monster_level_checks(ctx: CheckContext, card: CharacterCard, ability: Ability) -> None:
    """An ability paid with a monster card from the hand whose Level the user then fights
    with in place of their own (the Exotic's Power Switch, its card's facts): the Level 12
    Titan makes a Level 3 Hero 12 strong against the Ogre; paid with a card that is no
    monster, or outside a fight, it is refused and nothing is paid."""
    step = {"use": card.name, "ability": ability.slug, "by": "Hero"}
    fight = {"combat": {"fighter": "Hero", "monsters": [OGRE]}}
    ctx.run(
        f"{ability.name}: the Level of a monster from the hand",
        {
            "players": [player("Hero", 3, in_play=[card.name], hand=[TITAN]), player("Rival")],
            **fight,
            "steps": [{**step, "discard": [TITAN]}],
        },
        expect_values(fighter_strength=12, hand_sizes={"Hero": 0}),
        covers=[UseMonsterLevel],
    )
    for label, hand, where in (
        ("refused paid with a card that is no monster", ["Validator Trinket"], fight),
        ("refused outside a fight", [TITAN], {}),
    ):
        ctx.run(
            f"{ability.name} {label}",
            {
                "players": [player("Hero", 3, in_play=[card.name], hand=hand), player("Rival")],
                **where,
                "steps": [{**step, "discard": hand}],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
        )
