"""The game log's lines that need the game to be worded: the fight's bonuses and strengths, a
run away roll, a sale, charity, the Treasure drawn and who takes it.

Narration only: nothing here changes the game, and the modules that act call it only inside
`game.note(...)`, which the mutation tests leave alone as they leave every line of the log
(validator/mutants: a log line is what a move says, not what it does). The phrasing itself
is words.py's.
"""

from __future__ import annotations

from collections.abc import Sequence

from validator.engine.cards import EffectBase, Strength, signed
from validator.engine.state import CardInstance, Combat, Game, Player, effects_of
from validator.engine.strength import axis_of, bonus_multiplier, holds, usable_by
from validator.engine.words import counted, gold, listed


def bonus_lines(game: Game, combat: Combat) -> list[str]:
    """A line for each bonus of the fight that holds only against some players or some
    monsters, naming its card: "Bathtub Duckie: +3 against P1, an Elf" (counted as
    strength.monster_strength and strength.side_member_strength count them)."""
    lines = []
    for monster in combat.monsters:
        for effect in monster.source.effects_by_type.get(Strength, ()):
            if effect.when is None:
                continue
            axis = axis_of(effect.when)
            matching = [p for p in combat.side if holds(effect.when, p, game, combat)]
            if effect.amount > 0 and axis is not None:
                matching = [p for p in matching if not p.super_single(axis)]
            if matching:
                who = listed(p.name for p in matching)
                amount = signed(effect.amount)
                lines.append(f"{monster.name}: {amount} against {who}, {effect.when.phrase()}")
    for player in combat.side:
        for item in player.equipped:
            if usable_by(game, player, item):
                lines += _item_bonus_lines(game, combat, player, item)
    return lines


def _item_bonus_lines(game: Game, combat: Combat, player: Player, item: CardInstance) -> list[str]:
    lines = []
    for effect in item.effects_by_type.get(Strength, ()):
        if effect.when is None or effect.duration == "next_combat":
            continue
        if holds(effect.when, player, game, combat):
            amount = signed(effect.amount * bonus_multiplier(game, combat, player, effect))
            way = "as" if effect.when.about_player else "against"
            lines.append(f"{item.name}: {amount} for {player.name}, {way} {effect.when.phrase()}")
    return lines


def strength_lines(game: Game, combat: Combat, ours: int, theirs: int, *, won: bool) -> list[str]:
    """The fight as it ends: each bonus that holds only against some, then both strengths and
    who won ("P1 and P3 fight at 12 against Net Troll at 10, and win")."""
    if not game.logging or not combat.monsters:
        return []
    side = listed(p.name for p in combat.side)
    alone = len(combat.side) == 1
    fight = "fights" if alone else "fight"
    monsters = listed(m.name for m in combat.monsters)
    tie = " (a tie)" if ours == theirs else ""
    if won:
        result = "and wins" if alone else "and win"
    else:
        result = "and loses: running away" if alone else "and lose: running away"
    line = f"{side} {fight} at {ours} against {monsters} at {theirs}{tie}, {result}"
    return [*bonus_lines(game, combat), line]


def roll_line(player: Player, monster: str, roll: int, modifier: int, needed: int) -> str:
    """ "P1 rolls 3 to run from Net Troll, needing 5" or, with a modifier, "P1 rolls 3, +1
    makes 4, to run from Net Troll, needing 5"."""
    made = f", {signed(modifier)} makes {roll + modifier}," if modifier else ""
    return f"{player.name} rolls {roll}{made} to run from {monster}, needing {needed}"


def run_line(player: str, monster: str, escaped: bool, reason: str, rolled: bool) -> str:
    """ "P1 escapes from Net Troll" or "Net Troll catches P1", with why when no die decided."""
    why = "" if rolled else f" ({reason})"
    if escaped:
        return f"{player} escapes from {monster}{why}"
    return f"{monster} catches {player}{why}"


def card_played(combat: Combat, effect_type: type[EffectBase]) -> str:
    """The latest one-shot of this fight with such an effect (the escape card, the glue)."""
    for play in reversed(combat.one_shots):
        if effects_of(play.card.card, effect_type):
            return play.card.name
    return "a card"


def no_effect(source: str, target: Player, acted: bool) -> list[str]:
    """A curse or Bad Stuff that did nothing says so: "Curse! Lose a Big Item has no effect
    on P3"."""
    return [] if acted else [f"{source} has no effect on {target.name}"]


def sale_line(
    player: Player, cards: Sequence[CardInstance], prices: Sequence[int], total: int, doubled: bool
) -> str:
    """ "P1 sells Boots and Sword for 1,300 Gold (300 Gold of it buys nothing: no change is
    given)"; `prices` are the cards' (a Ship's with its fittings), in the same order."""
    line = f"{player.name} sells {listed(c.name for c in cards)} for {gold(total)}"
    if doubled:
        dearest = max(zip(prices, (c.name for c in cards), strict=True))[1]
        line += f", {dearest} counted at double its price"
    if total % 1000:
        line += f" ({gold(total % 1000)} of it buys nothing: no change is given)"
    return line


def charity_lines(giver: Player, receivers: Sequence[Player], count: int) -> list[str]:
    """Charity's gifts, dealt in turn to the lowest-Level players: how many each gets."""
    return [
        f"{giver.name} gives {receiver.name} "
        f"{counted(len(range(index, count, len(receivers))), 'card')} in charity"
        for index, receiver in enumerate(receivers[:count])
    ]


def hand_discarded(victim: Player) -> str:
    cards = counted(len(victim.hand), "card")
    return f"{victim.name} discards their hand, {cards}: {listed(c.name for c in victim.hand)}"


def treasures_drawn(game: Game, receiver: Player, count: int) -> list[str]:
    """The Treasures a card draws, face down, and who gets them (as many as the deck and its
    discards hold, at most)."""
    drawn = min(count, len(game.treasure_deck) + len(game.treasure_discard))
    return [f"{receiver.name} draws {counted(drawn, 'Treasure')} face down"] if drawn else []


def reward_drawn(combat: Combat, count: int, drawn: int) -> list[str]:
    """The fight's Treasure: "P1 draws 2 Treasures face down" (face up with a helper)."""
    if not count:
        return []
    face = "face up" if combat.treasures_face_up else "face down"
    what = f"{counted(drawn, 'Treasure')} {face}" if drawn else "no Treasure: none left"
    return [f"{combat.fighter.name} draws {what}"]


def taken(combat: Combat, receiver: Player, card: CardInstance) -> list[str]:
    """Treasure drawn face up names who takes each card."""
    return [f"{receiver.name} takes {card.name}"] if combat.treasures_face_up else []


def use_line(player: Player, ability: str, discards: Sequence[CardInstance]) -> str:
    """ "P1 uses Berserking, discarding Potion of Idiotic Bravery and Kneepads of Allure"."""
    paid = f", discarding {listed(c.name for c in discards)}" if discards else ""
    return f"{player.name} uses {ability}{paid}"
