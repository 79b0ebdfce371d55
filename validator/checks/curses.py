"""Checks of curse cards: what a curse does when cast, on the victims like Bad Stuff; and its
lasting part, which stays in play with the victim and acts later (`LASTING_CHECKS`: a penalty in
the next combat, die rolls changed, bonuses only from one slot); and a Trap against a Secret
Identity (`_secret_identity_checks`).

Throwing cards away from the hand (`discard_from_hand`, a Trap's) is predicted here, from the
card's count and the hand the victim holds; what it adds when the hand is short is left to the
oracle's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from validator.checks.oracle import Victim, items_bonus, predict
from validator.checks.references import EQUIPMENT, ITEM_FACTS, OGRE, RAGE
from validator.checks.runner import (
    CheckContext,
    expect_values,
    is_predictable,
    kinds_of,
    player,
    table_matches,
    typing_literal,
    walk_effects,
)
from validator.checks.victims import (
    DOOM,
    DOOM_CARD,
    ENHANCER,
    ENHANCER_CARD,
    SHIP,
    SHIP_CARD,
    TABLE_OUTCOMES,
    Delivery,
    victim_runs,
)
from validator.engine import (
    CurseCard,
    Death,
    DieRolls,
    DiscardFromHand,
    EffectBase,
    OnlySlotBonuses,
    OutcomeBase,
    Strength,
)


def _curse_delivery(card: CurseCard) -> Delivery:
    def deliver(
        players: list[dict[str, Any]], before: list[dict[str, Any]], die: int
    ) -> dict[str, Any]:
        hero = {**players[0], "hand": [card.name, *players[0].get("hand", [])]}
        return {
            "players": [hero, *players[1:]],
            "steps": [*before, {"play": card.name, "by": "Hero", "on": "Hero"}],
            "dice": [die],
        }

    return deliver


def _hand_discard_known(effect: EffectBase) -> bool:
    """A `discard_from_hand` this module predicts: unconditional, and whatever a short hand
    adds is an outcome the oracle predicts."""
    return (
        isinstance(effect, DiscardFromHand)
        and effect.when is None
        and not effect.otherwise
        and all(is_predictable(e) for e in effect.if_fewer or ())
    )


def _known(effect: EffectBase) -> bool:
    return is_predictable(effect) or _hand_discard_known(effect)


def predict_discard_from_hand(effect: DiscardFromHand, victim: Victim, die: int) -> list[Victim]:
    """The victim throws away `count` cards, any mix of Treasures and Doors they like; holding
    fewer, all of them, and then what the card adds for a short hand."""
    held = victim.hand + victim.doors
    thrown = min(effect.count, held)
    options = []
    for treasures in range(max(0, thrown - victim.doors), min(thrown, victim.hand) + 1):
        after = victim.copy()
        after.hand -= treasures
        after.doors -= thrown - treasures
        options.append(after)
    if held >= effect.count or not effect.if_fewer:
        return options
    return [state for option in options for state in predict(effect.if_fewer, option, die)]


def _predict_cast(outcomes: Sequence[EffectBase], victim: Victim, die: int) -> list[Victim]:
    """`predict`, with this module's rule for throwing cards away from the hand."""
    states = [victim.copy()]
    for effect in outcomes:
        found: dict[tuple[Any, ...], Victim] = {}
        for state in states:
            if state.dead:
                after = [state]
            elif isinstance(effect, DiscardFromHand) and _hand_discard_known(effect):
                after = predict_discard_from_hand(effect, state, die)
            else:
                after = predict([effect], state, die)
            for one in after:
                found.setdefault(one.key(), one)
        states = list(found.values())
    return states


def curse_checks(ctx: CheckContext, card: CurseCard) -> None:
    """A curse cast on the victims, its lasting part, and a Trap against a Secret Identity."""
    name = card.name
    outcomes: Sequence[EffectBase] = [e for e in card.effects if isinstance(e, OutcomeBase)]
    lasting = [e for e in card.effects if not isinstance(e, OutcomeBase)]
    if outcomes:
        predictable = all(_known(e) for e in outcomes)
        if not predictable:
            names = sorted({typing_literal(type(e)) for e in outcomes if not _known(e)})
            ctx.report.warn(
                f"the curse's {', '.join(names)} is run but its result is not predicted"
            )
        shown = [e for e in walk_effects(outcomes) if not isinstance(e, TABLE_OUTCOMES)]
        victim_runs(
            ctx,
            outcomes,
            lambda victim, die: _predict_cast(outcomes, victim, die),
            _curse_delivery(card),
            caught=False,
            pursued=1,
            dice=[3],
            label="cast",
            covers=kinds_of(shown) if predictable else [],
        )
        for effect in outcomes:
            if isinstance(effect, DiscardFromHand) and predictable:
                _hand_discard_runs(ctx, card, outcomes, effect)
        if predictable:
            _dead_victim_run(ctx, card, outcomes)
            _dead_with_ship_run(ctx, card, outcomes)
    if lasting:
        ctx.run(
            "its lasting part stays with the victim",
            {
                "players": [
                    player("Hero", 5, in_play=["Validator Helm"]),
                    player("Rival", 1, hand=[name]),
                ],
                "steps": [{"play": name, "by": "Rival", "on": "Hero"}],
                "expect": {"in_play": {"Hero": [name, "Validator Helm"]}},
            },
            expect_values(hand_sizes={"Rival": 0}),
        )
    if lasting:
        _ends_with_slot_checks(ctx, card)
    if card.kind_name == "trap":
        _secret_identity_checks(ctx, card)
    for effect in lasting:
        check = LASTING_CHECKS.get(type(effect))
        if check is not None:
            check(ctx, card, effect)


