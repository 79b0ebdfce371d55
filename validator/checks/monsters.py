"""Checks of monster cards: strength against a plain character and each conditional bonus both
ways; the kill's levels and Treasure, each extra with its condition holding and failing (the
fight arranged by `arrange_fight`); the monster's special rules (refusing a fight, being walked
past, chased off or bribed, no help, letting go of whoever throws it an item); running away at
the exact roll that escapes and one below, pursuit, and costs paid even on escape; and Bad
Stuff on the victims.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from validator.checks.oracle import (
    Seat,
    Victim,
    condition_holds,
    item_gold,
    items_bonus,
    kill_levels,
    predict,
)
from validator.checks.references import (
    EQUIPMENT,
    FAMINE,
    ITEM_FACTS,
    OGRE,
    RAGE,
    tag_token,
    traits_of,
)
from validator.checks.runner import (
    Accept,
    CheckContext,
    ended_without_kill,
    expect_caught,
    expect_values,
    is_predictable,
    kinds_of,
    player,
    table_matches,
    trait_names,
    typing_literal,
    walk_effects,
)
from validator.checks.victims import TABLE_OUTCOMES, Delivery, victim_runs
from validator.engine import (
    AllOf,
    AnyOf,
    AutomaticEscape,
    AxisCondition,
    BeforeCombat,
    BonusesUsed,
    Bribe,
    CannotEscape,
    ChaseAway,
    ConditionBase,
    EffectBase,
    EscapeByDiscard,
    ExtraLevels,
    ExtraTreasures,
    HelperPresent,
    IgnoreLevel,
    LevelIn,
    LevelOnly,
    MayDecline,
    MonsterCard,
    NoHelp,
    NoPursuit,
    NotCondition,
    OnEscape,
    RefusesCombat,
    Roll,
    RunAway,
    SexIs,
    Strength,
    UsedTag,
    Wearing,
)

# --------------------------------------------------------------------------------------------
# Arranging a fight so that a condition holds, or fails
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fight:
    """What the Hero brings to a fight: traits, sex, tagged items, a helper, bonuses."""

    traits: frozenset[tuple[str, str]] = frozenset()
    banned: frozenset[tuple[str, str]] = frozenset()
    sex: str | None = None
    tags: frozenset[str] = frozenset()
    no_tags: frozenset[str] = frozenset()
    helper: bool | None = None
    bonuses: bool | None = None
    worn: frozenset[str] = frozenset()  # slots the Hero wears an item in
    bare: frozenset[str] = frozenset()  # slots the Hero must wear nothing in

    def hero(self, level: int, gear: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
        tokens = [tag_token(tag) for tag in sorted(self.tags)]
        in_play = trait_names(sorted(self.traits)) + list(gear) + self.worn_items() + tokens
        return player("Hero", level, in_play=in_play, sex=self.sex or "male", **extra)

    def worn_items(self) -> list[str]:
        return [_worn_in(slot) for slot in sorted(self.worn)]


def _worn_in(slot: str) -> str:
    """A reference item of that slot (its slot read from the item's document)."""
    return next(n for n in EQUIPMENT if ITEM_FACTS[n]["slot"] == slot)


def arrange_fight(condition: ConditionBase, want: bool, fight: Fight | None = None) -> Fight | None:
    """A fight in which the condition holds (or fails, `want` False); None if none can be set."""
    fight = fight or Fight()
    if isinstance(condition, NotCondition):
        return arrange_fight(condition.not_, not want, fight)
    if isinstance(condition, AllOf | AnyOf):
        parts = condition.all if isinstance(condition, AllOf) else condition.any
        if want == isinstance(condition, AllOf):  # every part must go the same way
            arranged: Fight | None = fight
            for part in parts:
                arranged = arrange_fight(part, want, arranged) if arranged else None
            return arranged
        return next((f for f in (arrange_fight(p, want, fight) for p in parts) if f), None)
    if isinstance(condition, AxisCondition):
        trait = (condition.axis, condition.trait())
        if trait in (fight.banned if want else fight.traits):
            return None
        if want:
            return replace(fight, traits=fight.traits | {trait})
        return replace(fight, banned=fight.banned | {trait})
    if isinstance(condition, UsedTag):
        tag = condition.used_tag
        if tag in (fight.no_tags if want else fight.tags):
            return None
        if want:
            return replace(fight, tags=fight.tags | {tag})
        return replace(fight, no_tags=fight.no_tags | {tag})
    if isinstance(condition, Wearing):
        slot = condition.wearing
        if slot in (fight.bare if want else fight.worn):
            return None
        if want:
            if not any(ITEM_FACTS[n]["slot"] == slot for n in EQUIPMENT):
                return None
            return replace(fight, worn=fight.worn | {slot})
        return replace(fight, bare=fight.bare | {slot})
    settings: dict[str, Any] = {}
    if isinstance(condition, SexIs):
        settings["sex"] = condition.sex if want else {"male": "female"}.get(condition.sex, "male")
    elif isinstance(condition, BonusesUsed):
        settings["bonuses"] = condition.bonuses_used == want
    elif isinstance(condition, HelperPresent):
        settings["helper"] = condition.helper_present == want
    else:
        return None
    ((key, value),) = settings.items()
    if getattr(fight, key) not in (None, value):
        return None
    return replace(fight, **settings)


def fight_holds(condition: ConditionBase, fight: Fight, level: int) -> bool | None:
    """Whether the condition holds for the Hero in a fully arranged fight."""
    if isinstance(condition, NotCondition):
        inner = fight_holds(condition.not_, fight, level)
        return None if inner is None else not inner
    if isinstance(condition, AllOf | AnyOf):
        parts = condition.all if isinstance(condition, AllOf) else condition.any
        results = [fight_holds(p, fight, level) for p in parts]
        if None in results:
            return None
        return all(results) if isinstance(condition, AllOf) else any(results)
    if isinstance(condition, UsedTag):
        return condition.used_tag in fight.tags
    if isinstance(condition, BonusesUsed):
        return bool(fight.bonuses) == condition.bonuses_used
    if isinstance(condition, HelperPresent):
        return bool(fight.helper) == condition.helper_present
    hero = Victim(level, fight.worn_items(), 0, set(fight.traits), fight.sex or "male")
    return condition_holds(condition, hero)


# --------------------------------------------------------------------------------------------
# Checks of a monster
# --------------------------------------------------------------------------------------------


def _pursued_level(card: MonsterCard) -> int:
    """A Level the monster pursues."""
    return min(9, max([e.max_level + 1 for e in card.effects if isinstance(e, NoPursuit)] + [6]))


def monster_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """A monster's strength both ways, its kill, special rules, escapes and Bad Stuff."""
    name = card.name
    # A plain character (Level 1, male, Human, nothing in play) meets some conditions too
    # ("+4 against males", "+5 against anyone with no Class").
    plain_seat = Seat("Hero")
    holding = [condition_holds(e.when, plain_seat) for e in card.effects if isinstance(e, Strength)]
    base = (card.level or 0) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, Strength)
        and (e.when is None or condition_holds(e.when, plain_seat) is True)
    )
    plain = player("Hero", 1)
    if None in holding:
        ctx.report.warn("a strength condition cannot be predicted for a plain character")
    else:
        ctx.run(
            "strength against a plain character",
            {
                "players": [plain, player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [name]},
            },
            expect_values(monster_strength=base),
            covers=["monster"],
        )
    # Conditions tried both ways: each bonus applies when its condition holds, and only then.
    for effect in card.effects:
        if isinstance(effect, Strength) and effect.when is not None:
            strength_both_ways(ctx, card, effect)
            single_card_check(ctx, card, effect)
    _kill_checks(ctx, card)
    _help_checks(ctx, card, base)
    for effect in card.effects:
        check = MONSTER_EFFECT_CHECKS.get(type(effect))
        if check is not None:
            check(ctx, card, effect)
    _runaway_checks(ctx, card, base)
    _bad_stuff_checks(ctx, card)


