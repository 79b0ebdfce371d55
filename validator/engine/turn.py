"""Moves: turn phases and everything a player may do, each checked before it changes anything.

Every public function here is a move. It raises `RuleViolation` naming the rule that forbids
it, before touching the state, so a refused move leaves the game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from validator.engine.badstuff import (
    apply_outcomes,
    change_level,
    detach_item,
    discard_character,
    receive_drawn,
    steal_level,
    take_card,
    take_card_or_character,
)

# The mutation tests name each mutant by the text it changes: the calls keep their old names.
from validator.engine.badstuff import from_hand_or_table as _from_hand_or_table
from validator.engine.cards import (
    CHARACTER_KINDS,
    AddMonster,
    AutomaticEscape,
    CancelCurse,
    CancelEscape,
    ChangeDieRoll,
    Cheat,
    CurseCard,
    CurseImmunity,
    DoubleStrength,
    ExtraCharacterCard,
    GainLevels,
    KillMonster,
    LevelCard,
    Mate,
    MonsterCard,
    MonsterEnhancerCard,
    OnlySlotBonuses,
    OutcomeBase,
    RemoveMonster,
    ReplaceMonster,
    SellDouble,
    StealLevel,
    TakeItemInCombat,
    TransferCombat,
)
from validator.engine.combat_specials import (
    end_if_empty,
    monster_arrives,
    monster_named,
    start_combat,
)
from validator.engine.combat_specials import names_match as _names_match
from validator.engine.combat_specials import send_monsters_away as _send_monsters_away
from validator.engine.legality import checks_passed
from validator.engine.narration import charity_lines, no_effect, sale_line
from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Combat,
    Game,
    MonsterInPlay,
    OneShotPlay,
    Player,
    RuleViolation,
    big_allowance,
    effects_of,
    gold_value,
    is_follower,
    is_item,
    is_monster,
    is_one_shot,
    remove_from,
    remove_monster,
    require_combat,
)
from validator.engine.strength import holds, side_is_winning, usable_by
from validator.engine.words import listed

JOINING_TAGS = ("undead", "shark", "in-black")
HANDS = {"one_hand": 1, "two_hands": 2}
SINGLE_SLOTS = ("headgear", "armor", "footgear", "vehicle")


# -- turn phases ------------------------------------------------------------------------


def begin_turn(game: Game) -> None:
    """Start the active player's turn: the dead come back, a fresh character draws its cards."""
    player = game.active_player
    game.note(f"Turn {game.turn_number}: {player.name}'s turn (Level {player.level})")
    for p in game.players:
        p.dead = False
    if player.needs_fresh_start:
        player.needs_fresh_start = False
        for deck in ("door", "treasure"):
            for _ in range(4):
                if game.can_draw(deck):
                    receive_drawn(game, player, game.draw(deck))
        game.note(f"{player.name} starts afresh and draws a new hand face down")
    player.double_sale_used = False
    player.draw_from_discard = False
    player.pending_discards = []
    game.phase = "start"
    game.fought_this_turn = False
    game.loot_after_transfer = False
    if game.options.faster_play and game.can_draw("door"):
        game.note(f"{player.name} listens at the door and draws a face-down Door card")
        receive_drawn(game, player, game.draw("door"))  # Listen at the Door, face down


def _require_phase(game: Game, player: Player, phase: str, what: str) -> None:
    if player is not game.active_player:
        raise RuleViolation(f"{what} only on your own turn, and it is {game.active_player.name}'s")
    if game.combat is not None:
        raise RuleViolation(f"{what}: not while a combat is going on")
    if game.phase != phase:
        raise RuleViolation(f"{what}: not in this phase of the turn ({game.phase})")


def kick_door(game: Game, player: Player) -> CardInstance:
    """Draw the top Door card face up: fight a monster, suffer a curse, or keep the card."""
    _require_phase(game, player, "start", "kicking open the door")
    if player.draw_from_discard and game.door_discard:
        checks_passed(game)
        card = game.door_discard.pop()  # Resurrection: the top of the discards instead
        game.note(f"{player.name} takes {card.name} from the Door discards")
        for payment in player.pending_discards:
            if payment in player.hand:
                remove_from(player.hand, payment)
                game.discard(payment)
        player.pending_discards = []
    elif not game.can_draw("door"):
        raise RuleViolation("the Door deck is empty")
    else:
        checks_passed(game)
        card = game.draw("door")
    player.draw_from_discard = False
    game.phase = "kicked"
    game.note(f"{player.name} kicks open the door: {card.name}")
    if is_monster(card.card):
        start_combat(game, player, card)
    elif isinstance(card.card, CurseCard):
        if any(
            usable_by(game, player, item) and effects_of(item.card, CurseImmunity)
            for item in player.equipped
        ):
            game.note(f"{card.name} has no effect on {player.name}")
            game.discard(card)
        else:
            apply_curse(game, card, player)
    else:
        receive_drawn(game, player, card)
    return card