def _dead_victim_run(ctx: CheckContext, card: CurseCard, outcomes: Sequence[EffectBase]) -> None:
    """Cast by the Rival on a Hero it killed just before: the dead keep their Level, hold
    nothing (the Rival looted the Helm) and the curse finds nothing more to act on."""
    victim = Victim(5, ["Validator Helm"], 0, set())
    ctx.run(
        "cast on a victim killed just before",
        {
            "players": [
                player("Hero", 5, in_play=["Validator Helm"]),
                player("Rival", 1, hand=[DOOM, card.name]),
            ],
            "steps": [
                {"play": DOOM, "by": "Rival", "on": "Hero"},
                {"play": card.name, "by": "Rival", "on": "Hero"},
            ],
            "dice": [3],
            "cards": [DOOM_CARD],
        },
        table_matches(victim, _predict_cast([Death(type="death"), *outcomes], victim, 3)),
    )


def _dead_with_ship_run(ctx: CheckContext, card: CurseCard, outcomes: Sequence[EffectBase]) -> None:
    """As `_dead_victim_run`, the Hero having fitted an enhancer on their Ship (Munchkin
    Booty) first: the body holds the Helm, the Ship and the enhancer (the Rival loots one of
    the three), and none of them stays on the dead Hero's table."""
    ITEM_FACTS.setdefault(SHIP, SHIP_CARD)
    ITEM_FACTS.setdefault(ENHANCER, ENHANCER_CARD)
    items = ["Validator Helm", SHIP, ENHANCER]
    victim = Victim(5, items, 0, set())
    ctx.run(
        "cast on a victim killed just before, with an enhancer fitted on their Ship",
        {
            "players": [
                player("Hero", 5, in_play=["Validator Helm", SHIP], hand=[ENHANCER]),
                player("Rival", 1, hand=[DOOM, card.name]),
            ],
            "steps": [
                {"play": ENHANCER, "by": "Hero", "with": SHIP},
                {"play": DOOM, "by": "Rival", "on": "Hero"},
                {"play": card.name, "by": "Rival", "on": "Hero"},
            ],
            "dice": [3],
            "cards": [DOOM_CARD, SHIP_CARD, ENHANCER_CARD],
        },
        table_matches(victim, _predict_cast([Death(type="death"), *outcomes], victim, 3)),
    )


def _hand_discard_runs(
    ctx: CheckContext, card: CurseCard, outcomes: Sequence[EffectBase], effect: DiscardFromHand
) -> None:
    """Hands the four plain victims do not show: two cards more than the count, and one fewer,
    each a mix of Treasures and Doors (the victim may throw away either)."""
    deliver = _curse_delivery(card)
    for held in (effect.count + 2, effect.count - 1):
        if held < 1:
            continue
        doors = held // 2
        victim = Victim(5, [], held - doors, set(), doors=doors)
        hero = player(
            "Hero", 5, hand=["Validator Trinket"] * (held - doors) + ["Validator Door"] * doors
        )
        ctx.run(
            f"cast on a victim holding {held} cards",
            deliver([hero, player("Rival")], [], 3),
            table_matches(victim, _predict_cast(outcomes, victim, 3)),
            covers=kinds_of([effect]),
        )


def _cursed_fight(card: CurseCard, level: int, **hero: Any) -> dict[str, Any]:
    """The Rival curses the Hero in the middle of a fight with the Ogre."""
    return {
        "players": [player("Hero", level, **hero), player("Rival", 1, hand=[card.name, RAGE])],
        "combat": {"fighter": "Hero", "monsters": [OGRE]},
        "steps": [{"play": card.name, "by": "Rival", "on": "Hero"}],
    }


def _next_combat_penalty_check(ctx: CheckContext, card: CurseCard, effect: Strength) -> None:
    if effect.duration == "next_combat":
        ctx.run(
            "its penalty applies in the next combat",
            _cursed_fight(card, 5),
            expect_values(fighter_strength=5 + effect.amount),
            covers=[Strength],
        )


def _die_rolls_check(ctx: CheckContext, card: CurseCard, effect: DieRolls) -> None:
    # Running from the Enraged Ogre: the modified die must make 5. The dice either side of that
    # edge, each kept on the die's faces: a shift too large for one side still runs the other,
    # and the effect counts only when every run held.
    dice = sorted({min(6, max(1, 5 - effect.amount)), min(6, max(1, 4 - effect.amount))})
    with ctx.together([DieRolls]):
        for die in dice:
            outcome = "escaped" if die + effect.amount >= 5 else "caught"
            document = _cursed_fight(card, 3)
            document["steps"] += [{"play": RAGE, "by": "Rival", "on": OGRE}, {"resolve": True}]
            document["dice"] = [die, 1, 1]
            ctx.run(f"a die of {die} {outcome}", document, expect_values(outcome=outcome))


