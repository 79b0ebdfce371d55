"""A table: a game people and bots play move by move, whose state is the replay of its log.

A table is its cards, a seed, its seats (each a person or a bot) and the moves made so far. The
state is never stored: it is rebuilt by dealing the cards from the seed (`build_game`) and
applying the log's moves in order, so any process that holds the same four things holds the
same game. A move is a small JSON object in the scenario files' vocabulary
(shared/design/scenario-format.md), with cards named by their instance number because a hand
may hold two copies of one card:

    {"kick_door": true}                 {"look_for_trouble": 17}        {"loot_room": true}
    {"play": 17, "on": "P2"}            {"play": 5, "with": 31}         {"equip": 17}
    {"sell": [17, 23]}                  {"use": 4, "ability": "berserking", "discard": [9]}
    {"sacrifice": 12}                   {"ask_for_help": "P2", "treasures": 1}
    {"help": true}  {"refuse_help": true}   {"resolve": true}  {"charity": 17}  {"end_turn": true}
    {"unequip": 17}                     {"give": [17], "to": "P2"}      {"discard_card": 4}
    {"decline": "Floating Nose"}        {"bribe": 17, "on": "Ghoulfiends"}
    {"chase": "Wannabe Vampire"}        {"join": 31}

`on` names a player or a monster in the fight, as in scenarios. `legal_moves` lists what the
rules allow a seat right now: each listed move has been applied to a copy of the state, so it
is accepted; `apply_move` applies one to a copy and returns it, or raises `RuleViolation`
naming the rule (and the given state is untouched). Who may move: the active player outside
combat; in a combat the fighter, the helper for their own side, and the others for the
monsters' side; a player asked for help answers before anyone else moves. Choices the rules
leave to a player inside a move (which item Bad Stuff takes) are made by the engine's
`DefaultChooser`, as in scenarios.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from validator.engine import abilities, combat_specials, turn
from validator.engine import game as bots
from validator.engine.cards import (
    AddMonster,
    Bribe,
    CardBase,
    ChaseAway,
    CurseCard,
    LevelCard,
    MayDecline,
    MonsterCard,
    MonsterEnhancerCard,
    OneShotCard,
)
from validator.engine.choices import DefaultChooser, card_worth
from validator.engine.combat import offer_help, resolve
from validator.engine.state import (
    WINNING_LEVEL,
    CardInstance,
    Combat,
    Game,
    Options,
    Player,
    RuleViolation,
    effects_of,
    is_item,
    is_monster,
    is_one_shot,
    item_bonus,
    levels_for_kill,
)
from validator.engine.strength import (
    monsters_strength,
    side_member_strength,
    side_strength,
    side_wins_ties,
)

SEAT_KINDS = ("person", "bot")
MIN_SEATS = 2
MAX_SEATS = 6
# A game not won by then is over without a winner, as a simulated game is.
MAX_TURNS = bots.MAX_TURNS
# A bot makes at most this many moves in a row before a person must move again: a bound on a
# bug's loop, far above a real turn's moves.
MAX_BOT_MOVES = 200
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
)
# The arguments each verb takes besides its own key.
_ARGUMENTS: dict[str, frozenset[str]] = {
    "play": frozenset({"on", "with"}),
    "use": frozenset({"ability", "discard", "on"}),
    "ask_for_help": frozenset({"treasures"}),
    "give": frozenset({"to"}),
    "bribe": frozenset({"on"}),
}
MAX_LIST = 60  # cards named by one move (sell, discard): a hand never holds more


class MoveError(RuleViolation):
    """A move that is not a move: unknown verb, wrong shape, a card the seat does not hold."""


Move = dict[str, Any]


@dataclass
class Table:
    """A game in progress: what it was dealt from, the log, and the engine's state now."""

    cards: tuple[tuple[str, CardBase], ...]
    seed: int
    seats: tuple[str, ...]
    log: list[tuple[int, Move]] = field(default_factory=list)
    game: Game = field(init=False, repr=False)
    # A request for help waiting for its answer: (the asked seat, the Treasures offered).
    asked: tuple[int, int] | None = None
    # Seats already asked in the current combat (each is asked once, so asking cannot loop).
    asked_before: set[int] = field(default_factory=set)
    # Seats outside the fight that have played a card against the current one (a bot does so
    # once a fight: interfering). Derived from the log's moves, so a replay rebuilds it.
    interfered: set[int] = field(default_factory=set)

    @property
    def over(self) -> bool:
        return self.game.winner is not None or self.game.turn_number > MAX_TURNS

    @property
    def winners(self) -> list[int]:
        return [self.game.players.index(p) for p in self.game.winners]


