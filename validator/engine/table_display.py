"""What a seat sees of a table (`table_view`: everything on the table, hand sizes and only its own
hand) and a move in words (`describe_move`), for the table page and its buttons."""

from __future__ import annotations

from typing import Any

from validator.engine.state import CardInstance, item_bonus
from validator.engine.strength import (
    monsters_strength,
    side_is_winning,
    side_member_strength,
    side_strength,
)
from validator.engine.table import Table, seats_to_move
from validator.engine.table_moves import Move, treasures_words


def _card_json(card: CardInstance) -> dict[str, Any]:
    return {"id": card.uid, "name": card.name, "set": card.set_code, "kind": card.kind}


def table_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The table as `seat` sees it: everything on the table, hand sizes, and only its own
    hand (None: a spectator, who sees no hand)."""
    game = table.game
    players = []
    for index, p in enumerate(game.players):
        players.append(
            {
                "seat": index,
                "name": p.name,
                "kind": table.seats[index],
                "level": p.level,
                "sex": p.sex,
                "dead": p.dead,
                "character": [_card_json(c) for c in p.character],
                "equipped": [_card_json(c) for c in p.equipped],
                "carried": [_card_json(c) for c in p.carried],
                "followers": [_card_json(c) for c in p.followers],
                "curses": [_card_json(c) for c in p.curses],
                "hand_size": len(p.hand),
                "gear_bonus": sum(item_bonus(c.card) for c in p.equipped),
            }
        )
    combat = game.combat
    combat_view: dict[str, Any] | None = None
    if combat is not None:
        combat_view = {
            "fighter": game.players.index(combat.fighter),
            "helper": game.players.index(combat.helper) if combat.helper is not None else None,
            "monsters": [
                {
                    "card": _card_json(m.card),
                    "level": m.monster.level,
                    "enhancers": [_card_json(e) for e in m.enhancers],
                }
                for m in combat.monsters
            ],
            "one_shots": [_card_json(p.card) for p in combat.one_shots],
            "side_strength": side_strength(game, combat),
            "monster_strength": monsters_strength(game, combat),
        }
    return {
        "seat": seat,
        "turn": game.turn_number,
        "active": game.active,
        "phase": game.phase,
        "over": table.over,
        "winners": table.winners,
        "waiting_for": seats_to_move(table),
        "asked": _asked_view(table),
        "window": (
            {"seats": list(table.window), "fighter": game.players.index(combat.fighter)}
            if table.window is not None and combat is not None
            else None
        ),
        "choice": _choice_view(table),
        "offered": _offered_view(table),
        "players": players,
        "hand": [_card_json(c) for c in game.players[seat].hand] if seat is not None else None,
        "decks": {
            "door": len(game.door_deck),
            "treasure": len(game.treasure_deck),
            "door_discard": [_card_json(c) for c in game.door_discard[-5:]],
            "treasure_discard": [_card_json(c) for c in game.treasure_discard[-5:]],
        },
        "combat": combat_view,
        "moves_made": len(table.log),
        "log": log_entries(table),
    }


def log_entries(table: Table) -> list[dict[str, Any]]:
    """The whole log in words, each line with the turn it was written in."""
    game = table.game
    turns: list[int] = list(getattr(game, "log_turns", []))
    if len(turns) != len(game.log):
        turns = [0] * len(game.log)
    return [{"turn": t, "text": line} for t, line in zip(turns, game.log, strict=True)]


def _asked_view(table: Table) -> dict[str, Any] | None:
    """A request for help waiting for its answer: who asks whom, for how many Treasures, and
    the fight's strengths with the helper and without."""
    game = table.game
    combat = game.combat
    if table.asked is None or combat is None:
        return None
    seat, treasures = table.asked
    helper = game.players[seat]
    return {
        "seat": seat,
        "treasures": treasures,
        "by": game.players.index(combat.fighter),
        "monsters_names": [m.name for m in combat.monsters],
        "without_you": side_strength(game, combat),
        "with_you": side_strength(game, combat) + side_member_strength(game, combat, helper),
        "monsters": monsters_strength(game, combat),
    }


