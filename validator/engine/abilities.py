"""Using a card's ability (discard for a bonus, Theft, Turning...) and discarding a
character card: moves that build on playing cards (turn.py)."""

from __future__ import annotations

from collections.abc import Sequence

from validator.engine.badstuff import (
    apply_outcomes,
    change_level,
    discard_character,
    take_card,
)
from validator.engine.cards import (
    DrawFromDiscard,
    MonsterCard,
    OutcomeBase,
    RemoveMonster,
    RunAway,
    StealItem,
    Strength,
    UseMonsterLevel,
    nearest_word,
)
from validator.engine.combat_specials import (
    end_if_empty,
    monster_named,
)
from validator.engine.legality import checks_passed
from validator.engine.narration import use_line
from validator.engine.state import (
    CardInstance,
    Game,
    Player,
    RuleViolation,
    remove_monster,
)
from validator.engine.strength import holds


def use_ability(
    game: Game,
    player: Player,
    source: CardInstance,
    ability_slug: str | None,
    *,
    discards: Sequence[CardInstance] = (),
    target_player: Player | None = None,
    target_monster: str | None = None,
) -> None:
    """Use a race/class (or follower) ability, paying its cost in discards."""
    if ability_slug == "theft" and player.meta("theft"):
        _theft(game, player, source, discards)
        return
    abilities = list(getattr(source.card, "abilities", []))
    if source not in player.character and source not in player.followers:
        raise RuleViolation(f"{player.name} does not have {source.name} in play")
    if not abilities:
        raise RuleViolation(f"{source.name} has no ability to use")
    if ability_slug is None:
        if len(abilities) != 1:
            slugs = ", ".join(a.slug for a in abilities)
            raise RuleViolation(f"{source.name} has several abilities; say which: {slugs}")
        ability = abilities[0]
    else:
        found = [a for a in abilities if a.slug == ability_slug]
        if not found:
            known = [a.slug for a in abilities]
            hint = nearest_word(ability_slug, known)
            raise RuleViolation(
                f"{source.name} has no ability {ability_slug!r}"
                + (f"; did you mean {hint!r}?" if hint else f" (it has {', '.join(known)})")
            )
        ability = found[0]
    unsupported = [
        e
        for e in ability.effects
        if not isinstance(
            e, Strength | RunAway | RemoveMonster | OutcomeBase | DrawFromDiscard | UseMonsterLevel
        )
    ]
    if unsupported:
        raise RuleViolation(f"{ability.name}: the engine cannot use this ability yet")
    combat = game.combat
    if ability.timing in ("combat", "running_away") and combat is None:
        raise RuleViolation(f"{ability.name} is used in combat")
    if ability.timing == "outside_combat" and combat is not None and player in combat.side:
        raise RuleViolation(f"{ability.name} cannot be used while you are in combat")
    if ability.timing == "on_draw":
        if player is not game.active_player or game.phase != "start" or combat is not None:
            raise RuleViolation(f"{ability.name} is used when you are about to kick open the door")
        if not game.door_discard:
            raise RuleViolation(f"{ability.name} needs a card in the Door discards")
    if ability.when is not None and not holds(ability.when, player, game):
        raise RuleViolation(f"{ability.name} works only against {ability.when.phrase()}")
    own = _payable(player, source)
    for card in discards:
        if id(card) not in own:
            raise RuleViolation(f"{card.name} is not a card {player.name} may discard")
    if len({id(c) for c in discards}) != len(discards):
        raise RuleViolation("each card can be discarded once")
    cost = ability.cost
    count = len(discards)
    if cost is not None and cost.from_hand:
        outside = [c.name for c in discards if c not in player.hand]
        if outside:
            raise RuleViolation(f"{ability.name} is paid from the hand, and {outside[0]} is not")
    if cost is not None:
        if cost.discard_hand:
            discards = list(player.hand)
            count = len(discards)
            if not discards:
                raise RuleViolation(f"{ability.name} costs your whole hand, and it is empty")
        elif cost.discard_up_to:
            if not 1 <= count <= cost.discard_up_to:
                raise RuleViolation(
                    f"{ability.name} takes 1 to {cost.discard_up_to} discards, not {count}"
                )
        elif cost.discard and count != cost.discard:
            raise RuleViolation(f"{ability.name} costs exactly {cost.discard} discard(s)")
    target = player
    if ability.target == "fighting_player":
        if combat is None:
            raise RuleViolation(f"{ability.name} needs a combat")
        target = target_player or combat.fighter
        if target not in combat.side:
            raise RuleViolation(f"{target.name} is not fighting")
    key = (player.name, source.name + ":" + ability.slug)
    # An ability for its user's own fight or escape, with no limit stated, is used once per
    # combat: a cost of "up to N" discards then bounds the whole bonus (Flight's up to 3 is
    # +3 at most, not +3 each time it is used).
    once = ability.limit == "once_per_combat" or (
        ability.timing in ("combat", "running_away")
        and ability.limit is None
        and ability.target == "self"
    )
    if once and combat is not None and key in combat.abilities_used:
        raise RuleViolation(f"{ability.name} can be used only once per combat")
    per_victim = ability.limit == "once_per_victim_per_combat"
    if per_victim and combat is not None and (key[1], target.name) in combat.backstabbed:
        raise RuleViolation(f"{ability.name} hits each victim only once per combat")
    switch = any(isinstance(e, UseMonsterLevel) for e in ability.effects)
    monsters_paid = [c.card for c in discards if isinstance(c.card, MonsterCard)]
    if switch and (combat is None or len(monsters_paid) != 1):
        raise RuleViolation(f"{ability.name} takes one monster card from your hand, in combat")
    removals = [e for e in ability.effects if isinstance(e, RemoveMonster)]
    if removals and combat is not None:
        monster_named(combat, target_monster)
    checks_passed(game)  # then pay, and apply
    if ability.timing == "on_draw":
        # Paid once the card is taken, so the payment is not what gets taken.
        player.pending_discards = list(discards)
        player.draw_from_discard = True
        game.note(f"{player.name} will use {ability.name}")
        return
    for card in discards:
        _pay_with(game, player, card)
    if combat is not None:
        combat.abilities_used.add(key)
        combat.backstabbed.add((key[1], target.name))
    game.note(use_line(player, ability.name, discards))
    for effect in ability.effects:
        times = count if getattr(effect, "per", None) == "discarded_card" else 1
        if isinstance(effect, Strength):
            assert combat is not None
            combat.ability_bonus[target.name] = combat.ability_bonus.get(target.name, 0) + (
                effect.amount * times
            )
        elif isinstance(effect, RunAway):
            assert combat is not None
            combat.runaway_bonus[target.name] = combat.runaway_bonus.get(target.name, 0) + (
                effect.amount * times
            )
        elif isinstance(effect, RemoveMonster):
            assert combat is not None
            remove_monster(
                game, combat, monster_named(combat, target_monster), treasures=effect.treasures
            )
            end_if_empty(game, combat)
        elif isinstance(effect, OutcomeBase):
            apply_outcomes(game, player, [effect], source=ability.name)
        elif isinstance(effect, DrawFromDiscard):
            player.draw_from_discard = True
        elif isinstance(effect, UseMonsterLevel):
            assert combat is not None
            combat.level_override[player.name] = monsters_paid[0].level or 0


