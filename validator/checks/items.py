"""Checks of item cards: equipped by an allowed character and its bonus counted in combat (a
bonus for a trait it does not require tried with the trait and without); refused to characters
it does not allow or forbids; when it comes into play and is set aside
(`_equipment_change_checks`); the slot, hands and Big limits; trading it from the table
(`_trade_checks`); Run Away bonuses; and its other effects (`ITEM_EFFECT_CHECKS`: curse
immunity, an escape bought by throwing it away, forced help).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from validator.checks.references import (
    OGRE,
    RAGE,
    level_cases,
    level_monster,
    stand_in_monster,
    traits_of,
)
from validator.checks.runner import (
    CheckContext,
    expect_caught,
    expect_values,
    player,
    trait_names,
)
from validator.checks.trading import COMPANIONS, SAILS, SLOOP, inline, trade_limit_checks
from validator.engine import (
    AfterEscape,
    AutomaticEscape,
    AxisCondition,
    ConditionBase,
    CurseImmunity,
    DrawTreasures,
    EffectBase,
    ForceHelp,
    ItemCard,
    MonsterLevelIn,
    RunAway,
    Strength,
)


def item_checks(ctx: CheckContext, card: ItemCard) -> None:
    """An item equipped or refused, its bonus and other effects, then traded and sold."""
    name = card.name
    allowed_traits = traits_of([card.usable_by]) if card.usable_by else set()
    forbidden_traits = traits_of([card.not_usable_by]) if card.not_usable_by else set()
    sex = None
    for condition in (card.usable_by,):
        if condition is not None and condition.key == "sex":
            sex = getattr(condition, "sex", None)
    allowed = player(
        "Hero",
        3,
        hand=[name],
        in_play=trait_names(list(allowed_traits)[:1]),
        **({"sex": sex} if sex else {}),
    )
    bonus_extra = sum(
        e.amount
        for e in card.effects
        if isinstance(e, Strength)
        and e.per is None
        and (
            e.when is None
            or (
                isinstance(e.when, AxisCondition)
                and (e.when.axis, e.when.trait()) in allowed_traits
            )
        )
    )
    if card.slot is not None and (not card.usable_by or allowed_traits or sex):
        strength = 3 + (card.bonus or 0) + bonus_extra
        values = ctx.run(
            "equipped by an allowed character",
            {
                "players": [allowed, player("Rival")],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"equipped": {"Hero": [name]}},
            },
            covers=["equip"],
        )
        if values is not None:
            ctx.run(
                "its bonus counts in combat",
                {
                    "players": [
                        player(
                            "Hero",
                            3,
                            in_play=allowed["in_play"] + [name],
                            **({"sex": sex} if sex else {}),
                        ),
                        player("Rival"),
                    ],
                    "combat": {"fighter": "Hero", "monsters": [OGRE]},
                },
                expect_values(fighter_strength=strength),
                covers=["bonus"] + ([Strength] if bonus_extra else []),
            )
            _trait_bonus_checks(ctx, card, allowed, strength)
            wearer = {**allowed, "in_play": [*allowed["in_play"], name], "hand": []}
            _equipment_change_checks(ctx, card, allowed, wearer)
            for effect in card.effects:
                check = ITEM_EFFECT_CHECKS.get(type(effect))
                if check is not None:
                    check(ctx, card, effect, wearer, strength)
    # Forbidden characters are refused.
    if card.usable_by is not None:
        other_sex = {"male": "female", "female": "male"}.get(sex or "", "male")
        outsider = (
            ["Validator Stranger"]
            if any(axis == "race" and trait == "human" for axis, trait in allowed_traits)
            else []
        )
        ctx.run(
            "refused to a character it does not allow",
            {
                "players": [
                    player("Hero", 3, hand=[name], sex=other_sex, in_play=outsider),
                    player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "usable only by"},
            },
            covers=["usable_by"],
        )
    if card.not_usable_by is not None and forbidden_traits:
        ctx.run(
            "refused to a character it forbids",
            {
                "players": [
                    player("Hero", 3, hand=[name], in_play=trait_names(list(forbidden_traits)[:1])),
                    player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "not usable by"},
            },
            covers=["not_usable_by"],
        )
    # Slot, hands and Big limits hold.
    same_slot = {
        "headgear": "Validator Helm",
        "armor": "Validator Mail",
        "footgear": "Validator Boots",
        "two_hands": "Validator Ram",
    }.get(card.slot or "")
    table = allowed.get("in_play", [])
    if same_slot and not card.big and (not card.usable_by or allowed_traits or sex):
        ctx.run(
            "a second item in the same slot is refused",
            {
                "players": [
                    player(
                        "Hero",
                        3,
                        hand=[name],
                        in_play=[*table, same_slot],
                        **({"sex": sex} if sex else {}),
                    ),
                    player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "hand" if card.slot == "two_hands" else "equipped"},
            },
            covers=["slot"],
        )
    if card.slot == "one_hand" and (not card.usable_by or allowed_traits or sex):
        ctx.run(
            "a third hand is refused",
            {
                "players": [
                    player(
                        "Hero",
                        3,
                        hand=[name],
                        in_play=[*table, "Validator Sword", "Validator Buckler"],
                        **({"sex": sex} if sex else {}),
                    ),
                    player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "hand"},
            },
            covers=["slot"],
        )
    if card.big:
        ctx.run(
            "a second Big item is refused",
            {
                "players": [
                    player(
                        "Hero",
                        3,
                        hand=[name],
                        in_play=[*table, "Validator Cart"],
                        **({"sex": sex} if sex else {}),
                    ),
                    player("Rival"),
                ],
                "steps": [{"equip": name, "by": "Hero"}],
                "expect": {"error": "Big item"},
            },
            covers=["big"],
        )
    _trade_checks(ctx, card, allowed, sex)
    _sell_checks(ctx, card)
    for effect in card.effects:
        if isinstance(effect, RunAway) and effect.when is None and effect.per is None:
            needed = 5 - effect.amount
            if 1 <= needed <= 6:
                ctx.run(
                    f"{effect.amount:+d} to Run Away",
                    {
                        "players": [
                            player(
                                "Hero", 6, in_play=[*table, name], **({"sex": sex} if sex else {})
                            ),
                            player("Rival", 1, hand=[RAGE]),
                        ],
                        "combat": {"fighter": "Hero", "monsters": [OGRE]},
                        "steps": [
                            {"play": RAGE, "by": "Rival", "on": OGRE},
                            {"resolve": True},
                        ],
                        "dice": [needed],
                    },
                    expect_values(outcome="escaped"),
                    covers=[RunAway],
                )


JINX = "Validator Jinx"


def _curse_immunity_check(
    ctx: CheckContext, card: ItemCard, effect: CurseImmunity, wearer: dict[str, Any], strength: int
) -> None:
    # A curse (-1 level) from the wearer's own door passes it by; one a rival plays does not.
    passed = ctx.run(
        "a curse from its own door has no effect",
        {
            "players": [wearer, player("Rival")],
            "deck": {"door": [JINX]},
            "steps": [{"kick_door": "Hero"}],
            "expect": {"not_in_play": {"Hero": [JINX]}},
        },
        expect_values(levels={"Hero": 3}),
    )
    # Only its own power protects: beside a plain Helm it still does; carried (not worn), it
    # does not, and the Helm alone gives no protection either.
    helmed = {**wearer, "in_play": [*wearer["in_play"], "Validator Helm"]}
    ctx.run(
        "a curse from its own door has no effect beside a plain Helm",
        {
            "players": [helmed, player("Rival")],
            "deck": {"door": [JINX]},
            "steps": [{"kick_door": "Hero"}],
            "expect": {"not_in_play": {"Hero": [JINX]}},
        },
        expect_values(levels={"Hero": 3}),
    )
    carried = [n for n in wearer["in_play"] if n != card.name]
    ctx.run(
        "a curse from its own door hits while it is only carried",
        {
            "players": [
                {**wearer, "in_play": [*carried, "Validator Helm"], "carried": [card.name]},
                player("Rival"),
            ],
            "deck": {"door": [JINX]},
            "steps": [{"kick_door": "Hero"}],
        },
        expect_values(levels={"Hero": 2}),
    )
    if passed is not None:
        ctx.run(
            "a curse a rival plays still hits",
            {
                "players": [wearer, player("Rival", hand=[JINX])],
                "steps": [{"play": JINX, "by": "Rival", "on": "Hero"}],
            },
            expect_values(levels={"Hero": 2}),
            covers=[CurseImmunity],
        )


def _escape_item_check(
    ctx: CheckContext,
    card: ItemCard,
    effect: AutomaticEscape,
    wearer: dict[str, Any],
    strength: int,
) -> None:
    """Thrown away, it buys an escape without a roll from a monster its condition names (and
    is gone); from any other, the roll decides and it stays."""
    if not effect.discard_this:
        return
    with ctx.together([AutomaticEscape]):
        for monster, escapes in _monster_cases(effect.when):
            ctx.run(
                f"{'thrown to escape' if escapes else 'no help'} against {monster}",
                {
                    "players": [{**wearer, "level": 6}, player("Rival", hand=[RAGE])],
                    "combat": {"fighter": "Hero", "monsters": [monster]},
                    "steps": [{"play": RAGE, "by": "Rival", "on": monster}, {"resolve": True}],
                    "dice": [1, 1, 1],
                    "expect": {"not_in_play" if escapes else "in_play": {"Hero": [card.name]}},
                },
                expect_values(outcome="escaped") if escapes else expect_caught,
            )


def _monster_cases(condition: ConditionBase | None) -> list[tuple[str, bool]]:
    """Monsters for which a monster condition holds (True) and fails (False)."""
    if condition is None:
        return [(OGRE, True)]
    if isinstance(condition, MonsterLevelIn):
        return [(level_monster(level), holds) for level, holds in level_cases(condition)]
    stand_in = stand_in_monster(condition)
    return [(stand_in, True), (OGRE, False)] if stand_in else []


def force_help_check(
    ctx: CheckContext, card: ItemCard, effect: ForceHelp, wearer: dict[str, Any], strength: int
) -> None:
    """The wearer may force a rival to help, whose Level then counts with the wearer's
    strength (worked out from the card's facts); a plain character may not; never for the
    win, when the wearer's Level 9 is one kill from winning."""
    rival = player("Rival", 2)  # nothing in play: its strength is its Level
    fight = {"fighter": "Hero", "monsters": [OGRE]}
    forced = [{"help": "Rival", "forced": True}]
    with ctx.together([ForceHelp]):
        ctx.run(
            "forces a rival to help",
            {"players": [wearer, rival], "combat": fight, "steps": forced},
            expect_values(fighter_strength=strength + 2),
        )
        # Another item (the Helm, +1) forces no one: only a card that says so does.
        ctx.run(
            "nobody is forced without the card",
            {
                "players": [player("Hero", 3, in_play=["Validator Helm"]), rival],
                "combat": fight,
                "steps": forced,
                "expect": {"error": "forces", "fighter_strength": 4},
            },
        )
        forbidden = sorted(traits_of([card.not_usable_by]) if card.not_usable_by else [])
        if forbidden:
            # On the table of a character it forbids, it gives no bonus and forces no one.
            ctx.run(
                "a character it forbids forces no one",
                {
                    "players": [
                        player("Hero", 3, in_play=[*trait_names(forbidden[:1]), card.name]),
                        rival,
                    ],
                    "combat": fight,
                    "steps": forced,
                    "expect": {"error": "forces", "fighter_strength": 3},
                },
            )
        if not effect.helper_reward:
            # The helper made to help asks nothing: a share of the Treasure is refused.
            ctx.run(
                "a forced helper asks no reward",
                {
                    "players": [wearer, rival],
                    "combat": fight,
                    "steps": [{**forced[0], "treasures": 1}],
                    "expect": {"error": "no reward", "fighter_strength": strength},
                },
            )
        ctx.run(
            "never forced into a fight for the win",
            {
                "players": [{**wearer, "level": 9}, rival],
                "combat": fight,
                "steps": forced,
                "expect": {"error": "for the win", "fighter_strength": strength + 6},
            },
        )


def _after_escape_check(
    ctx: CheckContext, card: ItemCard, effect: AfterEscape, wearer: dict[str, Any], strength: int
) -> None:
    """Its wearer, losing to the raged Ogre, draws the reward's Treasures after getting away
    (a 6 on the die), and nothing when caught (a 1, unless the item's own Run Away bonus makes
    that an escape too). Only a reward of drawn Treasures, unconditional, is predicted."""
    draws = [e for e in effect.effects if isinstance(e, DrawTreasures) and e.when is None]
    if effect.when is not None or len(draws) != len(effect.effects):
        return
    count = sum(e.count for e in draws)
    runaway = sum(e.amount for e in card.effects if isinstance(e, RunAway) and e.when is None)

    def run(die: int) -> dict[str, Any]:
        return {
            "players": [{**wearer, "level": 1, "hand": []}, player("Rival", hand=[RAGE])],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": RAGE, "by": "Rival", "on": OGRE}, {"resolve": True}],
            "dice": [die],
        }

    with ctx.together([AfterEscape, DrawTreasures]):
        if 6 + runaway >= 5:
            ctx.run(
                f"draws {count} Treasure(s) after an escape",
                {**run(6), "expect": {"hand_sizes": {"Hero": count}}},
                expect_values(outcome="escaped"),
            )
        if 1 + runaway < 5:
            ctx.run(
                "nothing drawn when caught",
                {**run(1), "expect": {"hand_sizes": {"Hero": 0}}},
                expect_caught,
            )


# (context, card, effect, the wearer's player document, the wearer's predicted strength)
ITEM_EFFECT_CHECKS: dict[
    type[EffectBase], Callable[[CheckContext, ItemCard, Any, dict[str, Any], int], None]
] = {
    CurseImmunity: _curse_immunity_check,
    AutomaticEscape: _escape_item_check,
    ForceHelp: force_help_check,
    AfterEscape: _after_escape_check,
}


def _trait_bonus_checks(
    ctx: CheckContext, card: ItemCard, allowed: dict[str, Any], strength: int
) -> None:
    """A bonus for a trait the item does not require: tried with the trait, and without."""
    for effect in card.effects:
        if not (
            isinstance(effect, Strength)
            and effect.per is None
            and isinstance(effect.when, AxisCondition)
        ):
            continue
        trait = (effect.when.axis, effect.when.trait())
        if trait in traits_of([card.usable_by] if card.usable_by else []):
            continue  # already counted for the allowed character
        with ctx.together([Strength]):
            for traits in ([trait], []):
                hero = {
                    **allowed,
                    "in_play": allowed["in_play"] + trait_names(traits) + [card.name],
                }
                hero.pop("hand", None)
                ctx.run(
                    f"its {effect.amount:+d} {'with' if traits else 'without'} the trait",
                    {
                        "players": [hero, player("Rival")],
                        "combat": {"fighter": "Hero", "monsters": [OGRE]},
                    },
                    expect_values(fighter_strength=strength + (effect.amount if traits else 0)),
                )


# What fills a slot so that an item received for it cannot be equipped, only carried: the
# rules allow one item per body slot and two hands in all.
SLOT_FILLERS: dict[str, list[str]] = {
    "headgear": ["Validator Helm"],
    "armor": ["Validator Mail"],
    "footgear": ["Validator Boots"],
    "one_hand": ["Validator Sword", "Validator Buckler"],
    "two_hands": ["Validator Sword"],
}
TRINKET = "Validator Trinket"  # a Small item with no slot to fill: never in the way
CART = "Validator Cart"  # a Big item with no hands to take


def _trade_checks(
    ctx: CheckContext, card: ItemCard, allowed: dict[str, Any], sex: str | None
) -> None:
    """Trading it, as the rules of every set put it: Items on the table (never from the hand)
    change hands between two players, neither of them in combat (a fight elsewhere does not
    stop them), never with oneself; what is received stays in play (equipped when its new
    owner may use it, carried when its slot is taken); a player ends with at most one Big item,
    what he gives away no longer counted; and the limits of `trade_limit_checks` (Ships,
    followers, the dead)."""
    name = card.name
    traits = [n for n in allowed.get("in_play", []) if n != name]
    sexed: dict[str, Any] = {"sex": sex} if sex else {}
    owner = player("Hero", 3, in_play=[*traits, name], **sexed)

    def partner(*items: str) -> dict[str, Any]:
        # A rival who may use the item (the traits and sex it asks for), with these items.
        return player("Rival", 3, in_play=[*traits, *items], **sexed)

    # Given to a rival who may use it and has its slot free, it is equipped at once; a Small
    # item goes to a player who already has his Big one all the same.
    beside = TRINKET if card.big else CART
    received: dict[str, Any] = {
        "in_play": {"Rival": [name, beside]},
        "not_in_play": {"Hero": [name]},
    }
    if not card.usable_by or traits or sex:  # the rival has what it asks for
        received["equipped"] = {"Rival": [name]}
    ctx.run(
        "given away, it stays in play with its new owner"
        + ("" if card.big else ", beside his Big item"),
        {
            "players": [owner, partner(beside)],
            "steps": [{"give": [name], "by": "Hero", "to": "Rival"}],
            "expect": received,
        },
    )
    fillers = SLOT_FILLERS.get(card.slot or "")
    if fillers and not card.big:
        ctx.run(
            "given to a player whose slot is taken, it is carried",
            {
                "players": [owner, partner(*fillers)],
                "steps": [{"give": [name], "by": "Hero", "to": "Rival"}],
                "expect": {"carried": {"Rival": [name]}, "equipped": {"Rival": fillers}},
            },
        )
    # Swapped for a Big item when it is one: each side's old Big item no longer counts.
    swapped = CART if card.big else TRINKET
    ctx.run(
        f"traded for the rival's {swapped}",
        {
            "players": [owner, partner(swapped)],
            "steps": [{"give": [name], "by": "Hero", "to": "Rival", "take": [swapped]}],
            "expect": {
                "in_play": {"Hero": [swapped], "Rival": [name]},
                "not_in_play": {"Hero": [name], "Rival": [swapped]},
            },
        },
    )
    if card.big:
        ctx.run(
            "refused to a player who has a Big item",
            {
                "players": [owner, partner(CART)],
                "steps": [{"give": [name], "by": "Hero", "to": "Rival"}],
                "expect": {
                    "error": "Big item",
                    "in_play": {"Hero": [name]},
                    "not_in_play": {"Rival": [name]},
                },
            },
        )
    ctx.run(
        "refused to its own owner",
        {
            "players": [owner, partner()],
            "steps": [{"give": [name], "by": "Hero", "to": "Hero"}],
            "expect": {"error": "themselves", "in_play": {"Hero": [name]}},
        },
    )
    ctx.run(
        "refused from the hand, even in exchange",
        {
            "players": [player("Hero", 3, in_play=traits, hand=[name], **sexed), partner(TRINKET)],
            "steps": [{"give": [TRINKET], "by": "Rival", "to": "Hero", "take": [name]}],
            "expect": {
                "error": "on the table",
                "hand_sizes": {"Hero": 1},
                "in_play": {"Rival": [TRINKET]},
                "not_in_play": {"Rival": [name]},
            },
        },
    )
    for fighter in ("Hero", "Rival"):
        ctx.run(
            f"refused while the {'giver' if fighter == 'Hero' else 'receiver'} fights",
            {
                "players": [owner, partner()],
                "combat": {"fighter": fighter, "monsters": [OGRE]},
                "steps": [{"give": [name], "by": "Hero", "to": "Rival"}],
                "expect": {"error": "in combat", "in_play": {"Hero": [name]}},
            },
        )
    ctx.run(
        "traded by two players outside someone else's fight",
        {
            "players": [player("Fighter", 3), owner, partner()],
            "combat": {"fighter": "Fighter", "monsters": [OGRE]},
            "steps": [{"give": [name], "by": "Hero", "to": "Rival"}],
            "expect": {"in_play": {"Rival": [name]}, "not_in_play": {"Hero": [name]}},
        },
    )
    trade_limit_checks(ctx, name, owner, partner)


# Small, slot-taking items worth 200 Gold each (the reference set), to make up a sale.
SALE_FILLERS = [
    "Validator Helm",
    "Validator Mail",
    "Validator Boots",
    "Validator Sword",
    "Validator Buckler",
]
FILLER_GOLD = 200
WINNING_LEVEL = 10


def _sell_checks(ctx: CheckContext, card: ItemCard) -> None:
    """Selling it, as every set's rules put it: on one's own turn and out of combat, items from
    the hand or the table are discarded for a level per full 1,000 Gold (no change given, and
    never the level that wins the game); sold beside a Ship, the lot counts the Ship's fitted
    enhancer too. The item is never itself a Ship here (Ships are left out: their price counts
    what is fitted to them). A plain Human seller, so that no Halfling doubles a price."""
    gold = card.gold
    if not isinstance(gold, int) or gold <= 0 or card.slot == "ship":
        return
    name = card.name
    # Just enough 200-Gold fillers to reach 1,000: the levels are the total's full thousands.
    shortfall = max(0, 1000 - gold)
    fillers = SALE_FILLERS[: -(-shortfall // FILLER_GOLD)]
    levels = (gold + FILLER_GOLD * len(fillers)) // 1000
    if 3 + levels >= WINNING_LEVEL:
        return
    sold = [name, *fillers]
    ctx.run(
        "sold from the hand for a level per 1,000 Gold",
        {
            "players": [player("Hero", 3, hand=sold), player("Rival")],
            "steps": [{"sell": sold, "by": "Hero"}],
            "expect": {"levels": {"Hero": 3 + levels}, "hand_sizes": {"Hero": 0}},
        },
    )
    ctx.run(
        "sold from the table",
        {
            "players": [player("Hero", 3, in_play=[name], hand=fillers), player("Rival")],
            "steps": [{"sell": sold, "by": "Hero"}],
            "expect": {
                "levels": {"Hero": 3 + levels},
                "hand_sizes": {"Hero": 0},
                "not_in_play": {"Hero": [name]},
            },
        },
    )
    refusals: list[tuple[str, dict[str, Any], str | bool]] = [
        (
            "not sold on another's turn",
            {"players": [player("Rival", 3), player("Hero", 3, hand=sold)]},
            "own turn",
        ),
        (
            "not sold during its seller's fight",
            {
                "players": [player("Hero", 3, hand=sold), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
            },
            "combat",
        ),
        (
            "not sold for the winning level",
            {"players": [player("Hero", WINNING_LEVEL - levels, hand=sold), player("Rival")]},
            f"Level {WINNING_LEVEL}",
        ),
    ]
    for label, setup, error in refusals:
        seller = next(p for p in setup["players"] if p["name"] == "Hero")
        ctx.run(
            label,
            {
                **setup,
                "steps": [{"sell": sold, "by": "Hero"}],
                "expect": {
                    "error": error,
                    "levels": {"Hero": seller["level"]},
                    "hand_sizes": {"Hero": len(sold)},
                },
            },
        )
    if gold < 1000:
        # Alone it is short of 1,000 Gold, and no change is given: nothing is sold.
        ctx.run(
            "not sold alone for less than 1,000 Gold",
            {
                "players": [player("Hero", 3, hand=[name]), player("Rival")],
                "steps": [{"sell": [name], "by": "Hero"}],
                "expect": {"error": "1,000", "levels": {"Hero": 3}, "hand_sizes": {"Hero": 1}},
            },
        )
    # Sold beside a Ship (Booty), the Ship's price counts the enhancer fitted to it: the
    # Sloop's 400 Gold and the Sails' 200, made up to 1,000 with fillers as needed.
    ship_lot = COMPANIONS[SLOOP]["gold"] + COMPANIONS[SAILS]["gold"]
    ship_fillers = SALE_FILLERS[: -(-max(0, 1000 - gold - ship_lot) // FILLER_GOLD)]
    ship_levels = (gold + ship_lot + FILLER_GOLD * len(ship_fillers)) // 1000
    if 3 + ship_levels < WINNING_LEVEL:
        ctx.run(
            "sold with a Ship, whose price counts its fitted enhancer",
            {
                "cards": inline(SLOOP, SAILS),
                "players": [
                    player("Hero", 3, in_play=[SLOOP], hand=[SAILS, name, *ship_fillers]),
                    player("Rival"),
                ],
                "steps": [
                    {"play": SAILS, "by": "Hero", "with": SLOOP},
                    {"sell": [name, SLOOP, *ship_fillers], "by": "Hero"},
                ],
                "expect": {
                    "levels": {"Hero": 3 + ship_levels},
                    "hand_sizes": {"Hero": 0},
                    "not_in_play": {"Hero": [SLOOP, SAILS]},
                },
            },
        )
    # Only items are sold: a monster card in the lot stops the whole sale.
    ctx.run(
        "not sold along with a monster card",
        {
            "players": [player("Hero", 3, hand=[*sold, OGRE]), player("Rival")],
            "steps": [{"sell": [*sold, OGRE], "by": "Hero"}],
            "expect": {
                "error": "not an item",
                "levels": {"Hero": 3},
                "hand_sizes": {"Hero": len(sold) + 1},
            },
        },
    )


def _equipment_change_checks(
    ctx: CheckContext, card: ItemCard, allowed: dict[str, Any], wearer: dict[str, Any]
) -> None:
    """When it may come into play and change on its owner's table (core rules, "Treasures" and
    the actions allowed when): from the hand only (once on the table it is not played again),
    and only on its owner's own turn; equipped items are changed only out of combat, and only
    an equipped item can be set aside."""
    name = card.name
    ctx.run(
        "not put into play from the hand on another's turn",
        {
            "players": [player("Hero", 3), {**allowed, "name": "Rival"}],
            "steps": [{"play": name, "by": "Rival"}],
            "expect": {"error": True, "hand_sizes": {"Rival": 1}, "not_in_play": {"Rival": [name]}},
        },
    )
    # Equipped straight from the hand likewise: on its owner's turn, never in his fight.
    ctx.run(
        "not equipped from the hand on another's turn",
        {
            "players": [player("Hero", 3), {**allowed, "name": "Rival"}],
            "steps": [{"equip": name, "by": "Rival"}],
            "expect": {"error": "own turn", "hand_sizes": {"Rival": 1}},
        },
    )
    ctx.run(
        "not equipped from the hand in its owner's fight",
        {
            "players": [allowed, player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"equip": name, "by": "Hero"}],
            "expect": {"error": "combat", "hand_sizes": {"Hero": 1}},
        },
    )
    # Its owner puts items into play on his own turn, but not while he fights.
    ctx.run(
        "not put into play from the hand in its owner's fight",
        {
            "players": [allowed, player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {
                "error": "combat",
                "hand_sizes": {"Hero": 1},
                "not_in_play": {"Hero": [name]},
            },
        },
    )
    ctx.run(
        "not set aside in its wearer's fight",
        {
            "players": [wearer, player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE]},
            "steps": [{"unequip": name, "by": "Hero"}],
            "expect": {"error": "combat", "equipped": {"Hero": [name]}},
        },
    )
    ctx.run(
        "not played again once on the table",
        {
            "players": [wearer, player("Rival")],
            "steps": [{"play": name, "by": "Hero"}],
            "expect": {"error": True, "equipped": {"Hero": [name]}},
        },
    )
    carrier = {**wearer, "in_play": allowed["in_play"], "carried": [name]}
    ctx.run(
        "a carried item is not set aside again",
        {
            "players": [carrier, player("Rival")],
            "steps": [{"unequip": name, "by": "Hero"}],
            "expect": {"error": "not equipped", "carried": {"Hero": [name]}},
        },
    )