def strength_both_ways(ctx: CheckContext, card: MonsterCard, effect: Strength) -> None:
    """The monster's strength against a Hero arranged so that the bonus's condition holds,
    then fails; every bonus of the card counted as its own condition goes for that Hero."""
    assert effect.when is not None
    with ctx.together([Strength]):
        for want in (True, False):
            fight = arrange_fight(effect.when, want)
            if fight is None or fight.helper is not None or fight.bonuses is not None:
                ctx.unexercised()  # not a condition a Hero alone can be arranged for
                continue
            holding = [
                e.when is None or fight_holds(e.when, fight, 1)
                for e in card.effects
                if isinstance(e, Strength)
            ]
            if None in holding:
                ctx.unexercised()
                continue
            bonuses = [e.amount for e in card.effects if isinstance(e, Strength)]
            strength = (card.level or 0) + sum(
                amount for amount, holds in zip(bonuses, holding, strict=True) if holds
            )
            ctx.run(
                f"{effect.amount:+d} when its condition {'holds' if want else 'fails'}",
                {
                    "players": [fight.hero(1), player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": [card.name]},
                },
                expect_values(monster_strength=strength),
            )


# The rule of Super Munchkin (Class), Half-Breed (Race), Bilingual (Accent) and Diverse
# Ecosystem (Species): with only one card of that axis, monsters get no bonus because of it, yet
# penalties against it still count (the core and SpongeBob rulebooks). The check brings its own
# such card, encoded as those are: room for one more card of the axis, on a card of it.
SUPER_AXES = ("class", "race", "accent", "species")


def _super_card(axis: str) -> dict[str, Any]:
    return {
        "name": f"Validator Super {axis.title()}",
        "deck": "door",
        "kind": "other_door",
        "effects": [{"type": "extra_character_card", "axis": axis, "count": 1, "needs_host": True}],
        "encoding": {"status": "full"},
    }


def single_card_check(ctx: CheckContext, card: MonsterCard, effect: Strength) -> None:
    """The monster's strength against a Hero with the one card its bonus names, made Super
    by a card that allows a second one: a bonus for that axis is dropped, a penalty kept."""
    when = effect.when
    if not isinstance(when, AxisCondition) or when.axis not in SUPER_AXES:
        return
    fight = arrange_fight(when, True)
    if fight is None:
        return
    strength = card.level or 0
    for other in (e for e in card.effects if isinstance(e, Strength)):
        holds = other.when is None or fight_holds(other.when, fight, 1)
        if holds is None:
            return
        same_axis = isinstance(other.when, AxisCondition) and other.when.axis == when.axis
        if holds and other.amount > 0 and other.when is not None and not same_axis:
            return  # a bonus through another axis: not the rule this check is about
        if holds and not (same_axis and other.amount > 0):
            strength += other.amount
    extra = _super_card(when.axis)
    ctx.run(
        f"{effect.amount:+d} against a Super {when.axis.title()} of one card "
        f"{'is kept' if effect.amount < 0 else 'is dropped'}",
        {
            "cards": [extra],
            "players": [fight.hero(1, [extra["name"]]), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
        },
        expect_values(monster_strength=strength),
    )


def _kill_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """Killing it pays its levels and Treasure, plus each extra whose condition holds: every
    conditional extra is tried with its condition holding and failing."""
    level_only = any(isinstance(e, LevelOnly) for e in card.effects)
    ignore_level = any(isinstance(e, IgnoreLevel) for e in card.effects)
    covers: list[type[EffectBase] | str] = ["kill"]
    covers += ["level_only"] if level_only else []
    covers += [IgnoreLevel] if ignore_level else []
    extras = [e for e in card.effects if isinstance(e, ExtraLevels | ExtraTreasures)]
    covers += [type(e) for e in extras if e.when is None]
    _kill_run(ctx, card, Fight(), "killing it pays levels and Treasure", covers)
    for extra in extras:
        if extra.when is None:
            continue
        what = "levels" if isinstance(extra, ExtraLevels) else "Treasures"
        fights = [(want, arrange_fight(extra.when, want)) for want in (True, False)]
        if any(fight is None for _, fight in fights):
            continue  # a side that cannot be staged leaves the extra unexercised
        # Exercised only when the kill was staged, and seen to pay, both ways.
        with ctx.together([type(extra)]):
            for want, fight in fights:
                label = f"the extra {what} when its condition {'holds' if want else 'fails'}"
                if fight is None or not _kill_run(ctx, card, fight, label, []):
                    ctx.unexercised()


def _kill_run(
    ctx: CheckContext,
    card: MonsterCard,
    fight: Fight,
    label: str,
    covers: list[type[EffectBase] | str],
) -> bool:
    """Stage a kill of the monster in this fight and run it; whether it was run and passed."""
    level_only = any(isinstance(e, LevelOnly) for e in card.effects)
    ignore_level = any(isinstance(e, IgnoreLevel) for e in card.effects)
    bonuses = (not level_only) if fight.bonuses is None else fight.bonuses
    fight = replace(fight, bonuses=bonuses, helper=bool(fight.helper))
    if bonuses and level_only:
        return False  # bonuses count for nothing here: a win "with bonuses" cannot be staged
    refusals = [e for e in card.effects if isinstance(e, RefusesCombat)]
    if any(e.when is None or fight_holds(e.when, fight, 1) is not False for e in refusals):
        return False  # it will not fight this Hero
    conditions = [e.when for e in card.effects if isinstance(e, Strength) and e.when]
    if any(fight_holds(c, fight, 1) is None for c in conditions):
        return False  # a bonus whose condition the checks cannot settle
    strength = (card.level or 0) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, Strength) and (e.when is None or fight_holds(e.when, fight, 1))
    )
    helper = 1 if fight.helper and not ignore_level else 0
    if fight.worn and not bonuses:
        return False  # what the Hero wears would be a bonus used
    gear = ["Validator Gauntlet"] if bonuses else []
    tolls = [e for e in card.effects if isinstance(e, BeforeCombat)]
    if tolls:
        gear.append("Validator Trinket")  # something cheap to give up before the fight
    level = 1 if bonuses else strength + 1 - helper
    if ignore_level and not bonuses:
        level = 0
    if not 1 <= level <= 9:
        ctx.report.warn(f"cannot stage a kill ({label}) with the Level and bonuses it allows")
        return False
    hero = Victim(level, gear + fight.worn_items(), 0, set(fight.traits), fight.sex or "male")
    paid = [
        o for t in tolls if t.when is None or fight_holds(t.when, fight, level) for o in t.effects
    ]
    # The Hero gives up what costs the fight least.
    best = max(predict(paid, hero, 3), key=lambda s: (items_bonus(s.items), s.level, len(s.items)))
    side = (
        (0 if ignore_level else best.level)
        + helper
        + (0 if level_only else items_bonus(best.items))
    )
    if side <= strength:
        ctx.report.warn(f"cannot stage a kill ({label}): {side} against {strength}")
        return False

    gained = kill_levels(card) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, ExtraLevels) and (e.when is None or fight_holds(e.when, fight, best.level))
    )
    treasures = _monster_treasures(card, fight, best.level)
    document = {
        "players": [fight.hero(level, gear), player("Rival")],
        "combat": {"fighter": "Hero", "monsters": [card.name]},
        "steps": [*([{"help": "Rival"}] if fight.helper else []), {"resolve": True}],
    }
    return (
        ctx.run(
            label,
            document,
            expect_values(
                outcome="won",
                fighter_strength=side,
                treasures_drawn=treasures,
                levels={"Hero": min(10, best.level + gained)},
            ),
            covers=covers,
        )
        is not None
    )