def look_for_trouble(game: Game, player: Player, monster: CardInstance) -> None:
    _require_phase(game, player, "kicked", "looking for trouble")
    if game.fought_this_turn:
        raise RuleViolation("you already fought a monster this turn")
    if monster not in player.hand or not is_monster(monster.card):
        raise RuleViolation(f"{monster.name} is not a monster in {player.name}'s hand")
    checks_passed(game)
    remove_from(player.hand, monster)
    game.phase = "after_door"
    start_combat(game, player, monster)


def loot_room(game: Game, player: Player) -> CardInstance:
    _require_phase(game, player, "kicked", "looting the room")
    if game.fought_this_turn and not game.loot_after_transfer:
        raise RuleViolation("you fought a monster this turn, so there is no room to loot")
    deck = "treasure" if game.options.faster_play else "door"
    if not game.can_draw(deck):
        raise RuleViolation(f"no card to draw: the {deck} deck and its discards are empty")
    checks_passed(game)
    card = game.draw(deck)
    game.note(f"{player.name} loots the room and draws a face-down {deck.title()} card")
    receive_drawn(game, player, card)
    game.phase = "after_door"
    return card


def end_turn(game: Game) -> None:
    """Charity, then the next player's turn begins."""
    player = game.active_player
    if game.combat is not None:
        raise RuleViolation("the turn cannot end during a combat")
    checks_passed(game)
    charity(game, player)
    game.active = (game.active + 1) % len(game.players)
    game.turn_number += 1
    begin_turn(game)


def charity(game: Game, player: Player, receiver: Player | None = None) -> None:
    """Cards over the hand limit go to the lowest-Level player(s), or are discarded by them;
    `receiver`, one of those players, takes them all (the giver's choice among a tie)."""
    excess = len(player.hand) - player.hand_limit()
    if excess <= 0:
        return
    gifts = game.chooser.charity(game, player, excess)
    living = [p for p in game.players if not p.dead]
    lowest = min(p.level for p in living)
    receivers = [p for p in living if p.level == lowest and p is not player]
    if receiver is not None and receiver in receivers:
        receivers = [receiver]
    for card in gifts:
        remove_from(player.hand, card)
    if player.level == lowest or not receivers:
        game.discard_all(gifts)
        game.note(f"{player.name} discards {listed(c.name for c in gifts)}: too many cards")
        return
    for index, card in enumerate(gifts):
        receivers[index % len(receivers)].hand.append(card)
    game.note(*charity_lines(player, receivers, len(gifts)))


# -- items ------------------------------------------------------------------------


def _big_items(player: Player) -> list[CardInstance]:
    # A Ship is Big but does not count against the Big limit (Booty).
    return [i for i in player.items if i.big and i.slot != "ship" and i.uid not in player.cheats]


def _ships(player: Player) -> list[CardInstance]:
    return [i for i in player.items if i.slot == "ship" and i.uid not in player.cheats]


def check_can_hold(player: Player, card: CardInstance) -> None:
    if card.slot == "ship" and card.uid not in player.cheats and _ships(player):
        raise RuleViolation(
            f"{player.name} already has the Ship {_ships(player)[0].name}: one Ship at a time "
            "(Cheat! allows more)"
        )
    # A Ship is Big, yet it does not count against the Big limit, coming in any more than
    # held (Booty): a player with a Big item still takes a Ship.
    if (
        card.big
        and card.slot != "ship"
        and card.uid not in player.cheats
        and len(_big_items(player)) + 1 > big_allowance(player)
    ):
        held = ", ".join(i.name for i in _big_items(player))
        raise RuleViolation(
            f"{player.name} may carry only one Big item and already has {held}; sell, trade or "
            "lose it first (a Dwarf, a Hireling or Cheat! allows more)"
        )


def equip_problem(game: Game, player: Player, card: CardInstance) -> str | None:
    """Why this item cannot be equipped now (None when it can)."""
    refusal = _equip_refusal(game, player, card)
    return None if refusal is None else refusal()


def can_equip(game: Game, player: Player, card: CardInstance) -> bool:
    """Whether the item can be equipped now: equip_problem without wording the problem (the
    bots and every item put in play ask, and wording a restriction is the costly part)."""
    return _equip_refusal(game, player, card) is None


