"""Combat: strengths, helpers, cards played into a fight, and its resolution.

Strength of the munchkins' side = each member's Level (unless a monster ignores it) + the
bonuses of equipped items they may use + passive card effects + one-shots and abilities used
in this fight + pending "next combat" curses. Strength of the monsters = each monster's Level +
the enhancers on it (a Mate shares its original's) + its bonuses against anyone on the side,
counted once + one-shots played for it. The monsters win ties unless the side wins ties.
"""

from __future__ import annotations

from validator.engine.badstuff import change_level, declare_winner, receive_drawn
from validator.engine.cards import ExtraLevels, ExtraTreasures, ForceHelp, HelperLevels, NoHelp
from validator.engine.legality import checks_passed
from validator.engine.narration import reward_drawn, strength_lines, taken
from validator.engine.runaway import RunResult, run_away
from validator.engine.state import (
    WINNING_LEVEL,
    Combat,
    Game,
    MonsterInPlay,
    Player,
    RuleViolation,
    effects_of,
    levels_for_kill,
    require_combat,
)
from validator.engine.strength import (
    enhanced_stat,
    holds,
    monsters_strength,
    side_strength,
    side_wins_with,
    usable_by,
)
from validator.engine.words import counted

# -- joining the fight ---------------------------------------------------------------------------


def offer_help(
    game: Game,
    helper: Player,
    *,
    treasures: int = 0,
    picks_first: bool = False,
    forced: bool = False,
) -> None:
    combat = require_combat(game)
    if helper is combat.fighter:
        raise RuleViolation("the fighter cannot help themselves")
    if combat.helper is not None:
        raise RuleViolation(f"only one player can help, and {combat.helper.name} already does")
    if helper.dead:
        raise RuleViolation(f"{helper.name} is dead and cannot help")
    if combat.monster_effects(NoHelp):
        names = ", ".join(m.name for m in combat.monsters if effects_of(m.monster, NoHelp))
        raise RuleViolation(f"no one may help against {names}: it must be fought alone")
    if treasures < 0:
        raise RuleViolation("a treasure share cannot be negative")
    if forced:
        fighter = combat.fighter
        compelling = [
            e
            for item in fighter.equipped
            if usable_by(game, fighter, item)
            for e in effects_of(item.card, ForceHelp)
        ] + list(fighter.passive_effects(ForceHelp))
        if not compelling:
            raise RuleViolation(f"{fighter.name} has no card that forces another player to help")
        if (treasures or picks_first) and not any(e.helper_reward for e in compelling):
            raise RuleViolation(f"{helper.name} is made to help and can ask no reward")
        gained = sum(levels_for_kill(m.monster) for m in combat.monsters)
        if fighter.level + gained >= WINNING_LEVEL:
            raise RuleViolation("no one can be forced to help in a fight for the win")
    checks_passed(game)
    combat.helper = helper
    combat.helper_treasures = treasures
    combat.helper_picks_first = picks_first
    game.note(
        f"{helper.name} helps {combat.fighter.name}"
        + (f" for {counted(treasures, 'Treasure')}" if treasures else "")
    )


# -- the end of a fight --------------------------------------------------------------------------


def resolve(game: Game, reckoned: tuple[int, int] | None = None) -> str:
    """End the combat: the side wins (rewards) or runs away (Bad Stuff). Returns the outcome.

    `reckoned` is (the side's strength, the monsters') when the caller has just worked both
    out on the table as it is now (the bots weigh every fight before it ends); without it they
    are worked out here."""
    combat = require_combat(game)
    checks_passed(game)
    # Reckoned once: both strengths are recorded and decide the outcome.
    ours, theirs = reckoned or (side_strength(game, combat), monsters_strength(game, combat))
    combat.last_side_strength, combat.last_monster_strength = ours, theirs
    if not combat.monsters and not combat.slain:
        _collect_removed_treasure(game, combat)
        combat.outcome = "won" if combat.removed else "none"
    elif not combat.monsters or side_wins_with(game, combat, ours, theirs):
        game.note(*strength_lines(game, combat, ours, theirs, won=True))
        _reward(game, combat)
        combat.outcome = "won"
    else:
        game.note(*strength_lines(game, combat, ours, theirs, won=False))
        results: list[RunResult] = run_away(game, combat)
        combat.outcome = _outcome_of(results)
    finish(game, combat)
    return combat.outcome