# Effects that change who fights, or how, beyond what the help checks stage.
_NOT_PLAIN = (LevelOnly, IgnoreLevel, RefusesCombat, BeforeCombat, NoHelp, MayDecline)


def _help_checks(ctx: CheckContext, card: MonsterCard, strength: int) -> None:
    """A plain kill with a helper, and the fight's own rules around it: the helper's Level
    counts, one Treasure goes to the helper as agreed and the rest to the fighter, face up;
    the fighter cannot help themself; an enhancer cannot take the Treasure below none. Only
    for a monster with nothing conditional (its rewards then follow from its stats alone)."""
    if any(isinstance(e, _NOT_PLAIN) or e.when is not None for e in card.effects):
        return
    if any(isinstance(e, ExtraLevels | ExtraTreasures | Strength) for e in card.effects):
        return
    if strength >= 33:
        return  # the Gauntlet (+30) and a Level 2 helper would not win
    name = card.name
    treasures = card.treasures or 0
    won = min(10, 1 + kill_levels(card))
    fight = {"fighter": "Hero", "monsters": [name]}
    hero = player("Hero", 1, in_play=["Validator Gauntlet"])
    players = [hero, player("Rival", 2)]
    with ctx.together(["help"]):
        ctx.run(
            "a helper's Level counts, and one Treasure is theirs",
            {
                "players": players,
                "combat": fight,
                "steps": [{"help": "Rival", "treasures": 1}, {"resolve": True}],
                "expect": {"treasures_face_up": True},
            },
            expect_values(
                outcome="won",
                fighter_strength=1 + 30 + 2,
                treasures_drawn=treasures,
                levels={"Hero": won, "Rival": 2},
                hand_sizes={"Hero": max(0, treasures - 1), "Rival": min(1, treasures)},
            ),
        )
        ctx.run(
            "the fighter cannot help themself",
            {
                "players": players,
                "combat": fight,
                "steps": [{"help": "Hero"}],
                "expect": {"error": "help", "fighter_strength": 31},
            },
        )
        ctx.run(
            "an enhancer takes its Treasure down to none, never below",
            {
                "players": [hero, player("Rival", 2, hand=[FAMINE])],
                "combat": fight,
                "steps": [{"play": FAMINE, "by": "Rival", "on": name}, {"resolve": True}],
            },
            expect_values(
                outcome="won", treasures_drawn=0, levels={"Hero": won}, hand_sizes={"Hero": 0}
            ),
        )


