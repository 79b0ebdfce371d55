"""Monster texts that act when a fight starts, and the optional ways out of a fight."""

from __future__ import annotations

from validator.engine.badstuff import apply_outcomes, detach_item, take_card
from validator.engine.cards import (
    BeforeCombat,
    Bribe,
    ChaseAway,
    DrawTreasures,
    MayDecline,
    RefusesCombat,
    RemoveMonster,
)
from validator.engine.combat import resolve
from validator.engine.legality import checks_passed
from validator.engine.state import (
    CardInstance,
    Combat,
    Game,
    MonsterInPlay,
    Player,
    RuleViolation,
    effects_of,
    gold_value,
    remove_monster,
    require_combat,
)
from validator.engine.strength import holds
from validator.engine.words import counted


def start_combat(game: Game, fighter: Player, monster: CardInstance) -> Combat:
    combat = Combat(fighter=fighter, monsters=[MonsterInPlay(monster)])
    game.combat = combat
    game.fought_this_turn = True
    game.note(f"{fighter.name} fights {monster.name}")
    on_combat_start(game, combat)
    return combat


def on_combat_start(game: Game, combat: Combat) -> None:
    for monster in list(combat.monsters):
        monster_arrives(game, combat, monster)
    end_if_empty(game, combat)


def monster_arrives(game: Game, combat: Combat, monster: MonsterInPlay) -> None:
    fighter = combat.fighter
    for effect in effects_of(monster.monster, RefusesCombat):
        if effect.when is not None and holds(effect.when, fighter, game, combat):
            game.note(f"{monster.name} will not fight {fighter.name}")
            remove_monster(game, combat, monster, treasures=False)
            combat.extra_treasures += effect.treasures
            if effect.trade_treasures:
                _trade_treasures(game, fighter, effect.trade_treasures, effect.trade_from)
            return
    for toll in effects_of(monster.monster, BeforeCombat):
        if toll.when is None or holds(toll.when, fighter, game, combat):
            apply_outcomes(game, fighter, toll.effects, source=monster.name)


def _trade_treasures(game: Game, player: Player, count: int, where: str = "hand") -> None:
    """Discard Treasure cards from the hand (or, `where` "anywhere", from the hand or the
    table) to draw as many new ones face down."""
    candidates = [c for c in player.hand if c.card.deck == "treasure"]
    if where == "anywhere":
        candidates += [c for c in player.in_play() if c.card.deck == "treasure"]
    traded = game.chooser.trade_treasures(game, player, candidates, count)
    if len(traded) != count:
        return  # fewer Treasure cards than the card asks for: no trade at all
    traded_in = 0
    for card in traded:
        if card not in player.hand and card not in list(player.in_play()):
            # Gone with an earlier one: losing it may pass an extra Big item on to another
            # player (enforce_big_limit), who keeps it. It is not traded in, so not paid for.
            continue
        take_card(game, player, card)
        game.discard(card)
        traded_in += 1
    for _ in range(traded_in):
        if game.can_draw("treasure"):
            player.hand.append(game.draw("treasure"))
    game.note(f"{player.name} trades {counted(traded_in, 'Treasure card')} for new ones")


def end_if_empty(game: Game, combat: Combat) -> None:
    """When the last monster leaves, the fight ends at once."""
    if not combat.monsters and game.combat is combat:
        resolve(game)


def monster_named(combat: Combat, name: str | None) -> MonsterInPlay:
    if name is None:
        if len(combat.monsters) != 1:
            raise RuleViolation("say which monster: there is more than one")
        return combat.monsters[0]
    for monster in combat.monsters:
        if (
            monster.name.casefold() == name.casefold()
            or monster.monster.name.casefold() == name.casefold()
        ):
            return monster
    raise RuleViolation(f"{name!r} is not in this combat")


def decline(game: Game, player: Player, monster_name: str | None = None) -> None:
    """Walk past a monster that allows it (no reward)."""
    combat = require_combat(game)
    monster = monster_named(combat, monster_name)
    effects = effects_of(monster.monster, MayDecline)
    if not effects:
        raise RuleViolation(
            f"{monster.name} must be fought: only a card that says so lets you walk past"
        )
    if player is not combat.fighter:
        raise RuleViolation("only the fighter may walk past a monster")
    for effect in effects:
        if effect.unless is not None and holds(effect.unless, player, game, combat):
            raise RuleViolation(f"{monster.name} says {effect.unless.phrase()} must fight it")
    checks_passed(game)
    game.note(f"{player.name} walks past {monster.name}, as its card allows")
    remove_monster(game, combat, monster, treasures=False)
    end_if_empty(game, combat)


def bribe(game: Game, player: Player, item: CardInstance, monster_name: str | None = None) -> None:
    """Give a monster the item it asks for, instead of fighting it."""
    combat = require_combat(game)
    monster = monster_named(combat, monster_name)
    effects = effects_of(monster.monster, Bribe)
    if not effects:
        raise RuleViolation(f"{monster.name} cannot be bribed")
    if player is not combat.fighter:
        raise RuleViolation("only the fighter may bribe the monster")
    if item not in player.items and item not in player.hand:
        raise RuleViolation(f"{player.name} has no {item.name}")
    needed = max(e.min_gold for e in effects)
    if gold_value(item.card) < needed:
        raise RuleViolation(
            f"{monster.name} wants an item worth {needed} Gold or more; "
            f"{item.name} is worth {gold_value(item.card)}"
        )
    checks_passed(game)
    if item in player.hand:
        player.hand.remove(item)
    else:
        detach_item(game, player, item)
    game.discard(item)
    game.note(f"{player.name} gives {item.name} to {monster.name}, who lets them pass")
    remove_monster(game, combat, monster, treasures=False)
    end_if_empty(game, combat)


def chase_away(game: Game, player: Player, monster_name: str | None = None) -> None:
    """Drive off a monster that someone on the side may chase away (Wannabe Vampire)."""
    combat = require_combat(game)
    if player not in combat.side:
        raise RuleViolation(f"{player.name} is not fighting")
    monster = monster_named(combat, monster_name)
    effects = [
        e for e in effects_of(monster.monster, ChaseAway) if holds(e.by, player, game, combat)
    ]
    if not effects:
        raise RuleViolation(f"{player.name} cannot chase {monster.name} away")
    checks_passed(game)
    game.note(f"{player.name} chases {monster.name} away")
    remove_monster(game, combat, monster, treasures=effects[0].treasures)
    end_if_empty(game, combat)


def send_monsters_away(game: Game, combat: Combat, card: CardInstance) -> None:
    """A card that sends every monster away (played from the hand): each leaves with its
    Treasure or not as the card says, and the Treasure it draws goes to the fighter."""
    combat.spent.append(card)
    fighter = combat.fighter
    game.note(f"{card.name} is played on {fighter.name}'s fight: the monsters leave")
    for effect in card.card.effects:
        if isinstance(effect, RemoveMonster):
            for victim in list(combat.monsters):
                remove_monster(game, combat, victim, treasures=effect.treasures)
        elif isinstance(effect, DrawTreasures):
            apply_outcomes(game, fighter, [effect], source=card.name)
    end_if_empty(game, combat)


def names_match(condition: object, monster: MonsterInPlay) -> bool:
    name = getattr(condition, "monster", None)
    return name is None or monster.monster.name.casefold() == str(name).casefold()
