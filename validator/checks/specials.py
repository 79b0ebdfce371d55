"""Rules a card meets beside other cards and players: checks run after a kind's own checks
(`monsters`, `one_shots`, `played`), each predicted from the card's facts and the rulebooks.

Monsters: who may use a special rule (only the fighter walks past or bribes, with an item from
the hand as well as the table; no one outside the fight chases it away), which monster a named
rule reaches beside the Ogre, and that a monster without such a rule is fought; a rule on the
Level that holds for the whole fight; a bonus for a named companion; death stopping the
running; Treasure cards traded in when it refuses a fight; an extra Treasure for the helper's
trait; extra levels despite a one-shot played for it; a tag used by way of a one-shot; no
looting after the fight; a kill with no Treasure left; running with Ships (Munchkin Booty).
One-shots: a bonus for one monster of two, a kill taking the enhancer along, the condition of
no helper, escapes undone or saved once, an escape only when played. Go Up a Level: a
condition on what is in play read by kind. Other cards: running from a Mate's pair; Super
Munchkin's leave to use a forbidden item.
"""

from __future__ import annotations

from typing import Any

from validator.checks.monsters import Fight, arrange_fight, fight_holds, monster_checks
from validator.checks.one_shots import level_card_checks, one_shot_checks
from validator.checks.oracle import item_gold, kill_levels
from validator.checks.played import played_checks
from validator.checks.references import (
    DROP,
    EQUIPMENT,
    GALLEON,
    IMP,
    OGRE,
    RAFT,
    RAGE,
    SEA_BOOTS,
    SHIP_SETS,
    SLOOP,
    WINGS,
    axis_card,
    condition_leaves,
    shunned_item,
    stand_in_monster,
    tagged_drop,
    title_case,
    traits_of,
)
from validator.checks.runner import (
    CheckContext,
    ended_without_kill,
    expect_values,
    player,
    trait_names,
)
from validator.checks.victims import ENHANCER, ENHANCER_CARD, SHIP, SHIP_CARD
from validator.engine import (
    AutomaticEscape,
    AxisCondition,
    BonusesUsed,
    Bribe,
    CancelEscape,
    CardBase,
    ChaseAway,
    Death,
    ExtraCharacterCard,
    ExtraLevels,
    ExtraTreasures,
    HasInPlay,
    HelperPresent,
    IgnoreLevel,
    InPlayAnywhere,
    KillMonster,
    LevelCard,
    LevelOnly,
    Mate,
    MayDecline,
    MonsterCard,
    MonsterNamed,
    NoHelp,
    NoPursuit,
    OneShotCard,
    RefusesCombat,
    RunAway,
    Strength,
    UsedTag,
)

# The reference items a bribe is tried with: 0, 200 and 400 Gold (their documents say so).
BRIBE_OFFERS = ["Validator Trinket", "Validator Helm", "Validator Ram"]


def played_and_mate_checks(ctx: CheckContext, card: CardBase) -> None:
    """A card played from the hand (`played`), then the running from a pair it makes."""
    played_checks(ctx, card)
    for mate in (e for e in card.effects if isinstance(e, Mate)):
        _mate_running_checks(ctx, card, mate)
    for extra in (e for e in card.effects if isinstance(e, ExtraCharacterCard)):
        _forbidden_item_check(ctx, card, extra)


def _forbidden_item_check(ctx: CheckContext, card: CardBase, effect: ExtraCharacterCard) -> None:
    """With Super Munchkin (Half-Breed) on one Class (Race), none of its drawbacks: an item
    forbidden to that Class may be equipped (core rules, Super Munchkin and Half-Breed)."""
    one = title_case(axis_card(effect.axis, 0)[1])
    shunned = shunned_item(effect.axis)
    ctx.run(
        "with one card, an item forbidden to it equipped",
        {
            "players": [
                player("Hero", 3, in_play=[one], hand=[card.name, shunned]),
                player("Rival"),
            ],
            "steps": [
                {"play": card.name, "by": "Hero"},
                {"equip": shunned, "by": "Hero"},
            ],
            "expect": {"equipped": {"Hero": [shunned]}},
        },
    )