def _monster_treasures(card: MonsterCard, fight: Fight, level: int) -> int:
    return (card.treasures or 0) + sum(
        e.amount
        for e in card.effects
        if isinstance(e, ExtraTreasures) and (e.when is None or fight_holds(e.when, fight, level))
    )


def _ended_with_kill(level: int, treasures: int, hand: int) -> Accept:
    return expect_values(
        outcome="won", levels={"Hero": level}, treasures_drawn=treasures, hand_sizes={"Hero": hand}
    )


def _refusal_check(ctx: CheckContext, card: MonsterCard, effect: RefusesCombat) -> None:
    refused = Fight() if effect.when is None else arrange_fight(effect.when, True)
    if refused is None:
        return
    # Trading Treasure cards in leaves the hand as large as before.
    hand = ["Validator Trinket"] * effect.trade_treasures
    passed = ctx.run(
        "it will not fight a character it refuses",
        {
            "players": [refused.hero(1, hand=hand), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
        },
        ended_without_kill(1, effect.treasures, hand=len(hand) + effect.treasures),
    )
    if passed is None:
        return
    if effect.trade_treasures and effect.trade_from == "anywhere":
        # Treasures on the table may be traded too: with none in hand, the refused character
        # trades the Trinkets in play for as many new cards in hand.
        table = ["Validator Trinket"] * effect.trade_treasures
        ctx.run(
            "Treasures in play are traded in",
            {
                "players": [refused.hero(1, table, hand=[]), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [card.name]},
                "expect": {"not_in_play": {"Hero": ["Validator Trinket"]}},
            },
            ended_without_kill(1, effect.treasures, hand=effect.trade_treasures + effect.treasures),
        )
    if effect.when is None:
        # It refuses everyone: a Level 9 character too.
        ctx.run(
            "it refuses even a Level 9 character",
            {
                "players": [Fight().hero(9, hand=hand), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [card.name]},
            },
            ended_without_kill(9, effect.treasures, hand=len(hand) + effect.treasures),
            covers=[RefusesCombat],
        )
        return
    fought = arrange_fight(effect.when, False)
    if fought is None:
        return  # no fight it accepts can be staged: the refusal stays unexercised
    if effect.treasures:
        # Joining a fight with the Ogre (2 Treasures, 1 level), killed: what the refusal pays
        # comes too.
        ctx.run(
            "it leaves a fight it refuses; the other monster is killed",
            {
                "players": [refused.hero(1, ["Validator Gauntlet"], hand=hand), player("Rival")],
                "combat": {"fighter": "Hero", "monsters": [OGRE, card.name]},
                "steps": [{"resolve": True}],
            },
            _ended_with_kill(2, 2 + effect.treasures, hand=len(hand) + 2 + effect.treasures),
        )
    ctx.run(
        "it fights anyone else",
        {
            "players": [fought.hero(1), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
        },
        expect_values(outcome="none", treasures_drawn=0),
        covers=[RefusesCombat],
    )


def _decline_check(ctx: CheckContext, card: MonsterCard, effect: MayDecline) -> None:
    fight = {"fighter": "Hero", "monsters": [card.name]}
    steps = [{"decline": card.name, "by": "Hero"}]
    free = Fight() if effect.unless is None else arrange_fight(effect.unless, False)
    if free is None:
        return
    passed = ctx.run(
        "walking past it: no fight, no reward",
        {"players": [free.hero(1), player("Rival")], "combat": fight, "steps": steps},
        ended_without_kill(1, 0),
        covers=[MayDecline] if effect.unless is None else [],
    )
    bound = arrange_fight(effect.unless, True) if effect.unless is not None else None
    if bound is not None and passed is not None:
        ctx.run(
            "who must fight it cannot walk past",
            {
                "players": [bound.hero(1), player("Rival")],
                "combat": fight,
                "steps": steps,
                "expect": {"error": True, "outcome": "none"},
            },
            covers=[MayDecline],
        )


def _chase_check(ctx: CheckContext, card: MonsterCard, effect: ChaseAway) -> None:
    able, unable = arrange_fight(effect.by, True), arrange_fight(effect.by, False)
    if able is None or unable is None:
        return
    fight = {"fighter": "Hero", "monsters": [card.name]}
    steps = [{"chase": card.name, "by": "Hero"}]
    treasures = _monster_treasures(card, able, 1) if effect.treasures else 0
    passed = ctx.run(
        "driven off by whom the card names",
        {"players": [able.hero(1), player("Rival")], "combat": fight, "steps": steps},
        ended_without_kill(1, treasures),
    )
    if passed is not None:
        ctx.run(
            "no one else can drive it off",
            {
                "players": [unable.hero(1), player("Rival")],
                "combat": fight,
                "steps": steps,
                "expect": {"error": True, "outcome": "none"},
            },
            covers=[ChaseAway],
        )


def _bribe_check(ctx: CheckContext, card: MonsterCard, effect: Bribe) -> None:
    offers = ["Validator Trinket", "Validator Helm", "Validator Ram"]  # 0, 200 and 400 Gold
    enough = next((i for i in offers if item_gold(i) >= effect.min_gold), None)
    short = next((i for i in reversed(offers) if item_gold(i) < effect.min_gold), None)
    if enough is None:
        ctx.report.warn(f"no reference item is worth the {effect.min_gold} Gold of the bribe")
        return
    fight = {"fighter": "Hero", "monsters": [card.name]}
    passed = ctx.run(
        f"bribed with an item worth {item_gold(enough)}",
        {
            "players": [player("Hero", 1, in_play=[enough]), player("Rival")],
            "combat": fight,
            "steps": [{"bribe": enough, "by": "Hero"}],
            "expect": {"not_in_play": {"Hero": [enough]}},
        },
        ended_without_kill(1, 0),
        covers=[Bribe] if short is None else [],
    )
    if short is not None and passed is not None:
        ctx.run(
            f"an item worth {item_gold(short)} is refused",
            {
                "players": [player("Hero", 1, in_play=[short]), player("Rival")],
                "combat": fight,
                "steps": [{"bribe": short, "by": "Hero"}],
                "expect": {"error": True, "outcome": "none", "in_play": {"Hero": [short]}},
            },
            covers=[Bribe],
        )


def _no_help_check(ctx: CheckContext, card: MonsterCard, effect: NoHelp) -> None:
    ignore_level = any(isinstance(e, IgnoreLevel) for e in card.effects)
    ctx.run(
        "no one may help against it",
        {
            "players": [player("Hero", 1), player("Rival", 3)],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"help": "Rival"}],
            "expect": {"error": True},
        },
        expect_values(fighter_strength=0 if ignore_level else 1),
        covers=[NoHelp],
    )


