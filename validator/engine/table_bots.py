"""The bots at a table: each bot seat's move when the game waits for it (the simulated bots'
choices of validator/engine/bots.py, taken as moves through the same rules), and the bots'
interference in a person's fight."""

from __future__ import annotations

from validator.engine.bot_policy import SHREWD, Play
from validator.engine.bots import (
    arrangements,
    beatable_monster,
    refused,
)
from validator.engine.cards import OneShotCard
from validator.engine.state import (
    WINNING_LEVEL,
    Combat,
    Game,
    Player,
    RuleViolation,
    is_item,
    item_bonus,
)
from validator.engine.strength import (
    monsters_strength,
    side_is_winning,
    side_member_strength,
    side_strength,
)
from validator.engine.table import (
    Table,
    apply_in_place,
    candidates,
    copy_table,
    legal_moves,
    move_refusal,
    seats_to_move,
)
from validator.engine.table_choices import ChoiceNeeded
from validator.engine.table_moves import Move

# A bot makes at most this many moves in a row before a person must move again: a bound on a
# bug's loop, far above a real turn's moves.
MAX_BOT_MOVES = 200


def run_bots(table: Table) -> Table:
    """Let bot seats move while the game waits for a bot: their moves go into the log. Returns
    a new table (the given one is left as it was)."""
    table = copy_table(table)
    _run_bots(table)
    return table


def _run_bots(table: Table) -> None:
    moved = 0
    while not table.over and moved < MAX_BOT_MOVES:
        waiting = [s for s in seats_to_move(table) if table.seats[s] == "bot"]
        if not waiting:
            break
        _bot_plays(table, waiting[0])
        moved += 1


def _bot_window_preferences(table: Table, seat: int) -> list[Move]:
    """A bot's answer in a reaction window: while the fighter's side would win, the cheapest
    card that turns the fight (once a fight, never from the fighter's own side), when the bot
    wants this fighter to lose; else it passes."""
    game = table.game
    combat = game.combat
    player = game.players[seat]
    if (
        combat is not None
        and seat not in table.interfered
        and player not in combat.side
        and side_is_winning(game, combat)
        and _meddles_in(table, seat)
    ):
        turned = _interference(table, seat)
        if turned is not None:
            return [turned, {"pass": True}]
    return [{"pass": True}]


def _bot_offer_answer(table: Table) -> list[Move]:
    """A bot fighter takes an offer of help only when it is losing and the helper would turn
    the fight."""
    game = table.game
    combat = game.combat
    assert combat is not None and table.offered is not None
    helper = game.players[table.offered[0]]
    ours = side_strength(game, combat) + side_member_strength(game, combat, helper)
    if not side_is_winning(game, combat) and ours > monsters_strength(game, combat):
        return [{"accept_help": True}]
    return [{"decline_help": True}]


def _meddles_in(table: Table, seat: int) -> bool:
    """Whether the bot spends a card against this fight: a person's fight (the table's bots
    keep the people busy), or a rival bot's the shrewd bots would spoil (the leader's, one for
    the win, one that threatens this bot: bot_policy.ShrewdPolicy.meddles_in)."""
    game = table.game
    combat = game.combat
    assert combat is not None
    if table.seats[game.players.index(combat.fighter)] == "person":
        return True
    return SHREWD.meddles_in(game, game.players[seat], combat)


def _interference(table: Table, seat: int) -> Move | None:
    """The bot's cheapest card against the monsters that makes the fighter's side lose, among
    those the shrewd bots spend on such a fight (bot_policy.ShrewdPolicy.allowed_spoilers: a
    monster enhancer always, a one-shot only against a fighter near the win)."""
    game = table.game
    player = game.players[seat]
    combat = game.combat
    if combat is None:
        return None
    monsters = {m.name for m in combat.monsters}
    threat = max(1, SHREWD.threat(game, player, combat))
    allowed = {card.uid: added for added, (card, _) in SHREWD.allowed_spoilers(player, threat)}
    tries = sorted(
        (
            m
            for m in candidates(table, seat)
            if "play" in m and m.get("on") in monsters and m["play"] in allowed
        ),
        key=lambda m: (allowed[m["play"]], m["play"]),
    )
    for move in tries:
        trial = copy_table(table)
        try:
            apply_in_place(trial, seat, move, guarded=False)
        except RuleViolation:
            continue
        except ChoiceNeeded:
            continue  # it would ask a person first: not a card that turns the fight now
        combat = trial.game.combat
        if combat is not None and not side_is_winning(trial.game, combat):
            return move
    return None


def _bot_plays(table: Table, seat: int) -> Move:
    """The bot at `seat` makes its move on `table` itself: the first of its preferences the
    rules allow (each asked first), else the last of the legal moves. A move allowed and then
    refused all the same is listed as refused (`Game.bot_refusals`) and skipped."""
    game = table.game
    player = game.players[seat]
    for move in _bot_preferences(table, player):
        if move_refusal(table, seat, move) is None and _bot_applies(table, seat, move):
            return move
    options = legal_moves(table, seat)  # each tried on a copy of the table
    if not options or not _bot_applies(table, seat, options[-1]):
        raise RuleViolation(f"{player.name} has no move to make")
    return options[-1]  # the end of the turn or of the fight: a way on