def _equip_refusal(game: Game, player: Player, card: CardInstance) -> Callable[[], str] | None:
    """None when the item can be equipped now, else what words the reason."""
    if card.uid in player.cheats:
        return None
    if not usable_by(game, player, card):
        return lambda: _unusable_reason(game, player, card)
    slot = card.slot
    others = [i for i in player.equipped if i is not card and i.uid not in player.cheats]
    if slot in SINGLE_SLOTS and any(i.slot == slot for i in others):
        current = next(i.name for i in others if i.slot == slot)
        return lambda: f"only one {slot} may be equipped, and {current} is"
    if slot in HANDS:
        used = sum(HANDS.get(i.slot, 0) for i in others)
        if used + HANDS[slot] > 2:
            return lambda: f"{card.name} needs {HANDS[slot]} hand(s) and only {2 - used} are free"
    return None


def _unusable_reason(game: Game, player: Player, card: CardInstance) -> str:
    restriction = getattr(card.card, "usable_by", None)
    forbidden = getattr(card.card, "not_usable_by", None)
    if restriction is not None and not holds(restriction, player, game):
        return f"{card.name} is usable only by {restriction.phrase()}"
    assert forbidden is not None
    return f"{card.name} is not usable by {forbidden.phrase()}"


def place_in_play(game: Game, player: Player, card: CardInstance) -> None:
    """Put an item on the table: equipped when the rules allow it, carried otherwise."""
    check_can_hold(player, card)
    if can_equip(game, player, card) and not is_one_shot(card.card):
        player.equipped.append(card)
    else:
        player.carried.append(card)


def _not_in_combat(game: Game, player: Player, what: str) -> None:
    combat = game.combat
    if combat is not None and player in combat.side:
        raise RuleViolation(f"{what}: not during a combat")


def equip(game: Game, player: Player, card: CardInstance) -> None:
    """Equip an item from the hand (own turn) or from those carried."""
    _not_in_combat(game, player, "changing items")
    if card in player.equipped:
        raise RuleViolation(f"{card.name} is already equipped")
    from_hand = card in player.hand
    if not from_hand and card not in player.carried:
        raise RuleViolation(f"{player.name} has no {card.name} to equip")
    if not is_item(card.card):
        raise RuleViolation(f"{card.name} is not an item that can be equipped")
    if from_hand:
        if player is not game.active_player:
            raise RuleViolation("items are played from the hand only on your own turn")
        check_can_hold(player, card)
    problem = equip_problem(game, player, card)
    if problem:
        raise RuleViolation(problem)
    checks_passed(game)
    if from_hand:
        remove_from(player.hand, card)
    else:
        remove_from(player.carried, card)
    player.equipped.append(card)


def unequip(game: Game, player: Player, card: CardInstance) -> None:
    _not_in_combat(game, player, "changing items")
    if card not in player.equipped:
        raise RuleViolation(f"{card.name} is not equipped")
    checks_passed(game)
    remove_from(player.equipped, card)
    player.carried.append(card)


def _tradable(player: Player, card: CardInstance) -> None:
    """Only cards on the table that are Items (or Sidekicks with a Gold value) change hands."""
    if card not in player.items and card not in player.followers:
        raise RuleViolation(f"{player.name} has no {card.name} on the table to trade")
    if card in player.followers and (card.kind != "sidekick" or gold_value(card.card) <= 0):
        raise RuleViolation(
            f"{card.name} is not an Item: only Sidekicks with a Gold value can be traded"
        )


def trade(
    game: Game,
    giver: Player,
    receiver: Player,
    given: Sequence[CardInstance],
    received: Sequence[CardInstance] = (),
) -> None:
    """Trade (or give away, when nothing comes back) Items from the table, outside combat.
    What changes hands stays in play: equipped when the receiver may use it, else carried."""
    if giver is receiver:
        raise RuleViolation("a player cannot trade with themselves")
    combat = game.combat
    for player in (giver, receiver):
        if combat is not None and player in combat.side:
            raise RuleViolation(f"{player.name} is in combat: no trading now")
        if player.dead:
            raise RuleViolation(f"{player.name} is dead and cannot receive or give cards")
    if not given and not received:
        raise RuleViolation("name what changes hands")
    for card in given:
        _tradable(giver, card)
    for card in received:
        _tradable(receiver, card)
    # Each side must be able to hold what it receives, once what it gives is gone.
    for player, gets, gives in ((receiver, given, received), (giver, received, given)):
        keeps = [i for i in player.items if i not in gives]
        big_after = sum(
            1 for i in keeps if i.big and i.slot != "ship" and i.uid not in player.cheats
        )
        incoming_big = sum(1 for c in gets if c.big and c.slot != "ship")
        if incoming_big and big_after + incoming_big > big_allowance(player):
            raise RuleViolation(f"{player.name} cannot carry another Big item")
        ships_after = sum(1 for i in keeps if i.slot == "ship" and i.uid not in player.cheats)
        if ships_after + sum(1 for c in gets if c.slot == "ship") > 1:
            raise RuleViolation(f"{player.name} may have only one Ship")
    checks_passed(game)
    # A Ship keeps the enhancers fitted to it when it changes hands.
    fitted = {c.uid: giver.ship_enhancers.pop(c.uid, []) for c in given}
    fitted |= {c.uid: receiver.ship_enhancers.pop(c.uid, []) for c in received}
    for card in given:
        take_card(game, giver, card)
    for card in received:
        take_card(game, receiver, card)
    for card in given:
        _receive(game, receiver, card)
        if fitted[card.uid]:
            receiver.ship_enhancers[card.uid] = fitted[card.uid]
    for card in received:
        _receive(game, giver, card)
        if fitted[card.uid]:
            giver.ship_enhancers[card.uid] = fitted[card.uid]
    game.note(f"{giver.name} trades with {receiver.name}")


