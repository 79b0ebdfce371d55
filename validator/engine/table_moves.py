"""A move at a table: its vocabulary and shape, the cards, players and monsters it names, and
the moves worth trying for a seat (validator/engine/table.py applies them).

A move is a small JSON object in the scenario files' vocabulary, one verb and its arguments,
with cards named by their instance number (the table's docstring lists them).
"""

from __future__ import annotations

from typing import Any

from validator.engine import turn
from validator.engine.bots import cheapest_sale
from validator.engine.cards import (
    AddMonster,
    Bribe,
    ChaseAway,
    CurseCard,
    LevelCard,
    MayDecline,
    MonsterCard,
    MonsterEnhancerCard,
    OneShotCard,
)
from validator.engine.choices import DefaultChooser, card_worth
from validator.engine.legality import checks_passed
from validator.engine.state import (
    CardInstance,
    Combat,
    Game,
    Player,
    RuleViolation,
    effects_of,
    is_item,
    is_monster,
    is_one_shot,
)

MOVE_VERBS = (
    "kick_door",
    "look_for_trouble",
    "loot_room",
    "play",
    "equip",
    "sell",
    "use",
    "sacrifice",
    "ask_for_help",
    "help",
    "refuse_help",
    "resolve",
    "charity",
    "end_turn",
    "unequip",
    "give",
    "discard_card",
    "decline",
    "bribe",
    "chase",
    "join",
    "pass",
    "choose",
    "choose_option",
    "offer_help",
    "accept_help",
    "decline_help",
)
# The arguments each verb takes besides its own key.
_ARGUMENTS: dict[str, frozenset[str]] = {
    "play": frozenset({"on", "with"}),
    "use": frozenset({"ability", "discard", "on"}),
    "ask_for_help": frozenset({"treasures"}),
    "give": frozenset({"to"}),
    "charity": frozenset({"to"}),
    "bribe": frozenset({"on"}),
}
MAX_LIST = 60  # cards named by one move (sell, discard): a hand never holds more


def treasures_words(count: int) -> str:
    """'1 Treasure', '2 Treasures': as players say it."""
    return f"{count} Treasure" if count == 1 else f"{count} Treasures"


class MoveError(RuleViolation):
    """A move that is not a move: unknown verb, wrong shape, a card the seat does not hold."""


Move = dict[str, Any]


def validate_move(move: object) -> tuple[str, Move]:
    """The verb of a well-formed move; MoveError names what is wrong with any other."""
    if not isinstance(move, dict):
        raise MoveError('a move is an object such as {"kick_door": true}')
    verbs = [key for key in move if key in MOVE_VERBS]
    if len(verbs) != 1:
        raise MoveError(
            "a move names exactly one of: " + ", ".join(MOVE_VERBS)
            if not verbs
            else f"a move names one verb, not {', '.join(verbs)}"
        )
    verb = verbs[0]
    extra = set(move) - {verb} - _ARGUMENTS.get(verb, frozenset())
    if extra:
        raise MoveError(f"{verb}: unknown argument {sorted(extra)[0]!r}")
    value = move[verb]
    if verb in (
        "look_for_trouble",
        "play",
        "equip",
        "sacrifice",
        "charity",
        "use",
        "unequip",
        "discard_card",
        "bribe",
        "join",
    ):
        _uid(value, verb)
    elif verb in ("sell", "give", "choose"):
        _uids(value, verb, empty=verb == "choose")
        if verb == "give" and (not isinstance(move.get("to"), str) or len(move["to"]) > 40):
            raise MoveError('give.to: name the player who receives, such as "P2"')
    elif verb in ("decline", "chase"):
        if not isinstance(value, str) or not value or len(value) > 200:
            raise MoveError(f"{verb}: the name of a monster in the fight")
    elif verb == "offer_help":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 20:
            raise MoveError("offer_help: the Treasures wanted, a whole number from 0 to 20")
    elif verb == "choose_option":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 100:
            raise MoveError("choose_option: the number of an option, from 0")
    elif verb == "ask_for_help":
        if not isinstance(value, str) or len(value) > 40:
            raise MoveError('ask_for_help: name the player asked, such as "P2"')
        treasures = move.get("treasures", 0)
        if (
            not isinstance(treasures, int)
            or isinstance(treasures, bool)
            or not 0 <= treasures <= 20
        ):
            raise MoveError("ask_for_help.treasures: a whole number of Treasures from 0 to 20")
    elif value is not True:
        raise MoveError(f'{verb}: the value is true, as in {{"{verb}": true}}')
    if (
        verb == "charity"
        and "to" in move
        and (not isinstance(move["to"], str) or len(move["to"]) > 40)
    ):
        raise MoveError('charity.to: name the player who receives, such as "P2"')
    if "on" in move and (not isinstance(move["on"], str) or len(move["on"]) > 200):
        raise MoveError(f"{verb}.on: the name of a player or of a monster in the fight")
    if "with" in move:
        _uid(move["with"], f"{verb}.with")
    if "discard" in move:
        _uids(move["discard"], f"{verb}.discard", empty=True)
    if "ability" in move and (not isinstance(move["ability"], str) or len(move["ability"]) > 80):
        raise MoveError(f'{verb}.ability: the ability\'s name, such as "berserking"')
    return verb, move