def one_shot_and_special_checks(ctx: CheckContext, card: OneShotCard) -> None:
    """A one-shot's own checks (`one_shots`), then what it does beside other monsters and
    their enhancers."""
    one_shot_checks(ctx, card)
    kills = [e for e in card.effects if isinstance(e, KillMonster)]
    if card.bonus and card.side in ("either", "monster") and not kills:
        # Played for one of two monsters, its bonus is added to their total once (core
        # rules, one-shots: it makes a monster stronger, not every monster).
        ctx.run(
            "its bonus for one monster of two counts once",
            {
                "players": [player("Hero", 2), player("Rival", 1, hand=[card.name])],
                "combat": {"fighter": "Hero", "monsters": [OGRE, OGRE]},
                "steps": [{"play": card.name, "by": "Rival", "on": OGRE}],
            },
            expect_values(monster_strength=5 + 5 + card.bonus),
        )
    for kill in kills:
        _enraged_kill_check(ctx, card, kill)
    for effect in card.effects:
        if isinstance(effect, CancelEscape):
            _glue_checks(ctx, card)
        if isinstance(effect, AutomaticEscape) and effect.timing == "after_failed_roll":
            _after_failed_roll_check(ctx, card)
        if isinstance(effect, AutomaticEscape) and effect.timing == "instead_of_roll":
            _carried_escape_check(ctx, card)
    if any(e.when == HelperPresent(helper_present=False) for e in card.effects):
        # For a fighter with no helper only (Doppleganger): with a helper it is refused and
        # kept, the side's strength the two Levels.
        ctx.run(
            "refused to a fighter with a helper",
            {
                "players": [player("Hero", 4, hand=[card.name]), player("Helper", 3)],
                "combat": {"fighter": "Hero", "monsters": [OGRE]},
                "steps": [{"help": "Helper"}, {"play": card.name, "by": "Hero"}],
                "expect": {"error": True, "hand_sizes": {"Hero": 1}},
            },
            expect_values(fighter_strength=7),
        )


def _enraged_fight(card: OneShotCard, by: str, monsters: int = 1, **hero: Any) -> dict[str, Any]:
    """A fight the Level 3 Hero loses (the Rival's Rage on the first Ogre), the card in `by`'s
    hand, against one or two Ogres (each catch a level)."""
    hands: dict[str, list[str]] = {"Hero": [], "Rival": [RAGE]}
    hands[by].append(card.name)
    return {
        "players": [
            player("Hero", 3, hand=hands["Hero"], **hero),
            player("Rival", 1, hand=hands["Rival"]),
        ],
        "combat": {"fighter": "Hero", "monsters": [OGRE] * monsters},
    }


def _glue_checks(ctx: CheckContext, card: OneShotCard) -> None:
    """An escape undone (Flask of Glue) is any escape, the exact 5 too; it is undone once,
    so a second monster is fled as usual; and the roll made again keeps the runner's Run Away
    bonus (the Wings' +1)."""
    play = [
        {"play": RAGE, "by": "Rival", "on": OGRE},
        {"play": card.name, "by": "Rival", "on": "Hero"},
        {"resolve": True},
    ]
    for label, monsters, hero, dice, outcome, level in (
        ("an exact escape undone too", 1, {}, [5, 1], "caught", 2),
        ("one escape undone of two", 2, {}, [6, 6, 6, 1], "escaped", 3),
        ("the roll again keeps the Run Away bonus", 1, {"in_play": [WINGS]}, [6, 4], "escaped", 3),
    ):
        ctx.run(
            label,
            {**_enraged_fight(card, "Rival", monsters, **hero), "steps": play, "dice": dice},
            expect_values(outcome=outcome, levels={"Hero": level}),
        )


def _after_failed_roll_check(ctx: CheckContext, card: OneShotCard) -> None:
    """Played to get away after a failed roll (Invisibility Potion): one card saves one
    roll, so fleeing two Ogres with two 1s the second still catches."""
    ctx.run(
        "one failed roll of two saved",
        {
            **_enraged_fight(card, "Hero", 2),
            "steps": [
                {"play": RAGE, "by": "Rival", "on": OGRE},
                {"play": card.name, "by": "Hero"},
                {"resolve": True},
            ],
            "dice": [1, 1],
        },
        expect_values(outcome="caught", levels={"Hero": 2}),
    )