def _escape_by_discard_check(ctx: CheckContext, card: MonsterCard, effect: EscapeByDiscard) -> None:
    level = _pursued_level(card)
    with ctx.together([EscapeByDiscard]):
        for tag in effect.tags:
            token = tag_token(tag)
            ctx.run(
                f"thrown a {tag} item, it lets you go",
                {
                    "players": [
                        player("Hero", level, in_play=[token]),
                        player("Rival", 1, hand=[RAGE]),
                    ],
                    "combat": {"fighter": "Hero", "monsters": [card.name]},
                    "steps": [{"play": RAGE, "by": "Rival", "on": card.name}, {"resolve": True}],
                    "dice": [1, 1, 1],
                    "expect": {"not_in_play": {"Hero": [token]}},
                },
                expect_values(outcome="escaped"),
            )


MONSTER_EFFECT_CHECKS: dict[type[EffectBase], Callable[[CheckContext, MonsterCard, Any], None]] = {
    RefusesCombat: _refusal_check,
    MayDecline: _decline_check,
    ChaseAway: _chase_check,
    Bribe: _bribe_check,
    NoHelp: _no_help_check,
    EscapeByDiscard: _escape_by_discard_check,
}


def _runaway_checks(ctx: CheckContext, card: MonsterCard, base: int) -> None:
    name = card.name
    fight = {"fighter": "Hero", "monsters": [name]}
    steps = [{"play": RAGE, "by": "Rival", "on": name}, {"resolve": True}]
    rival = player("Rival", 1, hand=[RAGE])
    if any(isinstance(e, AutomaticEscape) and e.when is None for e in card.effects):
        ctx.run(
            "escape is automatic",
            {"players": [player("Hero", 6), rival], "combat": fight, "steps": steps, "dice": [1]},
            expect_values(outcome="escaped"),
            covers=[AutomaticEscape],
        )
        return
    if any(isinstance(e, CannotEscape) for e in card.effects):
        ctx.run(
            "no one outruns it",
            {
                "players": [player("Hero", 6), rival],
                "combat": fight,
                "steps": steps,
                "dice": [6, 6, 6],
            },
            expect_caught,
            covers=[CannotEscape],
        )
        return
    modifier = sum(e.amount for e in card.effects if isinstance(e, RunAway))
    pursuit = [e for e in card.effects if isinstance(e, NoPursuit)]
    level = _pursued_level(card)
    # Wings (+1 each) bring a penalty beyond a die's reach back to a roll of 6.
    wings = ["Validator Wings"] * max(0, 5 - modifier - 6)
    needed = 5 - modifier - len(wings)
    runner = player("Hero", level, in_play=wings)
    if 1 <= needed <= 6:
        ctx.run(
            f"a roll of {needed} escapes ({modifier:+d})",
            {
                "players": [runner, rival],
                "combat": fight,
                "steps": steps,
                "dice": [needed, 1, 1, 1],
            },
            expect_values(outcome="escaped"),
            covers=[RunAway] if modifier else [],
        )
    if 2 <= needed <= 7:
        ctx.run(
            f"a roll of {needed - 1} is caught",
            {
                "players": [runner, rival],
                "combat": fight,
                "steps": steps,
                "dice": [needed - 1, 1, 1, 1],
            },
            expect_caught,
        )
    for effect in pursuit:
        if effect.unless is None:
            ctx.run(
                f"it does not pursue Level {effect.max_level}",
                {
                    "players": [player("Hero", effect.max_level), rival],
                    "combat": fight,
                    "steps": steps,
                    "dice": [1, 1, 1],
                },
                expect_values(outcome="escaped"),
                covers=[NoPursuit],
            )
        else:
            traits = traits_of([effect.unless])
            ctx.run(
                f"it does not pursue Level {effect.max_level}, unless...",
                {
                    "players": [player("Hero", effect.max_level), rival],
                    "combat": fight,
                    "steps": steps,
                    "dice": [1, 1, 1],
                },
                expect_values(outcome="escaped"),
            )
            if len(traits) == 1:
                ctx.run(
                    "...the exception is pursued",
                    {
                        "players": [
                            player("Hero", effect.max_level, in_play=trait_names(traits)),
                            rival,
                        ],
                        "combat": fight,
                        "steps": steps,
                        "dice": [1, 1, 1],
                    },
                    expect_caught,
                    covers=[NoPursuit],
                )
    for cost in card.effects:
        if isinstance(cost, OnEscape) and all(is_predictable(e) for e in cost.effects):
            escape_cost_check(ctx, card, cost, level)