def _uid(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 10**9:
        raise MoveError(f"{where}: a card's number (a whole number above 0)")
    return value


def _uids(value: object, where: str, *, empty: bool = False) -> list[int]:
    if not isinstance(value, list) or len(value) > MAX_LIST or (not value and not empty):
        raise MoveError(f"{where}: a list of 1 to {MAX_LIST} card numbers")
    return [_uid(v, where) for v in value]


def held_card(player: Player, uid: int, where: str = "all") -> CardInstance:
    """The player's card numbered `uid`, in hand, in play ("table") or either ("all")."""
    pools: list[list[CardInstance]] = []
    if where in ("all", "hand"):
        pools.append(player.hand)
    if where in ("all", "table"):
        pools += [player.carried, player.equipped, player.followers, player.character]
    for pool in pools:
        for card in pool:
            if card.uid == uid:
                return card
    place = {"hand": "in their hand", "table": "in play"}.get(where, "in hand or in play")
    raise MoveError(f"{player.name} has no card #{uid} {place}")


def charity_receivers(game: Game, player: Player) -> list[Player]:
    """Who charity goes to: the living players of the lowest Level but the giver (none when
    the giver is of the lowest Level: the cards are discarded)."""
    living = [p for p in game.players if not p.dead]
    lowest = min(p.level for p in living)
    if player.level == lowest:
        return []
    return [p for p in living if p.level == lowest and p is not player]


def give_charity(game: Game, player: Player, card: CardInstance, to: Player | None = None) -> None:
    """Give one card over the hand limit to the lowest-Level player (or discard it): the
    table's `charity` move and the scenario step of the same name. `to` chooses among
    players tied at the lowest Level (by default the first of them)."""
    if to is not None:
        receivers = charity_receivers(game, player)
        if to not in receivers:
            names = " or ".join(p.name for p in receivers) or "no one (the card is discarded)"
            raise RuleViolation(f"charity goes to the lowest-Level player: {names}")
    checks_passed(game)

    class _Gift(DefaultChooser):
        def charity(self, game: Game, player: Player, excess: int) -> list[CardInstance]:
            return [card]

    chooser = game.chooser
    game.chooser = _Gift()
    try:
        turn.charity(game, player, receiver=to)
    finally:
        game.chooser = chooser
    game.note(f"{player.name} gives a card away as charity")


def named_monster(game: Game, name: str | None) -> str | None:
    """A monster of the fight by name (None: the only one), or MoveError."""
    if game.combat is None:
        raise RuleViolation("only during a combat")
    if name is not None and not any(
        m.name.casefold() == name.casefold() for m in game.combat.monsters
    ):
        raise MoveError(f"{name!r} is not a monster in the fight")
    return name


def named_player(game: Game, name: str) -> Player:
    """The player of that name (any case), or MoveError."""
    for p in game.players:
        if p.name.casefold() == name.casefold():
            return p
    raise MoveError(f"there is no player named {name!r}")


def move_target(game: Game, on: str | None) -> tuple[Player | None, str | None]:
    """`on` names a player or, failing that, a monster in the fight (as in scenarios)."""
    if on is None:
        return None, None
    if any(p.name.casefold() == on.casefold() for p in game.players):
        return named_player(game, on), None
    if game.combat is None or not any(
        m.name.casefold() == on.casefold() for m in game.combat.monsters
    ):
        raise MoveError(f"{on!r} is neither a player nor a monster in the fight")
    return None, on


def card_to_play_with(
    game: Game, player: Player, target: Player | None, uid: int | None
) -> CardInstance | None:
    """The card numbered `uid` that a play uses (a monster sent in with Wandering Monster),
    in the player's or the target's hand or play (None: no `with`)."""
    if uid is None:
        return None
    for owner in (player, target):
        if owner is None:
            continue
        for card in [*owner.hand, *owner.in_play()]:
            if card.uid == uid:
                return card
    raise MoveError(f"there is no card #{uid} to play with")


def candidate_moves(
    game: Game, seat: int, *, asked: tuple[int, int] | None, asked_before: set[int]
) -> list[Move]:
    """Moves worth trying for `seat`, given the table's request for help waiting (`asked`: the
    seat asked and the Treasures offered) and the seats asked before in this combat;
    legal_moves keeps those the rules accept."""
    player = game.players[seat]
    if asked is not None:
        return [{"help": True}, {"refuse_help": True}] if asked[0] == seat else []
    combat = game.combat
    moves: list[Move] = []
    active = seat == game.active
    if active and combat is None:
        moves.append({"kick_door": True})
        moves += [{"look_for_trouble": c.uid} for c in player.hand if is_monster(c.card)]
        moves.append({"loot_room": True})
    moves += _card_plays(game, player, active=active)
    if combat is None:
        moves += _moves_with_cards_in_play(game, player)
    moves += [{"discard_card": c.uid} for c in player.character]
    if combat is not None:
        moves += _moves_against_monsters(combat, player)
    if active and combat is None:
        sale = cheapest_sale(player)
        if sale:
            moves.append({"sell": [c.uid for c in sale]})
    moves += _ability_uses(player)
    if combat is not None:
        moves += _fight_moves(game, combat, player, asked_before)
    if active and combat is None:
        if len(player.hand) > player.hand_limit():
            receivers = charity_receivers(game, player)
            if len(receivers) > 1:  # a tie at the lowest Level: the giver chooses
                moves += [{"charity": c.uid, "to": p.name} for c in player.hand for p in receivers]
            else:
                moves += [{"charity": c.uid} for c in player.hand]
        moves.append({"end_turn": True})
    return moves


def _card_plays(game: Game, player: Player, *, active: bool) -> list[Move]:
    """The plays of the cards in hand and of the one-shots in play, each card's ways once."""
    combat = game.combat
    monsters = [m.name for m in combat.monsters] if combat is not None else []
    names = [p.name for p in game.players]
    moves: list[Move] = []
    seen: set[tuple[str, tuple[Any, ...]]] = set()
    for card in [*player.hand, *(c for c in player.items if is_one_shot(c.card))]:
        definition = card.card
        key = (definition.name, ())
        if key in seen:
            continue  # two copies of one card: the same moves
        seen.add(key)
        if is_monster(definition):
            continue  # looked for trouble above, or sent in with a Wandering Monster
        if isinstance(definition, MonsterEnhancerCard):
            moves += [{"play": card.uid, "on": m} for m in monsters]
        elif isinstance(definition, CurseCard):
            moves += [{"play": card.uid, "on": n} for n in names]
        elif isinstance(definition, LevelCard):
            moves.append({"play": card.uid})
        elif effects_of(definition, AddMonster):
            moves += [
                {"play": card.uid, "with": m.uid}
                for m in player.hand
                if isinstance(m.card, MonsterCard)
            ]
        elif isinstance(definition, OneShotCard):
            moves.append({"play": card.uid})
            moves += [{"play": card.uid, "on": m} for m in monsters]
        elif is_item(definition) and card in player.hand and (not active or combat is not None):
            continue  # items come into play only on their owner's turn, outside combat
        else:
            moves.append({"play": card.uid})
    return moves


def _moves_with_cards_in_play(game: Game, player: Player) -> list[Move]:
    """Outside combat: equip, unequip, and give items (or a sidekick) to a living rival."""
    moves: list[Move] = [{"equip": c.uid} for c in player.carried if is_item(c.card)]
    moves += [{"unequip": c.uid} for c in player.equipped]
    others = [p.name for p in game.others(player) if not p.dead]
    gifts = [*player.items, *(f for f in player.followers if f.kind == "sidekick")]
    moves += [{"give": [c.uid], "to": name} for c in gifts for name in others]
    return moves


def _moves_against_monsters(combat: Combat, player: Player) -> list[Move]:
    """What the monsters' cards allow (walking past, a bribe, chasing away), and monsters sent
    into the fight from the hand."""
    moves: list[Move] = []
    for m in combat.monsters:
        definition = m.monster
        if player is combat.fighter and effects_of(definition, MayDecline):
            moves.append({"decline": m.name})
        if player is combat.fighter and effects_of(definition, Bribe):
            moves += [
                {"bribe": c.uid, "on": m.name}
                for c in [*player.hand, *player.items]
                if is_item(c.card)
            ]
        if player in combat.side and effects_of(definition, ChaseAway):
            moves.append({"chase": m.name})
    moves += [{"join": c.uid} for c in player.hand if isinstance(c.card, MonsterCard)]
    return moves


def _ability_uses(player: Player) -> list[Move]:
    """Each ability of the player's character cards and followers: paid with no discard, and
    with the least worth cards it may take."""
    moves: list[Move] = []
    for source in [*player.character, *player.followers]:
        for ability in getattr(source.card, "abilities", []):
            moves.append({"use": source.uid, "ability": ability.slug, "discard": []})
            cost = ability.cost
            wanted = (cost.discard_up_to or cost.discard) if cost is not None else 0
            spare = sorted(
                (c for c in player.hand if not isinstance(c.card, MonsterCard | CurseCard)),
                key=card_worth,
            )
            if wanted and len(spare) >= 1:
                moves.append(
                    {
                        "use": source.uid,
                        "ability": ability.slug,
                        "discard": [c.uid for c in spare[:wanted]],
                    }
                )
    return moves


def _fight_moves(game: Game, combat: Combat, player: Player, asked_before: set[int]) -> list[Move]:
    """The fighter's requests for help (none, half or all of the Treasure offered to each rival
    not asked before) and the resolution; the side's sacrifices of followers."""
    moves: list[Move] = []
    if player is combat.fighter:
        if combat.helper is None:
            offered = sum(m.monster.treasures or 0 for m in combat.monsters)
            for other in game.others(player):
                if game.players.index(other) in asked_before:
                    continue
                for treasures in sorted({0, max(1, offered // 2), offered}):
                    moves.append({"ask_for_help": other.name, "treasures": treasures})
        moves.append({"resolve": True})
    if player in combat.side:
        moves += [{"sacrifice": f.uid} for f in player.followers]
    return moves