def new_table(
    cards: Iterable[tuple[str, CardBase]],
    *,
    seats: Sequence[str],
    seed: int,
    options: Options | None = None,
) -> Table:
    """Deal a new game: every copy of every card shuffled by `seed`, four of each to each seat."""
    kinds = tuple(seats)
    if not MIN_SEATS <= len(kinds) <= MAX_SEATS:
        raise MoveError(f"a game has {MIN_SEATS} to {MAX_SEATS} seats, not {len(kinds)}")
    for index, kind in enumerate(kinds):
        if kind not in SEAT_KINDS:
            raise MoveError(
                f"seat {index + 1}: kind {kind!r} is not one of {', '.join(SEAT_KINDS)}"
            )
    deck = tuple(sorted(cards, key=lambda entry: (entry[0], entry[1].name)))
    table = Table(deck, seed, kinds)
    table.game = _deal(deck, len(kinds), seed, options)
    return table


def _deal(
    deck: tuple[tuple[str, CardBase], ...], players: int, seed: int, options: Options | None
) -> Game:
    """Shuffle and deal as the simulated games do (`build_game`), but leave each hand to its
    player: `build_game` lets the bots put cards in play at once, a person chooses."""
    rng = random.Random(seed)
    game = Game(
        players=[Player(f"P{i + 1}", sex="female" if i % 2 else "male") for i in range(players)],
        rng=rng,
        options=options or Options(),
        chooser=DefaultChooser(),
    )
    game.check_every_move = False
    doors, treasures, roles, uid = bots._instances(deck)
    game.door_deck.extend(doors)
    game.treasure_deck.extend(treasures)
    rng.shuffle(game.door_deck)
    rng.shuffle(game.treasure_deck)
    roles = list(roles)  # SpongeBob's Role cards: one at random to each player
    rng.shuffle(roles)
    for player, role in zip(game.players, roles, strict=False):
        player.character.append(role)
    for player in game.players:
        for pile in ("door", "treasure"):
            for _ in range(4):
                if game.can_draw(pile):
                    player.hand.append(game.draw(pile))
    game.total_cards = uid - max(0, len(roles) - players)
    game.logging = True  # the log in words, for the table page
    turn.begin_turn(game)
    return game


def replay_table(
    cards: Iterable[tuple[str, CardBase]],
    *,
    seats: Sequence[str],
    seed: int,
    log: Iterable[tuple[int, Move]],
    options: Options | None = None,
) -> Table:
    """The table after the log's moves, from the deal: the only source of a game's state."""
    table = new_table(cards, seats=seats, seed=seed, options=options)
    for index, (seat, move) in enumerate(log):
        try:
            _apply(table, seat, move)
        except RuleViolation as exc:
            raise MoveError(f"move {index + 1} of the log is refused: {exc}") from None
    return table


def copy_table(table: Table) -> Table:
    """An independent copy. Card instances are immutable and shared, so a list of them is
    copied by a shallow copy (deepcopy would visit every card); the logs only grow, so their
    lists are copied, not their entries; the random generator is copied by its state (far
    faster than deepcopy's way with its 625 numbers)."""
    game = table.game
    rng = random.Random()
    rng.setstate(game.rng.getstate())
    memo: dict[int, Any] = {id(table.cards): table.cards, id(game.log): list(game.log)}
    memo[id(game.rng)] = rng
    piles = [game.door_deck, game.treasure_deck, game.door_discard, game.treasure_discard]
    for p in game.players:
        piles += [
            p.hand,
            p.character,
            p.attachments,
            p.equipped,
            p.carried,
            p.followers,
            p.curses,
            p.next_combat,
            p.pending_discards,
            *p.ship_enhancers.values(),
        ]
    for pile in piles:  # each a list the game holds (alive while memo is), of cards only
        memo[id(pile)] = pile.copy()
    copied = Table(
        table.cards,
        table.seed,
        table.seats,
        log=list(table.log),
        asked=table.asked,
        asked_before=set(table.asked_before),
        interfered=set(table.interfered),
    )
    copied.game = copy.deepcopy(game, memo)
    return copied


