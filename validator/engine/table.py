"""A table: a game people and bots play move by move, whose state is the replay of its log.

A table is its cards, a seed, its seats (each a person or a bot) and the moves made so far. The
state is never stored: it is rebuilt by dealing the cards from the seed (`setup.deal`) and
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
from validator.engine.cards import CardBase
from validator.engine.combat import offer_help, resolve
from validator.engine.legality import MoveAllowed, checks_passed, refusal
from validator.engine.setup import MAX_TURNS, deal
from validator.engine.state import (
    Combat,
    Game,
    Options,
    Player,
    RuleViolation,
)
from validator.engine.strength import monsters_strength, side_is_winning, side_strength
from validator.engine.table_choices import (
    ANSWER_VERBS,
    Answer,
    ChoiceNeeded,
    Question,
    TableChooser,
    checked_answer,
)
from validator.engine.table_moves import (
    Move,
    MoveError,
    candidate_moves,
    card_to_play_with,
    give_charity,
    held_card,
    move_target,
    named_monster,
    named_player,
    treasures_words,
    validate_move,
)

SEAT_KINDS = ("person", "bot")
MIN_SEATS = 2
MAX_SEATS = 6


@dataclass(frozen=True)
class Pending:
    """A move made but waiting for a person's answer: who made it, the move, the answers given
    so far, and the question now."""

    seat: int
    move: Move
    answers: tuple[Answer, ...]
    question: Question


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
    # Seats already asked in the current combat (each is asked once, so asking cannot loop);
    # a seat that offered its help counts as asked.
    asked_before: set[int] = field(default_factory=set)
    # An offer of help waiting for the fighter's answer: (the offering seat, the Treasures
    # it wants).
    offered: tuple[int, int] | None = None
    # Seats outside the fight that have played a card against the current one (a bot does so
    # once a fight: interfering). Derived from the log's moves, so a replay rebuilds it.
    interfered: set[int] = field(default_factory=set)
    # A reaction window: the seats yet to answer before the fight resolves (each plays into
    # the fight or passes), in turn from the fighter's left. None: no window open.
    window: tuple[int, ...] | None = None
    # A move waiting for a person's answer to a question the rules leave to them.
    pending: Pending | None = None
    # The log's positions of the moves that resolved a fight (the fighter's `resolve`, or the
    # last `pass` of a window, or an answer), for the scenario export.
    resolved_at: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        """Won, or past the turn limit (then over without a winner)."""
        return self.game.winner is not None or self.game.turn_number > MAX_TURNS

    @property
    def winners(self) -> list[int]:
        """The seats of the winners (several with shared victories)."""
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
    game = deal(deck, players=len(kinds), seed=seed, options=options)
    # The bots of the simulated games put cards in play as they are dealt; here each hand is
    # left to its player, and the moves are checked by the rules alone.
    game.check_every_move = False
    game.logging = True  # the log in words, for the table page
    turn.begin_turn(game)
    table.game = game
    return table


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
    moves = list(log)
    for index, (seat, move) in enumerate(moves):
        # A move asked a question when the log's next move answers one (or when it is the
        # last): only those are made on a copy; the others are made in place.
        following = moves[index + 1][1] if index + 1 < len(moves) else None
        asks = following is None or bool(set(following) & set(ANSWER_VERBS))
        try:
            apply_in_place(table, seat, move, guarded=asks)
        except RuleViolation as exc:
            raise MoveError(f"move {index + 1} of the log is refused: {exc}") from None
        except ChoiceNeeded:
            raise MoveError(
                f"move {index + 1} of the log asks a question the log does not answer"
            ) from None
    return table


def copy_table(table: Table) -> Table:
    """An independent copy. Card instances are immutable and shared, so a list of them is
    copied by a shallow copy (deepcopy would visit every card); the logs only grow, so their
    lists are copied, not their entries; the random generator is copied by its state (far
    faster than deepcopy's way with its 625 numbers)."""
    game = table.game
    rng = random.Random()
    rng.setstate(game.rng.getstate())
    memo: dict[int, Any] = {
        id(table.cards): table.cards,
        id(game.log): list(game.log),
        id(game.log_turns): list(game.log_turns),
    }
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
        offered=table.offered,
        interfered=set(table.interfered),
        window=table.window,
        pending=table.pending,
        resolved_at=table.resolved_at,
    )
    copied.game = copy.deepcopy(game, memo)
    return copied