def _carried_escape_check(ctx: CheckContext, card: OneShotCard) -> None:
    """An escape played instead of the roll (Instant Wall) works only played: merely
    carried, it does nothing, the 1 is caught and the card stays."""
    document = _enraged_fight(card, "Rival", carried=[card.name])
    document["players"][1]["hand"] = [RAGE]
    ctx.run(
        "carried and not played, it gives no escape",
        {
            **document,
            "steps": [{"play": RAGE, "by": "Rival", "on": OGRE}, {"resolve": True}],
            "dice": [1],
            "expect": {"carried": {"Hero": [card.name]}},
        },
        expect_values(outcome="caught", levels={"Hero": 2}),
    )


def level_card_and_special_checks(ctx: CheckContext, card: LevelCard) -> None:
    """A Go Up a Level card's own checks (`one_shots`), then its condition on what is in
    play read by kind: a card for a player with a Hireling is refused to one with only an
    item (the Helm) in play, and the level not given."""
    level_card_checks(ctx, card)
    requires = card.requires
    if isinstance(requires, HasInPlay):
        kind = requires.has_in_play
    elif isinstance(requires, InPlayAnywhere):
        kind = requires.in_play_anywhere
    else:
        return
    if kind == "item":
        return
    if card.timing in ("after_combat", "after_any_combat"):
        return  # `one_shots` stages its fight; the condition is tried there
    ctx.run(
        f"refused with only an item in play, not a {kind}",
        {
            "players": [
                player("Hero", 3, hand=[card.name], in_play=["Validator Helm"]),
                player("Rival", 5),
            ],
            "steps": [{"play": card.name, "by": "Hero"}],
            "expect": {"error": "playable only", "levels": {"Hero": 3}},
        },
    )


def _enraged_kill_check(ctx: CheckContext, card: OneShotCard, effect: KillMonster) -> None:
    """Killed outright with the Rage on it, the monster goes to the discards with its
    enhancer (core rules: after a fight everything played in it is discarded); the invariants,
    every card in one place, see an enhancer left nowhere. The Rage pays no Treasure: the Ogre
    pays its 2, a Level 10 stand-in 1."""
    monster = OGRE if effect.when is None else stand_in_monster(effect.when)
    if monster is None:
        return
    ctx.run(
        f"kills the Enraged {monster} outright",
        {
            "players": [player("Hero", 1, hand=[card.name]), player("Rival", 1, hand=[RAGE])],
            "combat": {"fighter": "Hero", "monsters": [monster]},
            "steps": [
                {"play": RAGE, "by": "Rival", "on": monster},
                {"play": card.name, "by": "Hero"},
            ],
        },
        expect_values(
            outcome="won", levels={"Hero": 2}, treasures_drawn=2 if monster == OGRE else 1
        ),
    )


def monster_and_special_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """The monster's own checks, then who may use its special rules."""
    monster_checks(ctx, card)
    _special_rule_checks(ctx, card)


def _special_rule_checks(ctx: CheckContext, card: MonsterCard) -> None:
    declines = [e for e in card.effects if isinstance(e, MayDecline)]
    bribes = [e for e in card.effects if isinstance(e, Bribe)]
    chases = [e for e in card.effects if isinstance(e, ChaseAway)]
    if not declines:
        _no_walking_past(ctx, card)
    for decline in declines:
        _decline_checks(ctx, card, decline)
    for bribe in bribes:
        _bribe_checks(ctx, card, bribe)
    for chase in chases:
        _chase_checks(ctx, card, chase)
    for refusal in (e for e in card.effects if isinstance(e, RefusesCombat)):
        _trade_checks(ctx, card, refusal)
    _death_checks(ctx, card)
    _beside_the_ogre_checks(ctx, card)
    _named_companion_checks(ctx, card)
    _helper_trait_checks(ctx, card)
    _bonus_for_the_monster_checks(ctx, card)
    _no_looting_after_check(ctx, card)
    _no_treasure_left_check(ctx, card)
    _tag_from_a_one_shot_checks(ctx, card)
    _ship_running_checks(ctx, card)