def _only_slot_check(ctx: CheckContext, card: CurseCard, effect: OnlySlotBonuses) -> None:
    gear = [*EQUIPMENT, "Validator Gauntlet"]
    counted = items_bonus(i for i in gear if ITEM_FACTS[i]["slot"] == effect.slot)
    document = _cursed_fight(card, 5, in_play=gear)
    document["steps"].append({"resolve": True})
    # A "next combat" curse is spent with the fight it counted in.
    spent = effect.duration == "next_combat"
    document["expect"] = {"not_in_play" if spent else "in_play": {"Hero": [card.name]}}
    ctx.run(
        f"only {effect.slot} gives a bonus",
        document,
        expect_values(fighter_strength=5 + counted),
        covers=[OnlySlotBonuses],
    )


LASTING_CHECKS: dict[type[EffectBase], Callable[[CheckContext, CurseCard, Any], None]] = {
    Strength: _next_combat_penalty_check,
    DieRolls: _die_rolls_check,
    OnlySlotBonuses: _only_slot_check,
}


def _slot_loss_card(slot: str) -> dict[str, Any]:
    """A plain curse that takes the victim's item of one slot, given inline."""
    return {
        "name": f"Validator {slot.replace('_', ' ').title()} Loss",
        "deck": "door",
        "kind": "curse",
        "effects": [{"type": "lose_items", "slot": slot}],
        "encoding": {"status": "full"},
    }


def _ends_with_slot_checks(ctx: CheckContext, card: CurseCard) -> None:
    """A lasting curse that ends with an item of a slot (Chicken on Your Head and the Headgear)
    leaves when a curse takes the victim's item of that slot, and stays when one of another
    slot is taken."""
    slot = card.ends_with_slot
    if slot is None:
        return
    own = next((i for i in EQUIPMENT if ITEM_FACTS[i]["slot"] == slot), None)
    other = next((i for i in EQUIPMENT if ITEM_FACTS[i]["slot"] != slot), None)
    if own is None or other is None:
        return
    for lost, stays in ((own, False), (other, True)):
        loss = _slot_loss_card(ITEM_FACTS[lost]["slot"])
        # The taken item is gone either way; the curse is in play only when it stays.
        gone = [lost] if stays else [lost, card.name]
        kept = {"in_play": {"Hero": [card.name]}} if stays else {}
        ctx.run(
            f"it {'stays when' if stays else 'goes when'} the {lost} is taken",
            {
                "players": [
                    player("Hero", 5, in_play=[own, other]),
                    player("Rival", 1, hand=[card.name, loss["name"]]),
                ],
                "steps": [
                    {"play": card.name, "by": "Rival", "on": "Hero"},
                    {"play": loss["name"], "by": "Rival", "on": "Hero"},
                ],
                "dice": [3, 3],
                "cards": [loss],
                "expect": {**kept, "not_in_play": {"Hero": gone}},
            },
        )


# Super Munchkin's Secret Identity, on a Power of Rank 1 with nothing else to it.
MASK = "Validator Mask"
MASK_DOCUMENT: dict[str, Any] = {
    "name": MASK,
    "deck": "door",
    "kind": "power",
    "rank": 1,
    "effects": [{"type": "meta_ability", "ability": "secret_identity"}],
    "encoding": {"status": "full"},
}


def _secret_identity_checks(ctx: CheckContext, card: CurseCard) -> None:
    """Super Munchkin, Secret Identity: a Trap that would hit its owner is rolled against once;
    on a 1 to 3 it misses (the victim, wearing every reference item with two cards in his hand,
    keeps them all and his Level, and the Trap is discarded); on a 6 it hits and the Secret
    Identity card is lost as well."""
    hand = ["Validator Door"] * 2
    wearer = player("Hero", 4, in_play=[MASK, *EQUIPMENT], hand=hand)
    for label, roll, expect in (
        (
            "a Trap misses a Secret Identity on a roll of 3",
            3,
            {
                "levels": {"Hero": 4},
                "in_play": {"Hero": [MASK, *EQUIPMENT]},
                "not_in_play": {"Hero": [card.name]},
                "hand_sizes": {"Hero": len(hand), "Rival": 0},
            },
        ),
        (
            "a Trap hits a Secret Identity on a roll of 6, which is lost",
            6,
            {"not_in_play": {"Hero": [MASK]}, "hand_sizes": {"Rival": 0}},
        ),
    ):
        ctx.run(
            label,
            {
                "cards": [MASK_DOCUMENT],
                "players": [wearer, player("Rival", 1, hand=[card.name])],
                "steps": [{"play": card.name, "by": "Rival", "on": "Hero"}],
                "dice": [roll],
                "expect": expect,
            },
        )