def _payable(player: Player, source: CardInstance) -> set[int]:
    """The cards that may pay for an ability: any card in the hand or in play (the rulebooks),
    but not the card whose ability it is (discarding it loses the ability), and never a curse
    kept as a reminder."""
    return (
        set(id(c) for c in player.hand)
        | set(id(c) for c in player.items)
        | set(id(c) for c in player.character if c is not source)
        | set(id(c) for c in player.followers)
    )


def _pay_with(game: Game, player: Player, card: CardInstance) -> None:
    """Discard one card paid for an ability: a character card leaves the character (and
    what goes with it), anything else goes to its discard pile."""
    if card in player.character:
        discard_character(game, player, card)
    else:
        take_card(game, player, card)
        game.discard(card)


def _theft_sources(player: Player) -> int:
    """Theft-granting cards stack (Super Munchkin): meta-abilities and Theft abilities."""
    abilities = sum(
        1 for c in player.character for a in getattr(c.card, "abilities", []) if a.slug == "theft"
    )
    return len(player.meta("theft")) + abilities


def _theft(
    game: Game, player: Player, source: CardInstance, discards: Sequence[CardInstance]
) -> None:
    """The Theft meta-ability: one discard, a roll of 4 or more (1 less per other Theft card)
    takes a Small item another player carries; anything lower costs a level."""
    if game.combat is not None and player in game.combat.side:
        raise RuleViolation("Theft cannot be used while you are in combat")
    if len(discards) != 1:
        raise RuleViolation("Theft costs exactly 1 discard")
    card = discards[0]
    # Paid like any ability (Super Munchkin rules, Classes: any card in play or in the hand),
    # a Power or a Class beside the Theft card included.
    if id(card) not in _payable(player, source):
        raise RuleViolation(f"{card.name} is not a card {player.name} may discard for Theft")
    needed = max(2, 5 - _theft_sources(player))
    checks_passed(game)
    _pay_with(game, player, card)
    roll = game.roll(player)
    game.note(f"{player.name} tries Theft: rolls {roll}, needs {needed}")
    if roll >= needed:
        apply_outcomes(game, player, [StealItem(type="steal_item", size="small")], source="Theft")
    else:
        change_level(game, player, -1)


def discard_character_card(game: Game, player: Player, card: CardInstance) -> None:
    """Any time, even in combat: "I don't want to be a Wizard any more"."""
    if card not in player.character:
        raise RuleViolation(f"{player.name} has no {card.name} in play")
    checks_passed(game)
    discard_character(game, player, card)