def apply_move(table: Table, seat: int, move: Move, *, then_bots: bool = False) -> Table:
    """The table after `seat` makes `move` (and, with `then_bots`, after the bots' moves that
    follow: run_bots); raises RuleViolation (or MoveError) naming the rule, and then `table`
    is exactly as it was. Tables are never changed once returned: each move makes a new one."""
    trial = copy_table(table)
    _apply(trial, seat, move)
    if then_bots:
        _run_bots(trial)
    return trial


def legal_moves(table: Table, seat: int) -> list[Move]:
    """Every move the rules allow `seat` now, each one accepted by `apply_move`.

    Each candidate is tried on a scratch copy of the table. A refused move changes nothing, so
    the scratch copy serves the next candidate; only an accepted one spoils it."""
    _check_seat(table, seat)
    if table.over:
        return []
    allowed: list[Move] = []
    scratch: Table | None = None
    for move in _candidates(table, seat):
        if _cheap_moves(move):
            try:
                _permitted(table, seat, move)
                _precheck(table, seat, move)
            except RuleViolation:
                continue
            allowed.append(move)
            continue
        if scratch is None:
            scratch = copy_table(table)
        try:
            _apply(scratch, seat, move)
        except RuleViolation:
            continue
        allowed.append(move)
        scratch = None
    return allowed


def seats_to_move(table: Table) -> list[int]:
    """The seats the game waits for: the asked player, else the fighter or the active player."""
    if table.over:
        return []
    if table.asked is not None:
        return [table.asked[0]]
    game = table.game
    if game.combat is not None:
        return [game.players.index(game.combat.fighter)]
    return [game.active]


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
    if not table.over:
        _bots_interfere(table)


def _bots_interfere(table: Table) -> None:
    """While a person fights and would win, each bot outside the fight, from the fighter's
    left, may play one card against it (a monster enhancer, or a one-shot for the monsters):
    the cheapest card in its hand that turns the fight, once a fight. The person then sees it
    in the log and may answer before resolving."""
    game = table.game
    combat = game.combat
    if combat is None or table.asked is not None:
        return
    fighter = game.players.index(combat.fighter)
    if table.seats[fighter] != "bot":
        for offset in range(1, len(table.seats)):
            seat = (fighter + offset) % len(table.seats)
            player = game.players[seat]
            if table.seats[seat] != "bot" or seat in table.interfered or player in combat.side:
                continue
            if player.dead or not _winning(game, combat):
                continue
            turned = _interference(table, seat)
            if turned is not None:
                _apply(table, seat, turned)


def _interference(table: Table, seat: int) -> Move | None:
    """The bot's cheapest card against the monsters that makes the fighter's side lose."""
    player = table.game.players[seat]
    monsters = {m.name for m in table.game.combat.monsters} if table.game.combat else set()
    # A monster enhancer's bonus is its `strength`; a one-shot's its `bonus`.
    bonuses = {c.uid: c.card.__dict__.get("strength") or c.bonus for c in player.hand}
    tries = sorted(
        (m for m in _candidates(table, seat) if "play" in m and m.get("on") in monsters),
        key=lambda m: (bonuses.get(m["play"], 0), m["play"]),
    )
    for move in tries:
        trial = copy_table(table)
        try:
            _apply(trial, seat, move)
        except RuleViolation:
            continue
        combat = trial.game.combat
        if combat is not None and not _winning(trial.game, combat):
            return move
    return None


def _bot_plays(table: Table, seat: int) -> Move:
    """The bot at `seat` makes its move on `table` itself (a refused try changes nothing)."""
    for move in _bot_preferences(table, table.game.players[seat]):
        try:
            _apply(table, seat, move)
        except RuleViolation:
            continue
        return move
    options = legal_moves(table, seat)
    if not options:
        raise RuleViolation(f"{table.game.players[seat].name} has no move to make")
    _apply(table, seat, options[-1])  # the end of the turn or of the fight: a way on
    return options[-1]


# -- applying a move ---------------------------------------------------------------------------