def escape_cost_check(ctx: CheckContext, card: MonsterCard, cost: OnEscape, level: int) -> None:
    """A cost paid even on escape, tried at a Level where its condition holds and, if it has
    one, at a Level where it fails."""
    levels = [level]
    if isinstance(cost.when, LevelIn):
        # Both sides of each edge of the range: a Level just inside pays, just outside does not.
        low, high = cost.when.level.min, cost.when.level.max
        outside = low - 1 if low is not None and low > 1 else (high or 9) + 1
        edges = [low, low - 1] if low is not None else []
        edges += [high, high + 1] if high is not None else []
        levels = list(dict.fromkeys([level, outside, *edges]))
    elif cost.when is not None:
        return
    with ctx.together([OnEscape, *kinds_of(cost.effects)]):
        for runner in levels:
            if not 1 <= runner <= 9:
                continue
            # The Rival's Rage is played; the whole table is predicted, not only the Level.
            victim = Victim(runner, [], 0, set())
            holds = condition_holds(cost.when, victim)
            expected = predict(cost.effects, victim, 6) if holds else [victim]
            ctx.run(
                f"running at Level {runner} {'costs' if holds else 'costs nothing'} even on escape",
                {
                    "players": [player("Hero", runner), player("Rival", 1, hand=[RAGE])],
                    "combat": {"fighter": "Hero", "monsters": [card.name]},
                    "steps": [{"play": RAGE, "by": "Rival", "on": card.name}, {"resolve": True}],
                    "dice": [6, 6, 6],
                    "expect": {"outcome": "escaped"},
                },
                table_matches(victim, expected),
            )