def _receive(game: Game, player: Player, card: CardInstance) -> None:
    if is_follower(card.card):
        player.followers.append(card)
    elif can_equip(game, player, card) and not is_one_shot(card.card):
        player.equipped.append(card)
    else:
        player.carried.append(card)


def sell(game: Game, player: Player, cards: Sequence[CardInstance]) -> int:
    """Sell items (from hand or table) for a level per 1,000 Gold; no change; never to 10."""
    if player is not game.active_player:
        raise RuleViolation("items are sold only on your own turn")
    if game.combat is not None:
        raise RuleViolation("items cannot be sold during combat")
    if not cards:
        raise RuleViolation("name the items to sell")
    if len({c.uid for c in cards}) != len(cards):
        raise RuleViolation("each item can be sold once")
    for card in cards:
        # What the card is comes first: a Race on the table is refused as no item, not as a
        # card the player lacks (the items in play are only the equipped and the carried).
        if not (is_item(card.card) or is_one_shot(card.card)):
            raise RuleViolation(f"{card.name} is not an item and cannot be sold")
        if card not in player.hand and card not in player.items:
            raise RuleViolation(f"{player.name} has no {card.name} to sell")
    values = sorted((ship_gold(player, c) for c in cards), reverse=True)
    doubled = False
    if values and not player.double_sale_used and any(player.passive_effects(SellDouble)):
        values[0] *= 2
        doubled = True
    total = sum(values)
    levels = total // 1000
    if levels == 0:
        raise RuleViolation(f"selling needs at least 1,000 Gold of items; these make {total}")
    if player.level + levels >= WINNING_LEVEL:
        raise RuleViolation(
            f"selling cannot take you to Level {WINNING_LEVEL}: you must kill a monster for it"
        )
    checks_passed(game)
    for card in cards:
        take_card(game, player, card)
        game.discard(card)
    player.double_sale_used = player.double_sale_used or doubled
    game.note(sale_line(player, cards, [ship_gold(player, c) for c in cards], total, doubled))
    change_level(game, player, levels)
    return levels


# -- playing cards ------------------------------------------------------------------------


def play(
    game: Game,
    player: Player,
    card: CardInstance,
    *,
    target_player: Player | None = None,
    target_monster: str | None = None,
    with_card: CardInstance | None = None,
) -> None:
    """Play a card from the hand (or a one-shot from the table), as its kind allows."""
    if card not in player.hand and not (is_one_shot(card.card) and card in player.items):
        raise RuleViolation(f"{card.name} is not in {player.name}'s hand")
    definition = card.card
    if isinstance(definition, CurseCard):
        _play_curse(game, player, card, target_player or player)
    elif isinstance(definition, MonsterEnhancerCard):
        _play_enhancer(game, player, card, target_monster)
    elif isinstance(definition, LevelCard):
        _play_level(game, player, card, target_player or player)
    elif definition.kind_name in CHARACTER_KINDS:
        _play_character(game, player, card)
    elif is_one_shot(definition):
        _play_one_shot(game, player, card, target_player, target_monster, with_card)
    elif is_item(definition) and "ship-enhancer" in definition.tags:
        _fit_to_ship(game, player, card, with_card)
    elif is_item(definition):
        if game.combat is not None and player in game.combat.side:
            raise RuleViolation("items cannot be put into play during your combat")
        if player is not game.active_player:
            raise RuleViolation("items are played from the hand only on your own turn")
        check_can_hold(player, card)
        checks_passed(game)
        remove_from(player.hand, card)
        place_in_play(game, player, card)
        game.note(f"{player.name} puts {card.name} in play")
    elif is_follower(definition):
        if getattr(definition, "timing", "any") == "own_turn" and player is not game.active_player:
            raise RuleViolation(f"{card.name} is played only on your own turn")
        same = [f for f in player.followers if f.kind == card.kind]
        if card.kind == "sidekick" and same:
            raise RuleViolation(f"only one Sidekick at a time, and {same[0].name} is in play")
        checks_passed(game)
        remove_from(player.hand, card)
        if card.kind == "ally":
            for old in same:  # a new Ally takes the place of the old one
                take_card(game, player, old)
                game.discard(old)
        player.followers.append(card)
        game.note(f"{player.name} puts {card.name} in play")
    elif is_monster(definition):
        look_for_trouble(game, player, card)
    else:
        _play_other(game, player, card, target_player, target_monster, with_card)