def _no_walking_past(ctx: CheckContext, card: MonsterCard) -> None:
    """A monster whose card lets no one walk past it is fought: the step is refused."""
    ctx.run(
        "it cannot be walked past",
        {
            "players": [player("Hero", 1), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"decline": card.name, "by": "Hero"}],
            "expect": {"error": True},
        },
    )


def _decline_checks(ctx: CheckContext, card: MonsterCard, effect: MayDecline) -> None:
    free = Fight() if effect.unless is None else arrange_fight(effect.unless, False)
    if free is None:
        return
    # Whoever else is at the table, even one the card would let by, cannot walk past the
    # Hero's monster.
    rival = {**free.hero(1), "name": "Rival"}
    ctx.run(
        "only the fighter may walk past it",
        {
            "players": [player("Hero", 1), rival],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"decline": card.name, "by": "Rival"}],
            "expect": {"error": True, "outcome": "none"},
        },
    )
    # Beside the Ogre (fought first), it is the named monster that goes; the Ogre stays.
    ctx.run(
        "walking past it beside the Ogre, named",
        {
            "players": [free.hero(1), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE, card.name]},
            "steps": [{"decline": card.name, "by": "Hero"}],
            "expect": {"outcome": "none"},
        },
        expect_values(monster_strength=5),
    )


def _bribe_checks(ctx: CheckContext, card: MonsterCard, effect: Bribe) -> None:
    enough = next((i for i in BRIBE_OFFERS if item_gold(i) >= effect.min_gold), None)
    if enough is None:
        return  # `monsters` warns that no reference item is worth the bribe
    fight = {"fighter": "Hero", "monsters": [card.name]}
    ctx.run(
        f"bribed with an item worth {item_gold(enough)} from the hand",
        {
            "players": [player("Hero", 1, hand=[enough]), player("Rival")],
            "combat": fight,
            "steps": [{"bribe": enough, "by": "Hero"}],
        },
        ended_without_kill(1, 0, hand=0),
    )
    ctx.run(
        "only the fighter may bribe it",
        {
            "players": [player("Hero", 1), player("Rival", 1, in_play=[enough])],
            "combat": fight,
            "steps": [{"bribe": enough, "by": "Rival"}],
            "expect": {"error": True, "outcome": "none", "in_play": {"Rival": [enough]}},
        },
    )


def _chase_checks(ctx: CheckContext, card: MonsterCard, effect: ChaseAway) -> None:
    able = arrange_fight(effect.by, True)
    if able is None:
        return
    # A player the card would allow, but outside the fight, drives nothing off.
    outsider: dict[str, Any] = {**able.hero(1), "name": "Rival"}
    ctx.run(
        "no one outside the fight can drive it off",
        {
            "players": [player("Hero", 1), outsider],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"chase": card.name, "by": "Rival"}],
            "expect": {"error": True, "outcome": "none"},
        },
    )


def _trade_checks(ctx: CheckContext, card: MonsterCard, effect: RefusesCombat) -> None:
    """Refused a fight, the character may trade that many Treasure cards from the hand for
    as many new ones, face down (Lawyers, for a Thief): the new ones are then in the hand (the
    reference items put on top of the Treasure deck, equipped next), and with fewer Treasure
    cards than the trade asks, nothing is traded."""
    count = effect.trade_treasures
    refused = Fight() if effect.when is None else arrange_fight(effect.when, True)
    # Two Trinkets are in the library; the refusal's own Treasure would be drawn from the same
    # deck, so such a card is left to `monsters`.
    if refused is None or not 1 <= count <= 2 or effect.treasures:
        return
    new = EQUIPMENT[:count]
    fight = {"fighter": "Hero", "monsters": [card.name]}
    # Met by kicking the door open, so that the trade is a step, after which the invariants
    # (every card somewhere, once) are checked.
    ctx.run(
        f"{count} Treasure card(s) traded for new ones",
        {
            "players": [refused.hero(1, hand=["Validator Trinket"] * count), player("Rival")],
            "deck": {"door": [card.name], "treasure": new},
            "steps": [
                {"kick_door": "Hero"},
                *({"equip": item, "by": "Hero"} for item in new),
            ],
            "expect": {"in_play": {"Hero": new}, "hand_sizes": {"Hero": 0}},
        },
    )
    ctx.run(
        f"too few Treasure cards for the trade of {count}",
        {
            "players": [
                refused.hero(1, hand=["Validator Trinket"] * (count - 1)),
                player("Rival"),
            ],
            "combat": fight,
            "deck": {"treasure": new},
        },
        # The Trinkets stay: none is traded for a new card.
        expect_values(hands={"Hero": ["Validator Trinket"] * (count - 1)}),
    )