def _outcome_of(results: list[RunResult]) -> str:
    if any(r.dead for r in results):
        return "dead"
    if any(r.caught for r in results):
        return "caught"
    return "escaped"


def _treasure_count(game: Game, combat: Combat, monster: MonsterInPlay) -> int:
    card = monster.monster
    count = enhanced_stat(monster, card.treasures or 0, "treasures")
    for effect in effects_of(card, ExtraTreasures):
        if effect.when is None or any(holds(effect.when, p, game, combat) for p in combat.side):
            count += effect.amount
    return max(0, count)


def _collect_removed_treasure(game: Game, combat: Combat) -> None:
    count = sum(_treasure_count(game, combat, m) for m, paid in combat.removed if paid)
    _draw_rewards(game, combat, count + combat.extra_treasures)


def _reward(game: Game, combat: Combat) -> None:
    fighter = combat.fighter
    levels = 0
    treasures = 0
    killed_monsters = combat.monsters + combat.slain
    for monster in killed_monsters:
        levels += levels_for_kill(monster.monster)
        for effect in effects_of(monster.monster, ExtraLevels):
            if effect.when is None or holds(effect.when, fighter, game, combat):
                levels += effect.amount
        treasures += _treasure_count(game, combat, monster)
    treasures += sum(_treasure_count(game, combat, m) for m, paid in combat.removed if paid)
    treasures += combat.extra_treasures
    killed = len(killed_monsters)
    game.note(f"{fighter.name} kills {', '.join(m.name for m in killed_monsters)}")

    change_level(game, fighter, levels, may_win=True, reason="kill")
    helper = combat.helper
    if helper is not None:
        per_monster = sum(e.amount for e in helper.passive_effects(HelperLevels))
        if per_monster:
            shared = game.options.shared_victory and game.winner is fighter
            change_level(game, helper, per_monster * killed, may_win=shared, reason="shared")
        if game.options.shared_victory and game.winner is fighter:
            declare_winner(game, helper, "shared")
    _draw_rewards(game, combat, treasures)


def _draw_rewards(game: Game, combat: Combat, count: int) -> None:

    drawn = []
    for _ in range(count):
        if not game.can_draw("treasure"):
            break
        drawn.append(game.draw("treasure"))
    combat.treasures_drawn = len(drawn)
    combat.treasures_face_up = combat.helper is not None
    game.note(*reward_drawn(combat, count, len(drawn)))
    share = min(combat.helper_treasures, len(drawn))  # helper_treasures is 0 with no helper
    order = drawn if combat.helper_picks_first else list(reversed(drawn))
    for index, card in enumerate(order):
        receiver = combat.helper if index < share and combat.helper is not None else combat.fighter
        if receiver.dead:
            receiver = combat.fighter
        game.note(*taken(combat, receiver, card))
        receive_drawn(game, receiver, card)


def finish(game: Game, combat: Combat) -> None:
    """Discard everything the fight used; pending "next combat" curses are spent."""
    combat.resolved = True
    for monster in combat.monsters:
        game.discard(monster.card)
        game.discard_all(monster.enhancers)
    for monster, _ in combat.removed:
        game.discard(monster.card)
        game.discard_all(monster.enhancers)
    for monster in combat.slain:
        game.discard(monster.card)
        game.discard_all(monster.enhancers)
    game.discard_all(play.card for play in combat.one_shots)
    game.discard_all(combat.spent)
    combat.monsters, combat.removed, combat.slain = [], [], []
    combat.one_shots, combat.spent = [], []
    for player in combat.side:
        game.discard_all(player.next_combat)
        player.next_combat.clear()
    game.combat = None
    game.last_combat = combat
    game.last_combat_turn = game.turn_number