def apply_move(table: Table, seat: int, move: Move) -> Table:
    """The table after `seat` makes `move` (table_bots.run_bots adds the bots' moves that
    follow); raises RuleViolation (or MoveError) naming the rule, and then `table`
    is exactly as it was. Tables are never changed once returned: each move makes a new one."""
    trial = copy_table(table)
    try:
        apply_in_place(trial, seat, move, guarded=False)
    except ChoiceNeeded as exc:
        # The copy is spoiled by the move's start: a fresh one waits for the answer.
        trial = copy_table(table)
        trial.pending = exc.pending
        trial.log.append((seat, dict(move)))
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
    for move in candidates(table, seat):
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
            apply_in_place(scratch, seat, move, guarded=False)
        except RuleViolation:
            continue
        except ChoiceNeeded:
            pass  # allowed: it would ask a person
        allowed.append(move)
        scratch = None
    return allowed


def seats_to_move(table: Table) -> list[int]:
    """The seats the game waits for: a person asked a question, the player asked for help, the
    seats of a reaction window, else the fighter or the active player."""
    if table.over:
        return []
    if table.pending is not None:
        return [table.pending.question.seat]
    if table.window is not None:
        return list(table.window)
    if table.offered is not None and table.game.combat is not None:
        return [table.game.players.index(table.game.combat.fighter)]
    if table.asked is not None:
        return [table.asked[0]]
    game = table.game
    if game.combat is not None:
        return [game.players.index(game.combat.fighter)]
    return [game.active]


def move_refusal(table: Table, seat: int, move: Move) -> str | None:
    """Why the rules would refuse `seat` the move now, or None when they allow it: the move's
    own checks (the table's and the engine's), tried up to where it would change the table,
    which is left as it was (legality.refusal)."""
    return refusal(table.game, apply_in_place, table, seat, move, guarded=False)


# -- applying a move ---------------------------------------------------------------------------