def _death_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """Its Bad Stuff kills: the dead keep their Level and run from no more monsters (core
    rules, Death). Beside the Ogre, fled first: caught by it (a level lost), then killed; fled
    second: killed, and the Ogre is not fled at all. Either way the outcome is death. Staged
    only for a monster whose other rules cannot change the run (a pursuit limit is passed by
    the Level), the Rage making the fight lost, the die's 1 failing every roll."""
    if not any(isinstance(b, Death) and b.when is None for b in card.bad_stuff):
        return
    if any(not isinstance(e, Strength | NoPursuit | MayDecline | RunAway) for e in card.effects):
        return
    if any(isinstance(e, RunAway) and (e.when is not None or e.amount > 3) for e in card.effects):
        return
    # Two Levels above a pursuit limit: one above it still after the Ogre's level is lost.
    level = 2 + max([3] + [e.max_level for e in card.effects if isinstance(e, NoPursuit)])
    if level > 9:
        return
    rage = {"play": RAGE, "by": "Rival", "on": card.name}
    # Fled second, with a helper as strong: the fighter's death (the first 1) ends the
    # fighter's running, so the helper's rolls are the next two dice, two 6s; one more roll
    # of the dead would hand the helper the last die, a 1.
    ctx.run(
        "its death stops the running: the Ogre is not fled",
        {
            "players": [
                player("Hero", level),
                player("Helper", level),
                player("Rival", 1, hand=[RAGE]),
            ],
            "combat": {"fighter": "Hero", "monsters": [card.name, OGRE]},
            "steps": [{"help": "Helper"}, rage, {"resolve": True}],
            "dice": [1, 6, 6, 1],
        },
        expect_values(outcome="dead", levels={"Hero": level, "Helper": level}),
    )
    ctx.run(
        "caught by the Ogre, then killed by it",
        {
            "players": [player("Hero", level), player("Rival", 1, hand=[RAGE])],
            "combat": {"fighter": "Hero", "monsters": [OGRE, card.name]},
            "steps": [rage, {"resolve": True}],
            "dice": [1, 1],
        },
        expect_values(outcome="dead", levels={"Hero": level - 1}),
    )


def _beside_the_ogre_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """A rule on the fighter's Level holds for the whole fight, another monster beside it or
    not (SpongeBob rules, several monsters: such a rule applies to the entire fight):
    Level 3 with the Helm's +1 is 3 with the Level alone, 1 with the Level ignored."""
    if any(isinstance(e, LevelOnly) for e in card.effects):
        strength = 3
    elif any(isinstance(e, IgnoreLevel) for e in card.effects):
        strength = 1
    else:
        return
    ctx.run(
        "its rule on the Level holds with the Ogre beside it",
        {
            "players": [player("Hero", 3, in_play=["Validator Helm"]), player("Rival")],
            "combat": {"fighter": "Hero", "monsters": [OGRE, card.name]},
        },
        expect_values(fighter_strength=strength),
    )


def _named_companion_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """A bonus while a named monster is in the same fight (Piano Tuna beside the Privatears):
    alone it is the Level; beside a Level 10 stand-in of that name, Level + bonus + 10.
    Staged when every other bonus of the card is unconditional."""
    strengths = [e for e in card.effects if isinstance(e, Strength)]
    named = [e for e in strengths if isinstance(e.when, MonsterNamed)]
    if not named or any(e.when is not None and e not in named for e in strengths):
        return
    base = (card.level or 0) + sum(e.amount for e in strengths if e.when is None)
    with ctx.together([Strength]):
        _named_companion_runs(ctx, card, named, base)