def _fit_to_ship(game: Game, player: Player, card: CardInstance, ship: CardInstance | None) -> None:
    """A Ship enhancer is fitted to one of the player's Ships, and stays on it."""
    if game.combat is not None and player in game.combat.side:
        raise RuleViolation("items cannot be put into play during your combat")
    if player is not game.active_player:
        raise RuleViolation("items are played from the hand only on your own turn")
    if ship is None or ship not in player.items or ship.slot != "ship":
        raise RuleViolation(f"{card.name} is fitted to one of your Ships (with: SHIP)")
    checks_passed(game)
    remove_from(player.hand, card)
    player.ship_enhancers.setdefault(ship.uid, []).append(card)
    game.note(f"{player.name} fits {card.name} to {ship.name}")


def ship_gold(player: Player, card: CardInstance) -> int:
    """A Ship is worth its own Gold plus that of the enhancers fitted to it."""
    return gold_value(card.card) + sum(
        gold_value(e.card) for e in player.ship_enhancers.get(card.uid, ())
    )


def _play_curse(game: Game, player: Player, card: CardInstance, target: Player) -> None:
    checks_passed(game)
    remove_from(player.hand, card)
    apply_curse(game, card, target)


def apply_curse(game: Game, card: CardInstance, target: Player) -> None:
    """A curse hits its victim: outcomes at once, lasting parts stay with the victim."""
    definition = card.card
    assert isinstance(definition, CurseCard)
    disguises = target.meta("secret_identity")
    if definition.kind_name == "trap" and disguises:
        # Secret Identity: one try per Trap; 1-3 it misses, 6 it hits and the card is lost.
        roll = game.roll(target)
        if roll == 6:
            take_card_or_character(game, target, disguises[0])
        if roll <= 3:
            game.note(f"{card.name} misses {target.name} (Secret Identity, rolled {roll})")
            game.discard(card)
            return
    game.note(f"{card.name} hits {target.name}")
    outcomes = [e for e in definition.effects if isinstance(e, OutcomeBase)]
    lasting = [e for e in definition.effects if not isinstance(e, OutcomeBase)]
    acted = apply_outcomes(game, target, outcomes, source=card.name)
    game.note(*no_effect(card.name, target, acted or not outcomes))
    next_combat = any(
        getattr(e, "duration", None) == "next_combat" or isinstance(e, OnlySlotBonuses)
        for e in lasting
    )
    if next_combat:
        target.next_combat.append(card)
    elif lasting and definition.persistent:
        target.curses.append(card)
    else:
        game.discard(card)


def _play_enhancer(game: Game, player: Player, card: CardInstance, monster: str | None) -> None:
    combat = require_combat(game)
    target = monster_named(combat, monster)
    if target.mate_of is not None:
        target = target.mate_of  # enhancing a Mate enhances the pair
    checks_passed(game)
    remove_from(player.hand, card)
    target.enhancers.append(card)
    game.note(f"{player.name} plays {card.name} on {target.name}")


def _play_level(game: Game, player: Player, card: CardInstance, target: Player) -> None:
    definition = card.card
    assert isinstance(definition, LevelCard)
    if definition.timing == "after_combat":
        last = game.last_combat
        won = last is not None and last.outcome == "won"
        if game.combat is not None or not won or game.last_combat_turn != game.turn_number:
            raise RuleViolation(
                f"{card.name} is played only after a combat won this turn, once its Treasure "
                "is taken"
            )
    # Won, fled or lost: any fight of this turn that is over (fdask's post-combat state).
    if definition.timing == "after_any_combat" and (
        game.combat is not None
        or game.last_combat is None
        or game.last_combat_turn != game.turn_number
    ):
        raise RuleViolation(f"{card.name} is played only after a combat this turn is over")
    if definition.requires is not None and not holds(definition.requires, player, game):
        raise RuleViolation(f"{card.name} is playable only {definition.requires.requirement()}")
    gain = sum(e.amount for e in effects_of(definition, GainLevels))
    if target.level + gain >= WINNING_LEVEL:
        raise RuleViolation(
            f"{card.name} cannot give the winning level: Level {WINNING_LEVEL} needs a kill"
        )
    if target.dead:
        raise RuleViolation(f"{target.name} is dead and cannot go up a level")
    checks_passed(game)
    remove_from(player.hand, card)
    game.note(
        f"{player.name} plays {card.name}" + (f" on {target.name}" if target is not player else "")
    )
    others = [e for e in definition.effects if not isinstance(e, GainLevels)]
    apply_outcomes(game, player, others, source=card.name)
    change_level(game, target, gain)
    game.discard(card)


