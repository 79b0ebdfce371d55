"""Running away: each member of the losing side rolls for each monster, 5 or more escapes.

Automatic escapes (the monster's or a card's) and monsters that do not pursue low levels need
no roll; monsters that cannot be outrun always catch. Costs that apply "even on escape" are paid
by those who escape; Bad Stuff hits those who are caught, as soon as they are caught, and a
character who dies runs from nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.engine.badstuff import apply_outcomes, lose_item
from validator.engine.cards import (
    AfterEscape,
    AutomaticEscape,
    CancelEscape,
    CannotEscape,
    EscapeByDiscard,
    Mate,
    NoPursuit,
    OnEscape,
    RunAway,
)
from validator.engine.narration import card_played, no_effect, roll_line, run_line
from validator.engine.state import Combat, Game, MonsterInPlay, Player, effects_of
from validator.engine.strength import holds, usable_by

ESCAPE_ROLL = 5


@dataclass
class RunResult:
    player: str
    monster: str
    escaped: bool
    reason: str
    roll: int | None = None
    modifier: int = 0
    dead: bool = False

    @property
    def caught(self) -> bool:
        return not self.escaped


def runaway_modifier(game: Game, combat: Combat, player: Player, monster: MonsterInPlay) -> int:
    total = sum(e.amount for e in player.passive_effects(RunAway) if _applies(e, player, game))
    total += 1 if player.meta("flight") else 0  # Flight does not stack
    ships, others = [], 0
    for item in player.equipped:
        if usable_by(game, player, item):
            amount = sum(
                e.amount for e in effects_of(item.card, RunAway) if _applies(e, player, game)
            )
            if item.slot == "ship" and effects_of(item.card, RunAway):
                ships.append(amount)
            else:
                others += amount
    # A Ship's Run Away modifier replaces the one from Footgear and other possessions; with
    # several Ships, the best one counts (Booty).
    total += max(ships) if ships else others
    total += sum(e.amount for e in effects_of(monster.monster, RunAway))
    total += combat.runaway_bonus.get(player.name, 0)
    # A Mate's modifier applies to both of the pair.
    for entry in combat.monsters:
        if (entry is monster and entry.mate_of is not None) or entry.mate_of is monster:
            total += sum(m.runaway for m in effects_of(entry.card.card, Mate))
    return total


def _applies(effect: RunAway, player: Player, game: Game) -> bool:
    return effect.when is None or holds(effect.when, player, game)


def run_away(game: Game, combat: Combat) -> list[RunResult]:
    results: list[RunResult] = []
    for player in combat.side:
        for monster in list(combat.monsters):
            if player.dead:
                break
            result = _run_from(game, combat, player, monster)
            results.append(result)
            game.note(
                run_line(
                    player.name,
                    monster.name,
                    result.escaped,
                    result.reason,
                    rolled=result.roll is not None,
                )
            )
            # A cost of running is paid by every runner, "even" those who escape.
            for effect in effects_of(monster.monster, OnEscape):
                if effect.when is None or holds(effect.when, player, game, combat):
                    apply_outcomes(game, player, effect.effects, source=monster.name)
            if not result.escaped:
                _bad_stuff(game, player, monster)
            result.dead = player.dead
        _escape_rewards(game, player, [r for r in results if r.player == player.name])
    return results


def _bad_stuff(game: Game, player: Player, monster: MonsterInPlay) -> None:
    """The Bad Stuff of a monster that caught the player, each step of it in the log naming the
    monster, or one line saying it did nothing (nothing to take, a Level already the lowest)."""
    bad_stuff = f"{monster.name}'s Bad Stuff"
    lines = len(game.log)
    acted = apply_outcomes(game, player, monster.monster.bad_stuff, source=bad_stuff)
    game.note(*no_effect(bad_stuff, player, acted and len(game.log) > lines))


def _escape_rewards(game: Game, player: Player, results: list[RunResult]) -> None:
    """A player who got away from every monster collects what their items in use promise for
    an escape (Tuba of Charm), once per fight."""
    if player.dead or not results or not all(r.escaped for r in results):
        return
    for item in list(player.equipped):
        if usable_by(game, player, item):
            for reward in effects_of(item.card, AfterEscape):
                if reward.when is None or holds(reward.when, player, game):
                    apply_outcomes(game, player, reward.effects, source=item.name)


def _run_from(game: Game, combat: Combat, player: Player, monster: MonsterInPlay) -> RunResult:
    card = monster.monster
    name = monster.name
    if player.name in combat.sacrificed:
        return RunResult(player.name, name, True, "a follower was sacrificed for it")
    for effect in effects_of(card, AutomaticEscape):
        if effect.when is None or holds(effect.when, player, game, combat):
            return RunResult(player.name, name, True, f"{name} lets them go, as its card says")
    for pursuit in effects_of(card, NoPursuit):
        exempt = pursuit.unless is not None and holds(pursuit.unless, player, game, combat)
        if player.level <= pursuit.max_level and not exempt:
            game.note(f"{name} does not pursue {player.name}, who is only Level {player.level}")
            return RunResult(player.name, name, True, "not pursued")
    if combat.auto_escape.get(player.name, 0):
        escaping = f"automatically, with {card_played(combat, AutomaticEscape)}"
        return RunResult(player.name, name, True, escaping)
    if effects_of(card, CannotEscape):
        return RunResult(player.name, name, False, f"no one can outrun {name}")
    for item in list(player.items):
        for escape in effects_of(item.card, AutomaticEscape):
            if not escape.discard_this:
                continue
            if escape.when is not None and not holds(escape.when, player, game, combat, monster):
                continue
            if game.chooser.discard_to_escape(game, player, item):
                lose_item(game, player, item)
                return RunResult(player.name, name, True, f"by discarding {item.name}")
    for discard_rule in effects_of(card, EscapeByDiscard):
        candidates = [i for i in player.items if set(discard_rule.tags) & set(i.card.tags)]
        pick = game.chooser.discard_for_escape(game, player, candidates)
        if pick is not None:
            lose_item(game, player, pick)
            return RunResult(player.name, name, True, f"by throwing it {pick.name}")
    for ship in [i for i in player.equipped if i.slot == "ship"]:
        penalty = sum(e.amount for e in effects_of(ship.card, RunAway))
        if penalty < 0 and game.chooser.abandon_ship(game, player, ship):
            game.note(f"{player.name} abandons the Ship {ship.name} to run faster")
            lose_item(game, player, ship)  # a Ship that slows you may be left behind first
    modifier = runaway_modifier(game, combat, player, monster)
    loaded = combat.loaded_die.pop(player.name, None)
    roll = loaded if loaded is not None else game.roll(player)
    total = roll + modifier
    if total >= ESCAPE_ROLL and player.name in combat.glued:
        # Flask of Glue: the escape is undone and the roll is made again.
        game.note(
            roll_line(player, name, roll, modifier, ESCAPE_ROLL),
            f"{card_played(combat, CancelEscape)} holds {player.name} back: a new roll",
        )
        combat.glued.discard(player.name)
        roll = game.roll(player)
        total = roll + modifier
    game.note(roll_line(player, name, roll, modifier, ESCAPE_ROLL))
    if total >= ESCAPE_ROLL:
        return RunResult(player.name, name, True, f"rolled {total}", roll, modifier)
    if player.name in combat.escape_after_fail:
        combat.escape_after_fail.discard(player.name)
        game.note(f"{card_played(combat, AutomaticEscape)} gets {player.name} away all the same")
        return RunResult(player.name, name, True, "escaped after a failed roll", roll, modifier)
    return RunResult(
        player.name, name, False, f"rolled {total}, needed {ESCAPE_ROLL}", roll, modifier
    )