def _named_companion_runs(
    ctx: CheckContext, card: MonsterCard, named: list[Strength], base: int
) -> None:
    for effect in named:
        assert isinstance(effect.when, MonsterNamed)
        companion = stand_in_monster(effect.when)
        for label, monsters, total in (
            (f"no bonus without {effect.when.monster}", [card.name], base),
            (f"its bonus beside {effect.when.monster}", [card.name, companion], base + 10),
        ):
            bonus = sum(e.amount for e in named if companion in monsters and e.when == effect.when)
            ctx.run(
                label,
                {
                    "players": [player("Hero", 1), player("Rival")],
                    "combat": {"fighter": "Hero", "monsters": monsters},
                },
                expect_values(monster_strength=total + bonus),
            )


def _helper_trait_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """An extra Treasure for a trait (Potted Plant's for an Elf) is paid when the helper has
    it, the fighter not (core rules, helping: the monster's special rules apply to the helper
    too). The Gauntlet's +30 wins the fight; staged for a monster with no other rule about
    who fights it and no conditional bonus, so that only the extra depends on the helper."""
    if any(
        isinstance(e, LevelOnly | IgnoreLevel | NoHelp | RefusesCombat | MayDecline)
        or (isinstance(e, Strength) and e.when is not None)
        for e in card.effects
    ):
        return
    strength = (card.level or 0) + sum(e.amount for e in card.effects if isinstance(e, Strength))
    extras = [e for e in card.effects if isinstance(e, ExtraTreasures)]
    if strength >= 31 or len([e for e in extras if e.when is not None]) != 1:
        return
    extra = next(e for e in extras if e.when is not None)
    traits = traits_of([extra.when]) if isinstance(extra.when, AxisCondition) else set()
    if len(traits) != 1:
        return
    paid = (card.treasures or 0) + sum(e.amount for e in extras)
    ctx.run(
        "the extra Treasures when only the helper has the trait",
        {
            "players": [
                player("Hero", 1, in_play=["Validator Gauntlet"]),
                player("Helper", 1, in_play=trait_names(sorted(traits))),
            ],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"help": "Helper"}, {"resolve": True}],
        },
        expect_values(outcome="won", treasures_drawn=max(0, paid)),
    )


def _bonus_for_the_monster_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """Extra levels for a kill without bonuses (Pukachu's, alone and on Level alone): a +1
    one-shot a rival plays for the monster is no bonus of the fighter's, so a Level one
    above the monster's strength with it still kills for the extra levels. Staged for a monster
    with no bonus of its own that depends on the fight."""
    if any(isinstance(e, Strength) and e.when is not None for e in card.effects):
        return
    alone = Fight(bonuses=False, helper=False)
    extras = [
        e
        for e in card.effects
        if isinstance(e, ExtraLevels)
        and e.when is not None
        and any(isinstance(leaf, BonusesUsed) for leaf in condition_leaves(e.when))
        and fight_holds(e.when, alone, 1) is True
    ]
    strength = (card.level or 0) + sum(e.amount for e in card.effects if isinstance(e, Strength))
    level = strength + 1 + 1
    gained = kill_levels(card) + sum(e.amount for e in extras)
    if not extras or level + gained > 10:
        return
    ctx.run(
        "its extra levels despite a one-shot played for it",
        {
            "players": [player("Hero", level), player("Rival", 1, hand=[DROP])],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"play": DROP, "by": "Rival", "on": card.name}, {"resolve": True}],
        },
        expect_values(
            outcome="won", monster_strength=strength + 1, levels={"Hero": level + gained}
        ),
    )


def _mate_running_checks(ctx: CheckContext, card: CardBase, effect: Mate) -> None:
    """Running from a pair (the Ogre and its Mate) is at the card's modifier, from each of the
    two, and from neither a third monster beside them (the card's text is about fleeing the
    pair). The Ogre, the Imp beside it, then the Mate, joined last, are fled in that order,
    each Ogre's catch a level lost, the Imp's two. A die at the escape for each: all flee;
    one short for the Mate: caught by it alone; one short for the Imp only with the modifier
    wrongly felt."""
    needed = 5 - effect.runaway
    if effect.runaway >= 0 or not 2 <= needed <= 6:
        return
    pair = {
        "players": [player("Hero", 3), player("Rival", hand=[card.name])],
        "combat": {"fighter": "Hero", "monsters": [OGRE]},
        "steps": [{"play": card.name, "by": "Rival", "on": OGRE}, {"resolve": True}],
    }
    ctx.run(
        f"running from each of the pair at {effect.runaway:+d}",
        {**pair, "dice": [needed, needed]},
        expect_values(outcome="escaped", levels={"Hero": 3}),
    )
    ctx.run(
        f"the Mate itself fled at {effect.runaway:+d}",
        {**pair, "dice": [needed, needed - 1]},
        expect_values(outcome="caught", levels={"Hero": 2}),
    )
    ctx.run(
        "a monster beside the pair fled without the pair's modifier",
        {
            **pair,
            "combat": {"fighter": "Hero", "monsters": [OGRE, IMP]},
            "dice": [needed, 5, needed],
        },
        expect_values(outcome="escaped", levels={"Hero": 3}),
    )