def _play_character(game: Game, player: Player, card: CardInstance) -> None:
    if player is not game.active_player:
        raise RuleViolation(f"a new {card.kind} is played only on your own turn")
    axis = card.kind
    if axis == "origin":  # any number of Origins
        checks_passed(game)
        remove_from(player.hand, card)
        player.character.append(card)
        return
    current = player.axis_cards(axis)
    if any(c.name == card.name for c in current):
        raise RuleViolation(f"{player.name} already is {card.name}: no two of the same card")
    if axis == "power":
        # Any number of Powers, as long as their total Rank stays within the Level.
        rank = getattr(card.card, "rank", None) or 1
        if player.power_ranks() + rank > player.power_limit():
            raise RuleViolation(
                f"{card.name} (Rank {rank}) would bring {player.name}'s Powers to a total Rank "
                f"of {player.power_ranks() + rank}, above Level {player.level}"
            )
        checks_passed(game)
        remove_from(player.hand, card)
        player.character.append(card)
        game.note(f"{player.name} gains the Power {card.name}")
        return
    checks_passed(game)
    remove_from(player.hand, card)
    limit = 1 + player.extra_slots(axis)
    while len(player.axis_cards(axis)) >= limit:
        # Playing a new one replaces the old: you cannot belong to more than the limit.
        discard_character(game, player, player.axis_cards(axis)[0])
    player.character.append(card)
    game.note(f"{player.name} becomes {card.name}")


def _play_one_shot(
    game: Game,
    player: Player,
    card: CardInstance,
    target_player: Player | None,
    target_monster: str | None,
    with_card: CardInstance | None,
) -> None:
    definition = card.card
    combat = game.combat
    effects = definition.effects
    if combat is None:
        if any(isinstance(e, CancelCurse) for e in effects):
            _cancel_curse(game, player, card, target_player or player)
            return
        outcomes = [e for e in effects if isinstance(e, OutcomeBase)]
        if outcomes:
            _from_hand_or_table(game, player, card)
            apply_outcomes(game, player, outcomes, source=card.name)
            game.discard(card)
            return
        if card in player.items:
            raise RuleViolation(f"{card.name} is used in combat, and there is none")
        if player is not game.active_player:
            raise RuleViolation("treasures are put on the table only on your own turn")
        _from_hand_or_table(game, player, card)
        place_in_play(game, player, card)
        return
    usable = getattr(definition, "usable_by", None)
    if usable is not None and not holds(usable, player, game):
        raise RuleViolation(f"{card.name} is usable only by {usable.phrase()}")
    if getattr(definition, "played_by", "anyone") == "combatant" and player not in combat.side:
        raise RuleViolation(f"{card.name} is played only by someone taking part in the combat")
    side = (
        "monster"
        if target_monster is not None and getattr(definition, "side", "either") != "player"
        else "player"
    )
    if getattr(definition, "side", "either") == "monster":
        side = "monster"
    monster = monster_named(combat, target_monster) if side == "monster" else None
    for effect in effects:  # every effect checked before anything changes
        if isinstance(effect, CancelCurse):
            _curse_to_cancel(game, player, effect, target_player or player)
        if isinstance(effect, DoubleStrength):
            if player not in combat.side:
                raise RuleViolation(f"{card.name} is for a player in the combat")
            if effect.when is not None and not holds(effect.when, player, game, combat):
                raise RuleViolation(f"{card.name} works only in {effect.when.phrase()}")
        if isinstance(effect, TransferCombat) and (
            target_player is None or target_player in combat.side
        ):
            raise RuleViolation(
                f"{card.name} needs another player (on: NAME) to take over the fight"
            )
        if isinstance(effect, RemoveMonster) and effect.count != "all":
            monster_named(combat, target_monster)
    _from_hand_or_table(game, player, card)
    combat.one_shots.append(OneShotPlay(card, player, side, monster))
    game.note(f"{player.name} plays {card.name} for the {side} side")
    for effect in effects:
        conditional = effect.when is not None and not isinstance(
            effect, DoubleStrength | KillMonster
        )
        if conditional and effect.when is not None and not holds(effect.when, player, game, combat):
            continue
        if isinstance(effect, RemoveMonster):
            victims = (
                list(combat.monsters)
                if effect.count == "all"
                else [monster_named(combat, target_monster)]
            )
            for victim in victims:
                remove_monster(game, combat, victim, treasures=effect.treasures)
        elif isinstance(effect, KillMonster):
            for victim in list(combat.monsters):
                if effect.when is None or _names_match(effect.when, victim):
                    combat.monsters.remove(victim)
                    combat.slain.append(victim)
                    combat.one_shots[-1].side = "spent"  # used to kill: no bonus as well
                    game.note(f"{card.name} kills {victim.name}")
        elif isinstance(effect, AutomaticEscape):
            if effect.timing == "after_failed_roll":
                combat.escape_after_fail.add(player.name)
            else:
                for member in combat.side[: effect.players] if player in combat.side else [player]:
                    combat.auto_escape[member.name] = 1
        elif isinstance(effect, TransferCombat):
            assert target_player is not None
            if combat.fighter is game.active_player:
                game.loot_after_transfer = True  # the first fighter may still Loot the Room
            combat.fighter = target_player
        elif isinstance(effect, ChangeDieRoll):
            combat.loaded_die[player.name] = 6
        elif isinstance(effect, CancelEscape):
            combat.glued.add((target_player or combat.fighter).name)
        elif isinstance(effect, CancelCurse):
            _cancel_curse(game, player, None, target_player or player)
        elif isinstance(effect, OutcomeBase):
            apply_outcomes(game, player, [effect], source=card.name)
    end_if_empty(game, combat)