def _bot_applies(table: Table, seat: int, move: Move) -> bool:
    """Apply a bot's move the rules allowed; a refusal (nothing changed) is listed."""
    try:
        apply_in_place(table, seat, move)
    except RuleViolation as exc:
        player = table.game.players[seat]
        refused(table.game, player, f"makes the move {move}", None, f"{exc} (allowed when asked)")
        return False
    return True


# -- bots ----------------------------------------------------------------------------------------


def bot_move(table: Table, seat: int) -> Move:
    """The move a bot makes now: the simulated bots' choices (validator/engine/bots.py), the
    first of them the rules accept. Raises RuleViolation when the seat may do nothing."""
    return _bot_plays(copy_table(table), seat)


def _bot_preferences(table: Table, player: Player) -> list[Move]:
    """The moves a simulated bot would make here, best first (only legal ones are taken)."""
    game = table.game
    seat = game.players.index(player)
    if table.window is not None and seat in table.window:
        return _bot_window_preferences(table, seat)
    if table.offered is not None:
        return _bot_offer_answer(table)
    if table.asked is not None:
        combat = game.combat
        assert combat is not None
        # As the shrewd bots answer: never a fight it played against, for the win, or of the
        # leader; else for Treasures worth the fighter's Levels.
        helps = SHREWD.wants_to_help(
            game,
            player,
            combat.fighter,
            table.asked[1],
            played_against=game.players.index(player) in table.interfered,
        )
        return [{"help": True}] if helps else [{"refuse_help": True}]
    combat = game.combat
    if combat is not None:
        return _bot_fight_preferences(game, combat, player) if player is combat.fighter else []
    if player is not game.active_player:
        return []
    return _bot_turn_preferences(game, player)


def _bot_fight_preferences(game: Game, combat: Combat, player: Player) -> list[Move]:
    """The fighter's, as the shrewd bots fight: while losing, the enhancers that weaken its
    monsters, one-shots for its side, requests for help (each rival asked once, for the fewest
    Treasures a shrewd bot would accept), a card that takes a monster away or escapes; then
    the fight."""
    wanted: list[Move] = []
    if not side_is_winning(game, combat):
        wanted += [_as_move(play) for play in SHREWD.weakening(game, combat, player)]
        for card in sorted(player.hand, key=lambda c: -c.bonus):
            if isinstance(card.card, OneShotCard) and (card.card.bonus or 0) > 0:
                wanted.append({"play": card.uid})
        if combat.helper is None:
            wanted += _help_requests(game, combat)
        wanted += [_as_move(play) for play in SHREWD.last_resort(game, combat, player)]
    wanted.append({"resolve": True})
    return wanted


def _help_requests(game: Game, combat: Combat) -> list[Move]:
    """The shrewd fighter's requests for help, one a rival: the fewest Treasures a shrewd bot
    would accept, else half the Treasure (a person may take it)."""
    treasures = sum(m.monster.treasures or 0 for m in combat.monsters)
    shares: dict[str, list[int]] = {}
    for helper, share in SHREWD.help_requests(game, combat):
        shares.setdefault(helper.name, [])
        if SHREWD.wants_to_help(game, helper, combat.fighter, share):
            shares[helper.name].append(share)
    half = max(1, treasures // 2)
    return [
        {"ask_for_help": name, "treasures": min(treasures, accepted[0] if accepted else half)}
        for name, accepted in shares.items()
    ]


def _as_move(play: Play) -> Move:
    """A policy's card play as a table move."""
    move: Move = {"play": play.card.uid}
    if play.monster is not None:
        move["on"] = play.monster
    elif play.player is not None:
        move["on"] = play.player.name
    if play.with_card is not None:
        move["with"] = play.with_card.uid
    return move


def _bot_turn_preferences(game: Game, player: Player) -> list[Move]:
    """The active player's, outside combat: cards in play, gear, a sale and curses as the
    shrewd bots choose them, then the turn's next step (trouble looked for as they would)."""
    wanted: list[Move] = []
    for card in player.hand:
        ways = arrangements(card.card)
        # As `arrange` plays them: a first race or class, a first follower, gear that helps,
        # Levels short of the winning one (which only a kill gives).
        if (
            ("character" in ways and not player.axis_cards(card.kind))
            or ("follower" in ways and not player.followers)
            or ("item" in ways and item_bonus(card.card) > 0)
            or ("level" in ways and player.level < WINNING_LEVEL - 1)
        ):
            wanted.append({"play": card.uid})
    for item in sorted(player.carried, key=lambda c: -item_bonus(c.card)):
        if is_item(item.card) and item_bonus(item.card) > 0:
            wanted.append({"equip": item.uid})
    sale = SHREWD.sale(game, player)
    if sale:
        wanted.append({"sell": [c.uid for c in sale]})
    wanted += [_as_move(play) for play in SHREWD.curses(game, player)]
    if game.phase == "start":
        wanted.append({"kick_door": True})
    elif game.phase == "kicked" and not game.fought_this_turn:
        monster = SHREWD.trouble(game, player, beatable_monster(game, player))
        if monster is not None:
            wanted.append({"look_for_trouble": monster.uid})
        wanted.append({"loot_room": True})
    wanted.append({"end_turn": True})
    return wanted