def _no_looting_after_check(ctx: CheckContext, card: MonsterCard) -> None:
    """Met behind the door and fought, it leaves no room to loot that turn (core rules, the
    turn: looting is for a player who met no monster). Kicked open by a Level 1 Hero with the
    Gauntlet's +30, and killed; staged for a monster of plain, unconditional strength under
    that (rules for running or for the reward do not touch a won fight), so that nothing
    but the fight happens before the loot is tried."""
    strength = _plain_strength(card)
    if strength is None or strength >= 31:
        return
    ctx.run(
        "no looting the room after fighting it",
        {
            "players": [player("Hero", 1, in_play=["Validator Gauntlet"]), player("Rival")],
            "deck": {"door": [card.name, "Validator Door"]},
            "steps": [{"kick_door": "Hero"}, {"resolve": True}, {"loot_room": "Hero"}],
            "expect": {"error": "fought a monster", "outcome": "won"},
        },
    )


def _tag_from_a_one_shot_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """Extra levels for a kill with a tag used (the Large Angry Chicken's, killed with fire):
    a one-shot of that tag the fighter plays counts as used, one a rival plays for the
    monster does not (it is the monster's side that used it). A +1 drop of the tag: Level 2
    with it beats a Level 2 monster, Level 4 beats it with the drop against."""
    if any(isinstance(e, Strength) for e in card.effects):
        return
    extras = [e for e in card.effects if isinstance(e, ExtraLevels) and e.when is not None]
    if len(extras) != 1 or not isinstance(extras[0].when, UsedTag):
        return
    drop, level, gained = tagged_drop(extras[0].when.used_tag), card.level or 0, kill_levels(card)
    if level + 2 + gained + extras[0].amount > 10:
        return
    for label, by, on, hero, extra in (
        ("the extra levels for a kill with a one-shot of its tag", "Hero", {}, level, True),
        (
            "no extra levels for a one-shot of its tag played for it",
            "Rival",
            {"on": card.name},
            level + 2,
            False,
        ),
    ):
        ctx.run(
            label,
            {
                "players": [
                    player("Hero", hero, hand=[drop] if by == "Hero" else []),
                    player("Rival", 1, hand=[drop] if by == "Rival" else []),
                ],
                "combat": {"fighter": "Hero", "monsters": [card.name]},
                "steps": [{"play": drop, "by": by, **on}, {"resolve": True}],
            },
            expect_values(
                outcome="won", levels={"Hero": hero + gained + (extras[0].amount if extra else 0)}
            ),
        )


def _plain_strength(card: MonsterCard) -> int | None:
    """The monster's strength when only unconditional bonuses and rules for running or for
    the reward are on it (nothing else changes a won fight); None otherwise."""
    if any(
        not (isinstance(e, Strength) and e.when is None)
        and not isinstance(e, RunAway | NoPursuit | ExtraLevels | ExtraTreasures)
        for e in card.effects
    ):
        return None
    return (card.level or 0) + sum(e.amount for e in card.effects if isinstance(e, Strength))