def _curse_to_cancel(game: Game, player: Player, effect: CancelCurse, target: Player) -> None:
    """In a fight, a card that cancels a curse (when its condition holds) needs one in play on
    its target: checked with the card's other effects, before it is played."""
    applies = effect.when is None or holds(effect.when, player, game, game.combat)
    if applies and not (target.curses or target.next_combat):
        raise RuleViolation(f"{target.name} has no curse in play to cancel")


def _cancel_curse(game: Game, player: Player, card: CardInstance | None, target: Player) -> None:
    lasting = target.curses + target.next_combat
    if not lasting:
        raise RuleViolation(f"{target.name} has no curse in play to cancel")
    if card is not None:
        _from_hand_or_table(game, player, card)
        game.discard(card)
    curse = lasting[0]
    remove_from(target.curses if curse in target.curses else target.next_combat, curse)
    game.discard(curse)
    game.note(f"{player.name} cancels {curse.name} on {target.name}")


def _play_other(
    game: Game,
    player: Player,
    card: CardInstance,
    target_player: Player | None,
    target_monster: str | None,
    with_card: CardInstance | None,
) -> None:
    definition = card.card
    effects = definition.effects
    # What the card does is told by the kinds of effect it carries (one of these each, in the
    # five sets; a card carrying two of them is played as the first found here).
    kinds = card.effects_by_type
    if ExtraCharacterCard in kinds:
        extra = kinds[ExtraCharacterCard][0]
        axis = extra.axis
        if player is not game.active_player:
            raise RuleViolation(f"{card.name} is played when you could play a {axis}: your turn")
        if extra.needs_host and not player.axis_cards(axis):
            raise RuleViolation(f"{card.name} needs a {axis} card in play to attach to")
        on_axis = [
            a
            for a in player.attachments
            if any(e.axis == axis for e in effects_of(a.card, ExtraCharacterCard))
        ]
        if on_axis:
            # Such cards do not stack: no Double-Triple Agent, no second Super Munchkin.
            raise RuleViolation(f"{player.name} already has {on_axis[0].name} for the {axis}")
        checks_passed(game)
        remove_from(player.hand, card)
        player.attachments.append(card)
        return
    if Cheat in kinds:
        _play_cheat(game, player, card, with_card)
        return
    if AddMonster in kinds:
        combat = require_combat(game)
        if with_card is None or with_card not in player.hand or not is_monster(with_card.card):
            raise RuleViolation(
                f"{card.name} needs a monster from {player.name}'s hand (with: NAME)"
            )
        checks_passed(game)
        remove_from(player.hand, card)
        remove_from(player.hand, with_card)
        combat.spent.append(card)
        add_monster(game, combat, with_card)
        return
    if Mate in kinds:
        combat = require_combat(game)
        original = monster_named(combat, target_monster)
        if original.mate_of is not None:
            original = original.mate_of
        checks_passed(game)
        remove_from(player.hand, card)
        combat.monsters.append(MonsterInPlay(card, mate_of=original))
        game.note(f"{original.name} gets a Mate")
        return
    if ReplaceMonster in kinds:
        combat = require_combat(game)
        old = monster_named(combat, target_monster)
        if with_card is None or with_card not in player.hand or not is_monster(with_card.card):
            raise RuleViolation(
                f"{card.name} needs a monster from {player.name}'s hand (with: NAME)"
            )
        checks_passed(game)
        remove_from(player.hand, card)
        remove_from(player.hand, with_card)
        combat.monsters.remove(old)
        combat.removed.append((old, False))
        combat.spent.append(card)
        add_monster(game, combat, with_card)
        return
    if TakeItemInCombat in kinds:
        _help_me_out(game, player, card, target_player, with_card)
        return
    if RemoveMonster in kinds:
        combat = require_combat(game)
        checks_passed(game)
        remove_from(player.hand, card)
        _send_monsters_away(game, combat, card)
        return
    outcomes = [e for e in effects if isinstance(e, OutcomeBase)]
    if outcomes:
        steals = [e for e in outcomes if isinstance(e, StealLevel)]
        if steals and player.level >= WINNING_LEVEL - 1:
            raise RuleViolation(f"{card.name} cannot give the winning level")
        if steals and target_player is not None:
            if target_player is player or target_player.level <= 1:
                raise RuleViolation(f"{card.name} needs another player above Level 1 to steal from")
            checks_passed(game)
            remove_from(player.hand, card)
            steal_level(game, player, target_player, card)
        else:
            checks_passed(game)
            remove_from(player.hand, card)
            apply_outcomes(game, player, outcomes, source=card.name)
        game.discard(card)
        return
    raise RuleViolation(f"{card.name} cannot be played now")