def _check_seat(table: Table, seat: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
        raise MoveError(f"there is no seat {seat!r} at this table of {len(table.seats)}")


def _permitted(table: Table, seat: int, move: Move) -> str:
    """The move's verb, when the table's turn order allows it (the engine checks each move's
    own rules)."""
    _check_seat(table, seat)
    verb, _ = validate_move(move)
    game = table.game
    player = game.players[seat]
    if table.over:
        raise RuleViolation("the game is over")
    if table.pending is not None:
        question = table.pending.question
        if verb not in ANSWER_VERBS or seat != question.seat:
            raise RuleViolation(f"{game.players[question.seat].name} chooses first")
        return verb
    if verb in ANSWER_VERBS:
        raise RuleViolation(f"no one asked {player.name} to choose")
    if table.window is not None:
        if seat not in table.window:
            waiting = " and ".join(game.players[s].name for s in table.window)
            raise RuleViolation(f"{waiting} may play into the fight or pass first")
        if verb not in _WINDOW_VERBS:
            raise RuleViolation("before the fight resolves: play a card into it, or pass")
        return verb
    if verb == "pass":
        raise RuleViolation("pass: only before a fight resolves, when it is your chance to answer")
    if table.offered is not None:
        fighter = game.combat.fighter if game.combat is not None else None
        offering = game.players[table.offered[0]].name
        if verb not in _OFFER_ANSWERS or player is not fighter:
            raise RuleViolation(f"{offering} offered to help: the fighter answers first")
        return verb
    if verb in _OFFER_ANSWERS:
        raise RuleViolation(f"no one offered to help {player.name}")
    if table.asked is not None:
        asked = table.asked[0]
        if verb not in ("help", "refuse_help") or seat != asked:
            raise RuleViolation(
                f"{game.players[asked].name} has been asked for help and answers first"
            )
        return verb
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
    return verb


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


def candidates(table: Table, seat: int) -> list[Move]:
    """Moves worth trying for `seat` now (legal_moves keeps those the rules accept). An answer
    to a question is listed as the suggested one first, then each single pick or option; any
    pick of the asked number of candidates is accepted."""
    pending = table.pending
    if pending is not None:
        question = pending.question
        if seat != question.seat:
            return []
        if question.options:
            first = question.suggested[0]
            order = [first, *(i for i in range(len(question.options)) if i != first)]
            return [{"choose_option": index} for index in order]
        picks = [{"choose": list(question.suggested)}]
        if question.count == 1:
            picks += [{"choose": [uid]} for uid in question.candidates]
        return [dict(p) for p in {tuple(p["choose"]): p for p in picks}.values()]
    found = candidate_moves(table.game, seat, asked=table.asked, asked_before=table.asked_before)
    if table.window is not None:
        if seat not in table.window:
            return []
        plays = [m for m in found if set(m) & _PLAY_VERBS]
        return [{"pass": True}, *plays, *_offers(table, seat)]
    if table.offered is not None:
        return [{"accept_help": True}, {"decline_help": True}]
    return [*found, *_offers(table, seat)]


def _offers(table: Table, seat: int) -> list[Move]:
    """A rival's offers to help the fighter: for nothing, half or all of the monsters'
    Treasures (any number up to them is accepted)."""
    game = table.game
    combat = game.combat
    if combat is None or combat.helper is not None or seat in table.asked_before:
        return []
    if game.players[seat] is combat.fighter:
        return []
    offered = sum(m.monster.treasures or 0 for m in combat.monsters)
    return [{"offer_help": n} for n in sorted({0, max(1, offered // 2), offered})]


def _cheap_moves(move: Move) -> bool:
    """Whether legal_moves may list the move on `_precheck` alone, without a trial."""
    return any(key in move for key in ("kick_door", "end_turn", "help", "refuse_help", "resolve"))


# The verbs of the turn's own steps, and of a fight's; the others name a card of the player's.
_TURN_VERBS = frozenset({"kick_door", "look_for_trouble", "loot_room", "charity", "end_turn"})
_COMBAT_VERBS = frozenset(
    {
        "help",
        "refuse_help",
        "resolve",
        "pass",
        "decline",
        "bribe",
        "chase",
        "offer_help",
        "accept_help",
        "decline_help",
    }
)
_OFFER_ANSWERS = frozenset({"accept_help", "decline_help"})
# What a seat may do in a reaction window: play into the fight (or anything a card allows
# now, a curse included), or pass.
_PLAY_VERBS = frozenset({"play", "use", "join"})
_WINDOW_VERBS = _PLAY_VERBS | {"pass", "offer_help"}


def apply_in_place(table: Table, seat: int, move: Move, *, guarded: bool = True) -> None:
    """Apply one move in place; on RuleViolation nothing has changed. A move that needs a
    person's answer is logged and waits for it (`Table.pending`); the answer makes it.

    `guarded` makes the move on a copy, so that a question leaves the table as it was. Without
    it the move is made in place and a question raises `ChoiceNeeded` with the table spoiled
    (the callers that work on a copy anyway: apply_move, the trials of legal_moves, a replay
    whose log says the move asked nothing)."""
    verb = _permitted(table, seat, move)
    if verb in ANSWER_VERBS:
        pending = table.pending
        assert pending is not None  # _permitted allows an answer only to a question
        answer = checked_answer(pending.question, move)
        checks_passed(table.game)
        _attempt(table, pending.seat, pending.move, (*pending.answers, answer), guarded=guarded)
    else:
        _attempt(table, seat, move, (), guarded=guarded)
    table.log.append((seat, dict(move)))


def _people(table: Table) -> frozenset[int]:
    return frozenset(s for s, kind in enumerate(table.seats) if kind == "person")


def _attempt(
    table: Table, seat: int, move: Move, answers: tuple[Answer, ...], *, guarded: bool
) -> None:
    """Make the move (on a copy when `guarded`), the people's choices taken from `answers`:
    the table becomes the copy, or, when a person must answer a question first, stays as it
    was but for the question (the move runs again from the start once answered: same dice,
    same questions). Unguarded, the question is raised with the Pending it makes."""
    trial = copy_table(table) if guarded else table
    before = table.pending
    trial.pending = None  # the move runs as if first made
    game = trial.game
    chooser = game.chooser
    game.chooser = TableChooser(game, _people(table), answers)
    try:
        _perform(trial, seat, move)
    except ChoiceNeeded as exc:
        if game.trying:  # only asked whether the move is allowed: it is
            raise MoveAllowed from None
        exc.pending = Pending(seat, dict(move), answers, exc.question)
        if not guarded:
            raise
        table.pending = exc.pending
        return
    except RuleViolation:
        trial.pending = before
        raise
    finally:
        game.chooser = chooser
    if guarded:
        vars(table).update(vars(trial))


def _perform(table: Table, seat: int, move: Move) -> None:
    """Make a permitted move on `table` (not logged here)."""
    verb, _ = validate_move(move)
    game = table.game
    player = game.players[seat]
    combat_before = game.combat
    window_before = table.window
    if verb == "ask_for_help":
        _ask(table, player, move)
        return
    if verb in _TURN_VERBS:
        _apply_turn_step(game, player, verb, move)
    elif verb in _COMBAT_VERBS:
        _apply_in_combat(table, player, verb, move)
    else:
        _apply_card_move(game, player, verb, move)
    if game.combat is not combat_before:
        table.asked_before = set()
        table.interfered = set()
        table.window = None
        table.offered = None
    elif combat_before is not None and "play" in move and player not in combat_before.side:
        table.interfered.add(seat)
    if window_before is not None and verb != "pass" and game.combat is not None:
        # A card played into the fight: the fighter answers, then a new window opens.
        table.window = None
        game.note(f"{game.combat.fighter.name} may answer before the fight resolves")


def window_seats(table: Table) -> tuple[int, ...]:
    """The seats that may answer before the fight resolves: every living player but the
    fighter who could play something into it now (a card, an ability, a monster that joins),
    in turn from the fighter's left."""
    game = table.game
    combat = game.combat
    assert combat is not None
    fighter = game.players.index(combat.fighter)
    count = len(table.seats)
    seats: list[int] = []
    for offset in range(1, count):
        seat = (fighter + offset) % count
        if game.players[seat].dead:
            continue
        if _could_play(table, seat):
            seats.append(seat)
    return tuple(seats)


def _could_play(table: Table, seat: int) -> bool:
    """Whether the seat has a play the rules allow now (the first one found is enough)."""
    scratch = copy_table(table)
    for move in candidates(table, seat):
        if not set(move) & _PLAY_VERBS:
            continue
        try:
            apply_in_place(scratch, seat, move, guarded=False)
        except RuleViolation:
            continue
        except ChoiceNeeded:
            pass  # allowed: it would ask a person
        return True
    return False


def _resolve_or_open_window(table: Table, player: Player) -> None:
    """The fighter is ready: the others may answer first (a window), else the fight resolves."""
    game = table.game
    combat = game.combat
    if combat is None or combat.resolved:
        raise RuleViolation("there is no combat to resolve")
    seats = window_seats(table)
    if not seats:
        _resolve_now(table)
        return
    reason = refusal(game, resolve, game)
    if reason is not None:
        raise RuleViolation(reason)
    checks_passed(game)
    table.window = seats
    ours, theirs = side_strength(game, combat), monsters_strength(game, combat)
    names = " and ".join(game.players[s].name for s in seats)
    action = "fight" if side_is_winning(game, combat) else "run away"
    game.note(
        f"{player.name} is ready to {action} ({ours} against {theirs}): "
        f"{names} may play into the fight or pass"
    )


def _resolve_now(table: Table) -> None:
    resolve(table.game)
    table.resolved_at = (*table.resolved_at, len(table.log))


def _pass(table: Table, player: Player) -> None:
    game = table.game
    assert table.window is not None
    checks_passed(game)
    seat = game.players.index(player)
    rest = tuple(s for s in table.window if s != seat)
    game.note(f"{player.name} passes")
    table.window = rest or None
    if not rest:
        _resolve_now(table)


def _apply_turn_step(game: Game, player: Player, verb: str, move: Move) -> None:
    if verb == "kick_door":
        turn.kick_door(game, player)
    elif verb == "look_for_trouble":
        turn.look_for_trouble(game, player, held_card(player, move["look_for_trouble"], "hand"))
    elif verb == "loot_room":
        turn.loot_room(game, player)
    elif verb == "charity":
        to = named_player(game, move["to"]) if "to" in move else None
        give_charity(game, player, held_card(player, move["charity"], "hand"), to)
    elif verb == "end_turn":
        turn.end_turn(game)


def _apply_in_combat(table: Table, player: Player, verb: str, move: Move) -> None:
    game = table.game
    if verb == "help":
        asked = table.asked
        assert asked is not None
        offer_help(game, player, treasures=asked[1])
        table.asked = None
    elif verb == "refuse_help":
        assert table.asked is not None
        checks_passed(game)
        game.note(f"{player.name} will not help")
        table.asked = None
    elif verb == "resolve":
        _resolve_or_open_window(table, player)
    elif verb == "pass":
        _pass(table, player)
    elif verb == "offer_help":
        _offer(table, player, move["offer_help"])
    elif verb == "accept_help":
        assert table.offered is not None
        helper = game.players[table.offered[0]]
        offer_help(game, helper, treasures=table.offered[1])
        table.offered = None
    elif verb == "decline_help":
        assert table.offered is not None
        checks_passed(game)
        game.note(f"{player.name} turns down {game.players[table.offered[0]].name}'s help")
        table.offered = None
    elif verb == "decline":
        combat_specials.decline(game, player, named_monster(game, move["decline"]))
    elif verb == "bribe":
        item = held_card(player, move["bribe"])
        combat_specials.bribe(game, player, item, named_monster(game, move.get("on")))
    elif verb == "chase":
        combat_specials.chase_away(game, player, named_monster(game, move["chase"]))


def _apply_card_move(game: Game, player: Player, verb: str, move: Move) -> None:
    if verb == "play":
        card = held_card(player, move["play"])
        target_player, target_monster = move_target(game, move.get("on"))
        with_card = card_to_play_with(game, player, target_player, move.get("with"))
        turn.play(
            game,
            player,
            card,
            target_player=target_player,
            target_monster=target_monster,
            with_card=with_card,
        )
    elif verb == "equip":
        turn.equip(game, player, held_card(player, move["equip"]))
    elif verb == "sell":
        chosen = [held_card(player, uid) for uid in move["sell"]]
        turn.sell(game, player, chosen)
    elif verb == "use":
        source = held_card(player, move["use"], "table")
        discards = [held_card(player, uid) for uid in move.get("discard", [])]
        target_player, target_monster = move_target(game, move.get("on"))
        abilities.use_ability(
            game,
            player,
            source,
            move.get("ability"),
            discards=discards,
            target_player=target_player,
            target_monster=target_monster,
        )
    elif verb == "sacrifice":
        turn.sacrifice(game, player, held_card(player, move["sacrifice"], "table"))
    elif verb == "unequip":
        turn.unequip(game, player, held_card(player, move["unequip"], "table"))
    elif verb == "give":
        # A gift: taking something back would need the receiver's consent, which the table
        # cannot ask for yet.
        given = [held_card(player, uid, "table") for uid in move["give"]]
        turn.trade(game, player, named_player(game, move["to"]), given)
        game.note(f"{player.name} gives {', '.join(c.name for c in given)} to {move['to']}")
    elif verb == "discard_card":
        abilities.discard_character_card(
            game, player, held_card(player, move["discard_card"], "table")
        )
    elif verb == "join":
        turn.join_monster(game, player, held_card(player, move["join"], "hand"))


def _offer(table: Table, player: Player, treasures: int) -> None:
    """A rival offers to help the fighter for `treasures`; the fighter answers next."""
    game = table.game
    combat = game.combat
    if combat is None:
        raise RuleViolation("offering help: only during a combat")
    _check_help_deal(table, combat, player, treasures, wanted="asked")
    table.offered = (game.players.index(player), treasures)
    table.asked_before.add(game.players.index(player))
    game.note(
        f"{player.name} offers to help {combat.fighter.name} for {treasures_words(treasures)}"
    )


def _ask(table: Table, player: Player, move: Move) -> None:
    game = table.game
    combat = game.combat
    assert combat is not None
    helper = named_player(game, move["ask_for_help"])
    treasures = move.get("treasures", 0)
    _check_help_deal(table, combat, helper, treasures, wanted="offered")
    table.asked = (game.players.index(helper), treasures)
    table.asked_before.add(game.players.index(helper))
    game.note(f"{player.name} asks {helper.name} for help, offering {treasures_words(treasures)}")


def _check_help_deal(
    table: Table, combat: Combat, helper: Player, treasures: int, *, wanted: str
) -> None:
    """The checks of a help deal, asked by the fighter or offered by a rival: a player who
    may help (not the fighter, alive, not asked or offering before in this combat, no one
    helping yet) for no more than the monsters' Treasures; the engine's own refusal (a monster
    no one may help against) comes before the question. Ends at checks_passed."""
    game = table.game
    if combat.helper is not None:
        raise RuleViolation(f"{combat.helper.name} already helps")
    if helper is combat.fighter:
        raise RuleViolation("the fighter cannot help themselves")
    if helper.dead:
        raise RuleViolation(f"{helper.name} is dead and cannot help")
    if game.players.index(helper) in table.asked_before:
        raise RuleViolation(f"{helper.name} was already asked or offered to help in this combat")
    monsters = sum(m.monster.treasures or 0 for m in combat.monsters)
    if treasures > monsters:
        raise RuleViolation(
            f"the monsters give {treasures_words(monsters)}: {treasures} cannot be {wanted}"
        )
    reason = refusal(game, offer_help, game, helper, treasures=treasures)
    if reason is not None:
        raise RuleViolation(reason)
    checks_passed(game)