def _offered_view(table: Table) -> dict[str, Any] | None:
    """An offer of help waiting for the fighter: who offers, for how many Treasures, and the
    fight's strengths with the helper and without."""
    game = table.game
    combat = game.combat
    if table.offered is None or combat is None:
        return None
    seat, treasures = table.offered
    helper = game.players[seat]
    return {
        "seat": seat,
        "treasures": treasures,
        "without_helper": side_strength(game, combat),
        "with_helper": side_strength(game, combat) + side_member_strength(game, combat, helper),
        "monsters": monsters_strength(game, combat),
    }


def _choice_view(table: Table) -> dict[str, Any] | None:
    """The question a person must answer now, with the cards to choose from."""
    if table.pending is None:
        return None
    cards = {
        c.uid: _card_json(c) for p in table.game.players for c in [*p.hand, *p.in_play(), *p.curses]
    }
    return table.pending.question.as_json(cards)


def describe_move(table: Table, seat: int, move: Move) -> str:
    """The move in words, for a button or the log."""
    game = table.game
    player = game.players[seat]
    cards = {c.uid: c.name for p in game.players for c in [*p.hand, *p.in_play()]}

    def name(uid: int) -> str:
        return cards.get(uid, f"card #{uid}")

    if "play" in move:
        text = f"Play {name(move['play'])}"
        if "with" in move:
            text += f" with {name(move['with'])}"
        if "on" in move:
            text += f" on {move['on']}"
        return text
    if "use" in move:
        paid = move.get("discard") or []
        text = f"Use {name(move['use'])}: {move.get('ability') or 'ability'}"
        return text + (f", discarding {', '.join(map(name, paid))}" if paid else "")
    if "sell" in move:
        return "Sell " + ", ".join(map(name, move["sell"]))
    if "give" in move:
        return f"Give {', '.join(map(name, move['give']))} to {move.get('to')}"
    if "bribe" in move:
        return f"Bribe {move.get('on') or 'the monster'} with {name(move['bribe'])}"
    if "decline" in move:
        return f"Walk past {move['decline']} (no reward)"
    if "chase" in move:
        return f"Chase {move['chase']} away"
    if "join" in move:
        return f"Send {name(move['join'])} into the fight (it joins one of its kind)"
    if "ask_for_help" in move:
        return f"Ask {move['ask_for_help']} for help, offering " + treasures_words(
            move.get("treasures", 0)
        )
    if "resolve" in move:
        combat = game.combat
        if combat is not None and combat.fighter is player and not side_is_winning(game, combat):
            return "Run away"
        return "Fight"
    for verb, words in (
        ("look_for_trouble", "Look for trouble with"),
        ("equip", "Equip"),
        ("sacrifice", "Sacrifice"),
        ("unequip", "Unequip"),
        ("discard_card", "Discard from play:"),
    ):
        if verb in move:
            return f"{words} {name(move[verb])}"
    if "charity" in move:
        given = f"Give {name(move['charity'])} away as charity"
        return given + (f" to {move['to']}" if "to" in move else "")
    if {"offer_help", "accept_help", "decline_help"} & set(move):
        return _describe_offer(table, move)
    if "choose" in move:
        picked = move["choose"]
        return "Choose " + (", ".join(map(name, picked)) if picked else "nothing")
    if "choose_option" in move:
        question = table.pending.question if table.pending is not None else None
        index = move["choose_option"]
        if question is not None and 0 <= index < len(question.options):
            return f"Choose: {question.options[index]}"
        return f"Choose option {index + 1}"
    for verb, words in (
        ("pass", "Pass: let the fight go on"),
        ("kick_door", "Kick open the door"),
        ("loot_room", "Loot the room"),
        ("help", "Help"),
        ("refuse_help", "Refuse to help"),
        ("end_turn", "End the turn"),
    ):
        if verb in move:
            return words
    return str(move)


def _describe_offer(table: Table, move: Move) -> str:
    """An offer of help, and the fighter's answer to it, in words."""
    if "offer_help" in move:
        return f"Offer to help for {treasures_words(move['offer_help'])}"
    offer = table.offered
    helper = table.game.players[offer[0]].name if offer is not None else "the rival"
    wanted = treasures_words(offer[1]) if offer is not None else "nothing agreed"
    if "accept_help" in move:
        return f"Accept {helper}'s help ({wanted})"
    return f"Turn down {helper}'s help"