def add_monster(game: Game, combat: Combat, monster: CardInstance) -> None:
    entry = MonsterInPlay(monster)
    combat.monsters.append(entry)
    game.note(f"{monster.name} joins the fight")
    monster_arrives(game, combat, entry)
    end_if_empty(game, combat)


def join_monster(game: Game, player: Player, monster: CardInstance) -> None:
    """Play a monster from the hand into a fight by a joining tag (Undead, Shark, In Black)."""
    combat = require_combat(game)
    if monster not in player.hand or not isinstance(monster.card, MonsterCard):
        raise RuleViolation(f"{monster.name} is not a monster in {player.name}'s hand")
    shared = [
        tag
        for tag in JOINING_TAGS
        if tag in monster.card.tags and any(tag in m.monster.tags for m in combat.monsters)
    ]
    if not shared:
        raise RuleViolation(
            f"{monster.name} can join only a fight with a monster sharing a joining tag "
            f"({', '.join(JOINING_TAGS)}); otherwise it needs Wandering Monster"
        )
    checks_passed(game)
    remove_from(player.hand, monster)
    add_monster(game, combat, monster)


def _play_cheat(game: Game, player: Player, card: CardInstance, item: CardInstance | None) -> None:
    if item is None:
        raise RuleViolation(f"{card.name} is attached to one of your items (with: ITEM)")
    if item.uid in player.cheats:
        raise RuleViolation(f"{item.name} already has {card.name}")
    if item in player.hand:
        _not_in_combat(game, player, "putting an item into play")
        if player is not game.active_player:
            raise RuleViolation("items are played from the hand only on your own turn")
    elif item not in player.items:
        raise RuleViolation(f"{player.name} has no {item.name}")
    checks_passed(game)
    remove_from(player.hand, card)
    player.cheats[item.uid] = card
    if item in player.hand:
        remove_from(player.hand, item)
        player.equipped.append(item)
    elif item in player.carried:
        remove_from(player.carried, item)
        player.equipped.append(item)


def _help_me_out(
    game: Game,
    player: Player,
    card: CardInstance,
    owner: Player | None,
    item: CardInstance | None,
) -> None:
    combat = require_combat(game)
    if player is not combat.fighter:
        raise RuleViolation(f"{card.name} is played by the fighter")
    if owner is None or item is None or item not in owner.items:
        raise RuleViolation(f"{card.name} needs a rival's item (on: PLAYER, with: ITEM)")
    if side_is_winning(game, combat):
        raise RuleViolation(f"{card.name} works only when you are losing")
    checks_passed(game)  # a trial stops here: the item is weighed by moving it
    detach_item(game, owner, item)
    player.equipped.append(item)
    if not side_is_winning(game, combat):
        player.equipped.remove(item)
        owner.equipped.append(item)
        raise RuleViolation(f"{item.name} would not turn the fight into a win")
    remove_from(player.hand, card)
    combat.spent.append(card)


def sacrifice(
    game: Game, player: Player, follower: CardInstance, *, helper_escapes: bool = True
) -> None:
    """Discard an ally or sidekick instead of rolling: automatic escape from every monster.
    The fighter decides whether the helper escapes too, or must roll."""
    combat = require_combat(game)
    if player not in combat.side:
        raise RuleViolation(f"{player.name} is not fighting")
    # What the card is comes first: an item on the table is refused as no Ally, not as a
    # follower the player lacks.
    if follower.kind not in ("ally", "sidekick"):
        raise RuleViolation(
            f"{follower.name} is not an Ally or a Sidekick and cannot be sacrificed to escape"
        )
    if follower not in player.followers:
        raise RuleViolation(f"{player.name} has no {follower.name} in play")
    checks_passed(game)
    remove_from(player.followers, follower)
    game.discard(follower)
    game.note(f"{player.name} sacrifices {follower.name} to escape")
    combat.sacrificed.add(player.name)
    if player is combat.fighter and combat.helper is not None and helper_escapes:
        combat.sacrificed.add(combat.helper.name)