def _bad_stuff_delivery(card: MonsterCard) -> Delivery:
    def deliver(
        players: list[dict[str, Any]], before: list[dict[str, Any]], die: int
    ) -> dict[str, Any]:
        hero = {**players[0], "hand": [RAGE, *players[0].get("hand", [])]}
        return {
            "players": [hero, *players[1:]],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [*before, {"play": RAGE, "by": "Hero", "on": card.name}, {"resolve": True}],
            "dice": [1, die, die, die],
        }

    return deliver


def _bad_stuff_checks(ctx: CheckContext, card: MonsterCard) -> None:
    effects = list(card.bad_stuff)
    if not effects:
        return
    if not all(is_predictable(e) for e in effects):
        names = sorted({typing_literal(type(e)) for e in effects if not is_predictable(e)})
        ctx.report.warn(f"Bad Stuff ({', '.join(names)}) is run but its result is not predicted")
    before = [o for e in card.effects if isinstance(e, BeforeCombat) for o in e.effects]
    costs = [e for e in card.effects if isinstance(e, OnEscape)]

    def predictor(victim: Victim, die: int) -> list[Victim]:
        states = predict(before + effects, victim, die)
        paid = [o for c in costs if condition_holds(c.when, victim) for o in c.effects]
        return [s for state in states for s in predict(paid, state, die)]

    escape_rules = [e for e in card.effects if isinstance(e, AutomaticEscape | NoPursuit)]
    pursued = 1 + max((getattr(e, "max_level", 99) for e in escape_rules), default=0)
    # Both ends of every range a Roll names: a face on either edge must count as inside it.
    dice = sorted(
        {
            face
            for e in walk_effects(effects)
            if isinstance(e, Roll)
            for o in e.outcomes
            for face in (o.min, o.max)
        }
    )
    shown = [e for e in walk_effects(before + effects) if not isinstance(e, TABLE_OUTCOMES)]
    covers: list[type[EffectBase] | str] = ["bad_stuff"]
    if all(is_predictable(e) for e in before + effects):
        covers += kinds_of(shown) + ([BeforeCombat] if before else [])
    victim_runs(
        ctx,
        effects,
        predictor,
        _bad_stuff_delivery(card),
        caught=True,
        pursued=pursued,
        dice=dice or [3],
        label="Bad Stuff",
        covers=covers,
    )