def _no_treasure_left_check(ctx: CheckContext, card: MonsterCard) -> None:
    """Killed when no Treasure card is left to draw, deck or discards (every one of the
    library's, copies too, in the Rival's hand), it still gives its levels and no Treasure
    (Super Munchkin and Munchkin Impossible rules: with a deck and its discards both empty,
    no one draws that kind of card). A Level one above its plain strength kills it."""
    strength = _plain_strength(card)
    gained = kill_levels(card) + sum(
        e.amount for e in card.effects if isinstance(e, ExtraLevels) and e.when is None
    )
    if strength is None or strength + 1 + gained > 10:
        return
    if any(isinstance(e, ExtraLevels) and e.when is not None for e in card.effects):
        return
    treasures = [
        other.name
        for _, other in ctx.library.cards()
        if other.deck == "treasure"
        for _ in range(other.copies or 1)
    ]
    ctx.run(
        "killed with no Treasure left to draw",
        {
            "players": [player("Hero", strength + 1), player("Rival", 1, hand=treasures)],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": [{"resolve": True}],
            "expect": {"hand_sizes": {"Hero": 0}},
        },
        expect_values(outcome="won", levels={"Hero": strength + 1 + gained}, treasures_drawn=0),
    )


def _ship_running_checks(ctx: CheckContext, card: MonsterCard) -> None:
    """Running from a monster of the set that has Ships (Munchkin Booty rules, Ships): a
    Ship's Run Away modifier replaces the one from Footgear and other possessions (the +1
    Sloop beside the +2 Sea Boots: +1 only); a Ship that slows running (the -2 Galleon) may be
    left behind before the roll, and is, so the roll needs no more than without it; a Ship
    that does not slow it (the Raft) is kept. The Rage makes the fight lost; staged for a
    monster that must be fled by a roll, at a Level above its pursuit limit."""
    if ctx.set_code not in SHIP_SETS:
        return
    if any(not isinstance(e, Strength | RunAway | NoPursuit) for e in card.effects):
        return
    if any(isinstance(e, RunAway) and e.when is not None for e in card.effects):
        return
    if any(isinstance(e, NoPursuit) and e.unless is not None for e in card.effects):
        return
    if any(isinstance(b, Death) for b in card.bad_stuff):
        return  # a catch would be a death, told apart by `_death_checks`
    modifier = sum(e.amount for e in card.effects if isinstance(e, RunAway))
    level = 1 + max([2] + [e.max_level for e in card.effects if isinstance(e, NoPursuit)])
    escape = 5 - modifier  # the die that escapes with no bonus of the runner's
    if level > 9 or not 4 <= escape <= 6:
        return
    rage = [{"play": RAGE, "by": "Rival", "on": card.name}, {"resolve": True}]

    def fled(in_play: list[str], die: int) -> dict[str, Any]:
        return {
            "players": [player("Hero", level, in_play=in_play), player("Rival", 1, hand=[RAGE])],
            "combat": {"fighter": "Hero", "monsters": [card.name]},
            "steps": rage,
            "dice": [die],
        }

    # The Sloop's +1 alone: a die 2 below the escape fails (with the Boots' +2 it would not).
    ctx.run(
        "a Ship's Run Away bonus replaces the Footgear's",
        fled([SLOOP, SEA_BOOTS], escape - 2),
        expect_values(outcome="caught"),
    )
    ctx.run(
        "a slow Ship left behind before the roll",
        {**fled([GALLEON], escape), "expect": {"not_in_play": {"Hero": [GALLEON]}}},
        expect_values(outcome="escaped", levels={"Hero": level}),
    )
    ctx.run(
        "a Ship that does not slow running kept",
        {**fled([RAFT], escape), "expect": {"in_play": {"Hero": [RAFT]}}},
        expect_values(outcome="escaped", levels={"Hero": level}),
    )
    # An enhancer fitted on the Ship (Munchkin Booty rules: Items that enhance Ships; the
    # Ship carries it) adds its bonus to the fight with the Ship's own: Level, +1, +1.
    ctx.run(
        "an enhancer fitted on the Ship adds its bonus",
        {
            "players": [
                player("Hero", level, in_play=[SHIP], hand=[ENHANCER]),
                player("Rival"),
            ],
            "deck": {"door": [card.name]},
            "steps": [{"play": ENHANCER, "by": "Hero", "with": SHIP}, {"kick_door": "Hero"}],
            "cards": [SHIP_CARD, ENHANCER_CARD],
        },
        expect_values(fighter_strength=level + SHIP_CARD["bonus"] + ENHANCER_CARD["bonus"]),
    )