def _check_seat(table: Table, seat: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
        raise MoveError(f"there is no seat {seat!r} at this table of {len(table.seats)}")


def _validate(move: object) -> tuple[str, Move]:
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
    elif verb in ("sell", "give"):
        _uids(value, verb)
        if verb == "give" and (not isinstance(move.get("to"), str) or len(move["to"]) > 40):
            raise MoveError('give.to: name the player who receives, such as "P2"')
    elif verb in ("decline", "chase"):
        if not isinstance(value, str) or not value or len(value) > 200:
            raise MoveError(f"{verb}: the name of a monster in the fight")
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


def _card(player: Player, uid: int, where: str = "all") -> CardInstance:
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


def _permitted(table: Table, seat: int, move: Move) -> None:
    """The table's turn order (the engine checks each move's own rules)."""
    _check_seat(table, seat)
    verb, _ = _validate(move)
    game = table.game
    player = game.players[seat]
    if table.over:
        raise RuleViolation("the game is over")
    if table.asked is not None:
        asked = table.asked[0]
        if verb not in ("help", "refuse_help") or seat != asked:
            raise RuleViolation(
                f"{game.players[asked].name} has been asked for help and answers first"
            )
        return
    if verb in ("help", "refuse_help"):
        raise RuleViolation(f"no one asked {player.name} for help")
    combat = game.combat
    if verb in ("ask_for_help", "resolve", "sacrifice"):
        if combat is None:
            raise RuleViolation(f"{verb.replace('_', ' ')}: only during a combat")
        if verb != "sacrifice" and player is not combat.fighter:
            raise RuleViolation(f"only the fighter, {combat.fighter.name}, may do that")
    if verb in ("end_turn", "charity", "kick_door", "loot_room", "look_for_trouble") and (
        seat != game.active
    ):
        raise RuleViolation(f"only on your own turn, and it is {game.active_player.name}'s turn")
    if verb in ("end_turn", "charity"):
        if combat is not None:
            raise RuleViolation("the turn cannot end during a combat")
        if game.phase == "start" and game.can_draw("door"):
            raise RuleViolation("kick open the door before ending the turn")
        loot_deck = "treasure" if game.options.faster_play else "door"
        if game.phase == "kicked" and not game.fought_this_turn and game.can_draw(loot_deck):
            raise RuleViolation(
                "after the door, look for trouble or loot the room before ending the turn"
            )
    if verb == "charity" and len(player.hand) <= player.hand_limit():
        raise RuleViolation(
            f"charity is for cards over the hand limit of {player.hand_limit()}; "
            f"{player.name} holds {len(player.hand)}"
        )


def _precheck(table: Table, seat: int, move: Move) -> None:
    """The engine's own checks of the moves listed without a trial (they change nothing)."""
    game = table.game
    if "kick_door" in move:
        if game.combat is not None or game.phase != "start":
            raise RuleViolation("kicking open the door: only at the start of your turn")
        if not game.can_draw("door"):
            raise RuleViolation("the Door deck and its discards are empty")
    elif "end_turn" in move or "help" in move or "refuse_help" in move:
        return
    elif "resolve" in move and (game.combat is None or game.combat.resolved):
        raise RuleViolation("there is no combat to resolve")


def _cheap_moves(move: Move) -> bool:
    return any(key in move for key in ("kick_door", "end_turn", "help", "refuse_help", "resolve"))


def _apply(table: Table, seat: int, move: Move) -> None:
    """Apply one move in place; on RuleViolation nothing has changed."""
    _permitted(table, seat, move)
    game = table.game
    player = game.players[seat]
    combat_before = game.combat
    if "kick_door" in move:
        turn.kick_door(game, player)
    elif "look_for_trouble" in move:
        turn.look_for_trouble(game, player, _card(player, move["look_for_trouble"], "hand"))
    elif "loot_room" in move:
        turn.loot_room(game, player)
    elif "play" in move:
        card = _card(player, move["play"])
        target_player, target_monster = _target(game, move.get("on"))
        with_card = _with_card(game, player, target_player, move.get("with"))
        turn.play(
            game,
            player,
            card,
            target_player=target_player,
            target_monster=target_monster,
            with_card=with_card,
        )
    elif "equip" in move:
        turn.equip(game, player, _card(player, move["equip"]))
    elif "sell" in move:
        chosen = [_card(player, uid) for uid in move["sell"]]
        turn.sell(game, player, chosen)
    elif "use" in move:
        source = _card(player, move["use"], "table")
        discards = [_card(player, uid) for uid in move.get("discard", [])]
        target_player, target_monster = _target(game, move.get("on"))
        abilities.use_ability(
            game,
            player,
            source,
            move.get("ability"),
            discards=discards,
            target_player=target_player,
            target_monster=target_monster,
        )
    elif "sacrifice" in move:
        turn.sacrifice(game, player, _card(player, move["sacrifice"], "table"))
    elif "ask_for_help" in move:
        _ask(table, player, move)
        return
    elif "help" in move:
        asked = table.asked
        assert asked is not None
        offer_help(game, player, treasures=asked[1])
        table.asked = None
    elif "refuse_help" in move:
        assert table.asked is not None
        game.note(f"{player.name} will not help")
        table.asked = None
    elif "resolve" in move:
        resolve(game)
    elif "charity" in move:
        give_charity(game, player, _card(player, move["charity"], "hand"))
    elif "end_turn" in move:
        turn.end_turn(game)
    elif "unequip" in move:
        turn.unequip(game, player, _card(player, move["unequip"], "table"))
    elif "give" in move:
        # A gift: taking something back would need the receiver's consent, which the table
        # cannot ask for yet.
        given = [_card(player, uid, "table") for uid in move["give"]]
        turn.trade(game, player, _player(game, move["to"]), given)
        game.note(f"{player.name} gives {', '.join(c.name for c in given)} to {move['to']}")
    elif "discard_card" in move:
        abilities.discard_character_card(game, player, _card(player, move["discard_card"], "table"))
    elif "decline" in move:
        combat_specials.decline(game, player, _monster(game, move["decline"]))
    elif "bribe" in move:
        item = _card(player, move["bribe"])
        combat_specials.bribe(game, player, item, _monster(game, move.get("on")))
    elif "chase" in move:
        combat_specials.chase_away(game, player, _monster(game, move["chase"]))
    elif "join" in move:
        turn.join_monster(game, player, _card(player, move["join"], "hand"))
    table.log.append((seat, dict(move)))
    if game.combat is not combat_before:
        table.asked_before = set()
        table.interfered = set()
    elif combat_before is not None and "play" in move and player not in combat_before.side:
        table.interfered.add(seat)


def _ask(table: Table, player: Player, move: Move) -> None:
    game = table.game
    combat = game.combat
    assert combat is not None
    helper = _player(game, move["ask_for_help"])
    seat = game.players.index(helper)
    if combat.helper is not None:
        raise RuleViolation(f"{combat.helper.name} already helps")
    if helper is player:
        raise RuleViolation("the fighter cannot help themselves")
    if helper.dead:
        raise RuleViolation(f"{helper.name} is dead and cannot help")
    if seat in table.asked_before:
        raise RuleViolation(f"{helper.name} was already asked in this combat")
    treasures = move.get("treasures", 0)
    offered = sum(m.monster.treasures or 0 for m in combat.monsters)
    if treasures > offered:
        raise RuleViolation(
            f"the monsters give {offered} Treasure(s): {treasures} cannot be offered"
        )
    # The engine's own refusal (a monster no one may help against) comes before the question.
    trial = copy.deepcopy(game)
    offer_help(trial, trial.players[seat], treasures=treasures)
    table.asked = (seat, treasures)
    table.asked_before.add(seat)
    table.log.append((game.players.index(player), dict(move)))
    game.note(f"{player.name} asks {helper.name} for help, offering {treasures} Treasure(s)")


def give_charity(game: Game, player: Player, card: CardInstance) -> None:
    """Give one card over the hand limit to the lowest-Level player (or discard it): the
    table's `charity` move and the scenario step of the same name."""

    class _Gift(DefaultChooser):
        def charity(self, game: Game, player: Player, excess: int) -> list[CardInstance]:
            return [card]

    chooser = game.chooser
    game.chooser = _Gift()
    try:
        turn.charity(game, player)
    finally:
        game.chooser = chooser
    game.note(f"{player.name} gives a card away as charity")


def _monster(game: Game, name: str | None) -> str | None:
    """A monster of the fight by name (None: the only one), or MoveError."""
    if game.combat is None:
        raise RuleViolation("only during a combat")
    if name is not None and not any(
        m.name.casefold() == name.casefold() for m in game.combat.monsters
    ):
        raise MoveError(f"{name!r} is not a monster in the fight")
    return name


def _player(game: Game, name: str) -> Player:
    for p in game.players:
        if p.name.casefold() == name.casefold():
            return p
    raise MoveError(f"there is no player named {name!r}")


def _target(game: Game, on: str | None) -> tuple[Player | None, str | None]:
    """`on` names a player or, failing that, a monster in the fight (as in scenarios)."""
    if on is None:
        return None, None
    if any(p.name.casefold() == on.casefold() for p in game.players):
        return _player(game, on), None
    if game.combat is None or not any(
        m.name.casefold() == on.casefold() for m in game.combat.monsters
    ):
        raise MoveError(f"{on!r} is neither a player nor a monster in the fight")
    return None, on


def _with_card(
    game: Game, player: Player, target: Player | None, uid: int | None
) -> CardInstance | None:
    if uid is None:
        return None
    for owner in (player, target):
        if owner is None:
            continue
        for card in [*owner.hand, *owner.in_play()]:
            if card.uid == uid:
                return card
    raise MoveError(f"there is no card #{uid} to play with")


# -- what may be tried ---------------------------------------------------------------------------


def _candidates(table: Table, seat: int) -> list[Move]:
    """Moves worth trying for `seat`; legal_moves keeps those the rules accept."""
    game = table.game
    player = game.players[seat]
    if table.asked is not None:
        return [{"help": True}, {"refuse_help": True}] if table.asked[0] == seat else []
    combat = game.combat
    moves: list[Move] = []
    active = seat == game.active
    if active and combat is None:
        moves.append({"kick_door": True})
        moves += [{"look_for_trouble": c.uid} for c in player.hand if is_monster(c.card)]
        moves.append({"loot_room": True})
    monsters = [m.name for m in combat.monsters] if combat is not None else []
    names = [p.name for p in game.players]
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
    if combat is None:
        moves += [{"equip": c.uid} for c in player.carried if is_item(c.card)]
        moves += [{"unequip": c.uid} for c in player.equipped]
        others = [p.name for p in game.others(player) if not p.dead]
        gifts = [*player.items, *(f for f in player.followers if f.kind == "sidekick")]
        moves += [{"give": [c.uid], "to": name} for c in gifts for name in others]
    moves += [{"discard_card": c.uid} for c in player.character]
    if combat is not None:
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
    if active and combat is None:
        sale = _sale(player)
        if sale:
            moves.append({"sell": [c.uid for c in sale]})
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
    if combat is not None:
        if player is combat.fighter:
            if combat.helper is None:
                offered = sum(m.monster.treasures or 0 for m in combat.monsters)
                for other in game.others(player):
                    if game.players.index(other) in table.asked_before:
                        continue
                    for treasures in sorted({0, max(1, offered // 2), offered}):
                        moves.append({"ask_for_help": other.name, "treasures": treasures})
            moves.append({"resolve": True})
        if player in combat.side:
            moves += [{"sacrifice": f.uid} for f in player.followers]
    if active and combat is None:
        if len(player.hand) > player.hand_limit():
            moves += [{"charity": c.uid} for c in player.hand]
        moves.append({"end_turn": True})
    return moves


def _sale(player: Player) -> list[CardInstance]:
    """The cheapest handful of items worth a Level, as the simulated bots sell."""
    priced = sorted(
        (
            (price, c)
            for c in (*player.hand, *player.carried)
            if (price := bots._sale_price(c.card)) > 0
        ),
        key=lambda pair: pair[0],
    )
    chosen: list[CardInstance] = []
    value = 0
    for price, card in priced:
        chosen.append(card)
        value += price
        if value >= 1000:
            return chosen
    return []


# -- bots ----------------------------------------------------------------------------------------


def _winning(game: Game, combat: Combat) -> bool:
    """Would the fighter's side win if the fight were resolved now?"""
    ours, theirs = side_strength(game, combat), monsters_strength(game, combat)
    return ours > theirs or (ours == theirs and side_wins_ties(game, combat))


def bot_move(table: Table, seat: int) -> Move:
    """The move a bot makes now: the simulated bots' choices (validator.engine.game), the
    first of them the rules accept. Raises RuleViolation when the seat may do nothing."""
    return _bot_plays(copy_table(table), seat)


def _bot_preferences(table: Table, player: Player) -> list[Move]:
    """The moves a simulated bot would make here, best first (only legal ones are taken)."""
    game = table.game
    if table.asked is not None:
        combat = game.combat
        assert combat is not None
        gained = sum(levels_for_kill(m.monster) for m in combat.monsters)
        # A rival will not help a fight that could win the game for the fighter.
        if combat.fighter.level + gained >= WINNING_LEVEL and not game.options.shared_victory:
            return [{"refuse_help": True}]
        return [{"help": True}]
    combat = game.combat
    wanted: list[Move] = []
    if combat is not None:
        if player is not combat.fighter:
            return []
        ours, theirs = side_strength(game, combat), monsters_strength(game, combat)
        if not _winning(game, combat):
            for card in sorted(player.hand, key=lambda c: -c.bonus):
                if isinstance(card.card, OneShotCard) and (card.card.bonus or 0) > 0:
                    wanted.append({"play": card.uid})
            if combat.helper is None:
                gap = theirs - ours
                gained = sum(levels_for_kill(m.monster) for m in combat.monsters)
                treasures = sum(m.monster.treasures or 0 for m in combat.monsters)
                for other in sorted(
                    (p for p in game.others(player) if not p.dead),
                    key=lambda p: -side_member_strength(game, combat, p),
                ):
                    if side_member_strength(game, combat, other) < gap:
                        break
                    if player.level + gained >= WINNING_LEVEL:
                        break
                    wanted.append(
                        {
                            "ask_for_help": other.name,
                            "treasures": min(treasures, max(1, treasures // 2)),
                        }
                    )
        wanted.append({"resolve": True})
        return wanted
    if player is not game.active_player:
        return []
    for card in player.hand:
        ways = bots._arrangements(card.card)
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
    sale = _sale(player)
    if sale and player.level + sum(bots._sale_price(c.card) for c in sale) // 1000 < WINNING_LEVEL:
        wanted.append({"sell": [c.uid for c in sale]})
    target = bots.leader(game, player)
    if target is not None and target.level >= player.level:
        for card in player.hand:
            if isinstance(card.card, CurseCard):
                wanted.append({"play": card.uid, "on": target.name})
    if game.phase == "start":
        wanted.append({"kick_door": True})
    elif game.phase == "kicked" and not game.fought_this_turn:
        monster = bots._beatable_monster(game, player)
        if monster is not None:
            wanted.append({"look_for_trouble": monster.uid})
        wanted.append({"loot_room": True})
    wanted.append({"end_turn": True})
    return wanted


# -- what a seat sees ---------------------------------------------------------------------------


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
        "asked": (
            {"seat": table.asked[0], "treasures": table.asked[1]}
            if table.asked is not None
            else None
        ),
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
        "log": game.log[-30:],
    }


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
        return (
            f"Ask {move['ask_for_help']} for help, offering {move.get('treasures', 0)} Treasure(s)"
        )
    if "resolve" in move:
        combat = game.combat
        if combat is not None and combat.fighter is player and not _winning(game, combat):
            return "Run away"
        return "Fight"
    for verb, words in (
        ("look_for_trouble", "Look for trouble with"),
        ("equip", "Equip"),
        ("sacrifice", "Sacrifice"),
        ("charity", "Give as charity"),
        ("unequip", "Unequip"),
        ("discard_card", "Discard from play:"),
    ):
        if verb in move:
            return f"{words} {name(move[verb])}"
    for verb, words in (
        ("kick_door", "Kick open the door"),
        ("loot_room", "Loot the room"),
        ("help", "Help"),
        ("refuse_help", "Refuse to help"),
        ("end_turn", "End the turn"),
    ):
        if verb in move:
            return words
    return str(move)


# -- a game as a scenario ------------------------------------------------------------------------


def table_scenario(table: Table, *, name: str) -> dict[str, Any]:
    """The game as a scenario document (shared/design/scenario-format.md): the deal (each
    player's hand, each deck in order from the top), the moves since as steps, and what holds
    at the end as expectations, so that the runner plays the same game and checks it.

    The runner's table matches the deal when its sets hold exactly the table's cards: its
    seeded random generator then shuffles decks of the same sizes, so every die roll and
    random pick after the deal comes out the same (no `dice:` are given, which would take
    the rolls away from the generator). A request for help and its refusal are no steps of
    the format: an accepted request is the `help` step with the Treasures offered."""
    first = new_table(table.cards, seats=table.seats, seed=table.seed)
    game = first.game
    sets_of: dict[str, set[str]] = {}
    for code, definition in table.cards:
        sets_of.setdefault(definition.name.casefold(), set()).add(code)
    instances: dict[int, CardInstance] = {}
    for pile in (game.door_deck, game.treasure_deck):
        instances.update((c.uid, c) for c in pile)
    for p in game.players:
        instances.update((c.uid, c) for c in [*p.hand, *p.in_play()])

    def ref(uid: int) -> str:
        card = instances[uid]
        ambiguous = len(sets_of.get(card.name.casefold(), ())) > 1
        return f"{card.name}@{card.set_code}" if ambiguous else card.name

    players = []
    for p in game.players:
        setup: dict[str, Any] = {"name": p.name, "sex": p.sex}
        if p.character:
            setup["in_play"] = [ref(c.uid) for c in p.character]
        setup["hand"] = [ref(c.uid) for c in p.hand]
        players.append(setup)
    steps: list[dict[str, Any]] = []
    names = [p.name for p in game.players]
    offered = 0
    for seat, move in table.log:
        by = names[seat]
        step = _scenario_step(move, by, ref, offered)
        if "ask_for_help" in move:
            offered = int(move.get("treasures", 0))
        if step is not None:
            steps.append(step)
    end = table.game
    expect: dict[str, Any] = {
        "levels": {p.name: p.level for p in end.players},
        "hand_sizes": {p.name: len(p.hand) for p in end.players},
        "dead": [p.name for p in end.players if p.dead],
    }
    in_play = {p.name: sorted(ref(c.uid) for c in p.in_play()) for p in end.players}
    in_play = {player: cards for player, cards in in_play.items() if cards}
    if in_play:
        expect["in_play"] = in_play
    if end.winner is not None:
        expect["winner"] = end.winner.name
    return {
        "name": name,
        "sets": sorted({code for code, _ in table.cards}),
        "seed": table.seed,
        "players": players,
        "deck": {
            "door": [ref(c.uid) for c in game.door_deck],
            "treasure": [ref(c.uid) for c in game.treasure_deck],
        },
        "steps": steps,
        "expect": expect,
    }


def _scenario_step(move: Move, by: str, ref: Any, offered: int) -> dict[str, Any] | None:
    """One move as a scenario step (None: a move the format has no step for, which changes
    nothing a later step reads: a question for help, its refusal)."""
    if "play" in move:
        step: dict[str, Any] = {"play": ref(move["play"]), "by": by}
        if "on" in move:
            step["on"] = move["on"]
        if "with" in move:
            step["with"] = ref(move["with"])
        return step
    if "use" in move:
        step = {"use": ref(move["use"]), "by": by}
        if move.get("ability"):
            step["ability"] = move["ability"]
        if move.get("discard"):
            step["discard"] = [ref(uid) for uid in move["discard"]]
        if "on" in move:
            step["on"] = move["on"]
        return step
    if "help" in move:
        return {"help": by, "treasures": offered}
    if "ask_for_help" in move or "refuse_help" in move:
        return None
    if "sell" in move:
        return {"sell": [ref(uid) for uid in move["sell"]], "by": by}
    for verb in (
        "look_for_trouble",
        "equip",
        "sacrifice",
        "charity",
        "unequip",
        "discard_card",
        "join",
    ):
        if verb in move:
            return {verb: ref(move[verb]), "by": by}
    if "give" in move:
        return {"give": [ref(uid) for uid in move["give"]], "by": by, "to": move["to"]}
    if "bribe" in move:
        step = {"bribe": ref(move["bribe"]), "by": by}
        if move.get("on"):
            step["on"] = move["on"]
        return step
    if "decline" in move or "chase" in move:
        verb = "decline" if "decline" in move else "chase"
        return {verb: move[verb], "by": by}
    if "kick_door" in move or "loot_room" in move:
        return {next(iter(move)): by}
    if "resolve" in move or "end_turn" in move:
        return {next(iter(move)): True}
    raise MoveError(f"no scenario step for the move {move!r}")
