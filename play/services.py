"""Writes: a new game, a move (after which the bots move at once), a pack from sets, and the
playtesting tools: undo, restart, save as scenario."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil
from typing import Any

import yaml
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from authoring.models import CardScenario
from authoring.scenarios import scenario_create
from catalog.models import Card
from packs.models import Pack
from packs.services import pack_build, pack_create
from play.models import ANSWER_SECONDS, Game, OpenedSeat, Seat, SeatKind
from play.retention import games_prune_soon
from play.selectors import (
    GameBroken,
    game_sets,
    game_table,
    log_full,
    log_full_message,
    pack_cards,
    remember_table,
    token_digest,
)
from play.tokens import new_token_salt, seat_token
from validator.engine import (
    Move,
    MoveError,
    RuleViolation,
    Table,
    apply_move,
    describe_move,
    new_table,
    pack_content_hash,
    replay_table,
    run_bots,
    table_scenario,
)

Actor = User | AnonymousUser
MAX_SEED = 2**31 - 1


class GameLogFull(RuleViolation):
    """A move refused because the game's log holds PLAY_MAX_LOG_MOVES moves already."""


@dataclass(frozen=True)
class CreatedGame:
    """A new game and its seats' secret tokens, in seat order (only their digests are stored;
    the server can derive them again for the dealer: play/tokens.py)."""

    game: Game
    tokens: list[str]
    table: Table


def _cards_hash(document: dict[str, Any]) -> str:
    """A pack's content hash leaving out when it was built: the sha256 covers
    `generated_at`, so two builds of the same cards a second apart differ there alone."""
    return pack_content_hash({**document, "generated_at": ""})


def game_pack_from_sets(*, actor: Actor | None, set_codes: Sequence[str]) -> Pack:
    """A pack of whole sets the actor may see, for a game. A pack with the same cards that
    no one owns (the same sha256, or the last one built for the same sets with the same
    content but for its time) is reused rather than kept again: about 60 KB a deal of the
    core set otherwise."""
    name = " + ".join(set_codes)
    built = pack_build(actor=actor, set_codes=set_codes, name=name)
    existing = Pack.objects.filter(sha256=built.document["sha256"], owner=None).first()
    if existing is not None:
        return existing
    last = Pack.objects.filter(owner=None, name=name).order_by("-created_at", "-id").first()
    if last is not None and _cards_hash(last.document) == _cards_hash(built.document):
        return last
    return pack_create(actor=None, built=built)


def _save(game: Game, table: Table) -> None:
    game.moves = [[seat, move] for seat, move in table.log]
    game.finished = table.over
    game.winners = table.winners
    game.save(update_fields=["moves", "finished", "winners", "updated_at"])
    remember_table(game=game, table=table)


def game_create(
    *,
    actor: Actor | None,
    pack: Pack,
    seats: Sequence[str],
    seed: int,
    hot_seat: bool = False,
    answer_seconds: int = 0,
) -> CreatedGame:
    """Deal a game of `pack` from `seed` for the seats (each "person" or "bot", 2 to 6). Bots
    seated first move at once. `hot_seat`: every person seat is played on one device (at
    least two person seats). `answer_seconds`: how long a person has to answer a fight before
    anyone may let their chance pass (0: the fight waits for each to pass). Raises the
    engine's MoveError for bad seats or seed, or no person among the seats (nothing stored).
    Once it is stored, the expired games are pruned in the background (at most once every
    PLAY_PRUNE_INTERVAL seconds)."""
    if not 0 <= seed <= MAX_SEED:
        raise MoveError(f"the seed is a whole number from 0 to {MAX_SEED}")
    if "person" not in seats:
        # Bots alone would play the whole game here; that is what simulations are for.
        raise MoveError("a game needs at least one person's seat (bots alone: simulate the pack)")
    if answer_seconds not in ANSWER_SECONDS:
        raise MoveError(
            "the time to answer a fight is one of "
            + ", ".join(map(str, ANSWER_SECONDS))
            + " seconds (0: until each person passes)"
        )
    if hot_seat and list(seats).count("person") < 2:
        raise MoveError("hot-seat mode passes one device between people: seat two or more")
    table = new_table(pack_cards(pack=pack), seats=seats, seed=seed)  # checks the seats
    table = run_bots(table)
    # Derived from the SECRET_KEY and the game's salt (play/tokens.py): only their digests are
    # stored, yet the dealer can be shown them again.
    salt = new_token_salt()
    tokens = [seat_token(salt=salt, index=index) for index in range(len(seats))]
    with transaction.atomic():
        game = Game.objects.create(
            pack=pack,
            pack_sha256=pack.sha256,
            seed=seed,
            hot_seat=hot_seat,
            answer_seconds=answer_seconds,
            token_salt=salt,
            created_by=actor if isinstance(actor, User) else None,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=index, kind=kind, token_sha256=token_digest(token))
            for index, (kind, token) in enumerate(zip(seats, tokens, strict=True))
        )
        _save(game, table)
        transaction.on_commit(games_prune_soon)
    return CreatedGame(game, tokens, table)


def game_move(*, game: Game, seat: int, move: Move | Any) -> Table:
    """Make `seat`'s move, then let the bots move while the game waits for them; returns the
    table. A refused move raises the engine's RuleViolation naming the rule, and nothing is
    stored; GameLogFull (a RuleViolation) once the log holds PLAY_MAX_LOG_MOVES moves (the
    bots' replies to the last move allowed may carry it a few past). The game's row is
    locked meanwhile, so two moves never interleave."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if log_full(locked):
            raise GameLogFull(log_full_message())
        table = game_table(game=locked)
        table = run_bots(apply_move(table, seat, move))
        _save(locked, table)
    return table


def game_time_up(*, game: Game, now: datetime | None = None) -> Table:
    """Let the chance to answer a fight pass for the people who have not answered in the
    game's `answer_seconds` since the last move (each passes, in turn); the bots then move.
    Any seat may ask: the time is the server's. RuleViolation, with nothing changed, when no
    fight waits for a person, when the game has no timer, or while time is left."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if not locked.answer_seconds:
            raise RuleViolation("this game waits for each person to pass: it has no timer")
        table = game_table(game=locked)
        people = [s for s in table.window or () if table.seats[s] == SeatKind.PERSON]
        if not people:
            raise RuleViolation("no fight is waiting for a person's answer")
        deadline = locked.updated_at + timedelta(seconds=locked.answer_seconds)
        left = (deadline - (now or timezone.now())).total_seconds()
        if left > 0:
            raise RuleViolation(f"the time to answer runs out in {ceil(left)} s")
        for seat in people:
            if table.window is not None and seat in table.window:
                table = apply_move(table, seat, {"pass": True})
        table = run_bots(table)
        _save(locked, table)
    return table


def _person(game: Game, seat: int) -> list[str]:
    """The seats' kinds; RuleViolation unless `seat` is a person's (a bot has no tools)."""
    kinds = [s.kind for s in game.seats.all()]
    if not 0 <= seat < len(kinds) or kinds[seat] != SeatKind.PERSON:
        raise RuleViolation("only a person's seat may undo or restart the game")
    return kinds


def game_undo(*, game: Game, seat: int) -> Table:
    """Take back the last move a person made, with the bots' moves that followed it: the log
    is cut there and replayed, so the game is exactly as it was before that move (in a game
    with bots, undo goes back to the last person's move, never to a bot's). Only the seat
    that made it may (in hot-seat mode, any person seat: they share the device). The log in
    words says so. Raises RuleViolation when there is nothing to undo, and nothing changes."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        kinds = _person(locked, seat)
        table = game_table(game=locked)
        people = [i for i, (by, _) in enumerate(table.log) if kinds[by] == SeatKind.PERSON]
        if not people:
            raise RuleViolation("no person has moved yet: there is nothing to undo")
        cut = people[-1]
        by, move = table.log[cut]
        names = [p.name for p in table.game.players]
        if by != seat and not locked.hot_seat:
            raise RuleViolation(f"the last person's move is {names[by]}'s: only they may undo it")
        try:
            earlier = replay_table(
                pack_cards(pack=locked.pack), seats=kinds, seed=locked.seed, log=table.log[:cut]
            )
        except RuleViolation as exc:  # a prefix of a log that replays always replays
            raise GameBroken(str(exc)) from exc
        taken = len(table.log) - cut
        line = len(earlier.game.log)
        text = f"{names[seat]} undoes {names[by]}'s move ({describe_move(earlier, by, move)})" + (
            (
                " and the bot's move after it"
                if taken == 2
                else f" and the {taken - 1} bot moves after it"
            )
            if taken > 1
            else ""
        )
        locked.notes = [n for n in locked.notes if n[0] <= line] + [[line, text]]
        locked.save(update_fields=["notes"])
        _save(locked, earlier)
    return earlier


def game_restart(*, game: Game, seat: int) -> Table:
    """Deal the game again from its seed, with the same seats (and links): the log is
    emptied and bots seated first move at once. Any person seat may; the log in words says
    who restarted it. RuleViolation for a bot's seat."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        kinds = _person(locked, seat)
        table = run_bots(new_table(pack_cards(pack=locked.pack), seats=kinds, seed=locked.seed))
        name = table.game.players[seat].name
        locked.notes = [[0, f"{name} restarts the game: the same seed deals the same cards"]]
        locked.save(update_fields=["notes"])
        _save(locked, table)
    return table


def game_save_scenario(
    *, game: Game, seat: int, actor: Actor, card: Card, name: str = ""
) -> CardScenario:
    """Save the game so far as a scenario of `card` (shared/design/scenario-format.md): the
    deal, the moves since as steps, and what holds now as expectations; it is run at once, as
    any scenario of a card is. `card` must be one of `scenario_cards`. Raises RuleViolation
    for a card outside the game's sets, and authoring's PermissionDenied, ScenarioNameError
    or CardDocumentError (a game too long for a scenario's size limit); nothing is stored
    then."""
    if card.card_set.code not in game_sets(game=game):
        raise RuleViolation(
            f"{card.name} is not in the sets this game was dealt from: attach the scenario to "
            "a card of yours that is"
        )
    table = game_table(game=game)
    name = name.strip() or f"Game {game.pk} after {len(table.log)} moves"
    document = table_scenario(table, name=name)
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    return scenario_create(card=card, actor=actor, name=name, text=text)


def seat_opened_record(*, user: User, seat: Seat) -> bool:
    """Remember that `user` opened `seat` with its link, for their "Your games" on any device
    (no token is kept: the link is derived again). Returns whether it was new."""
    _, created = OpenedSeat.objects.get_or_create(user=user, seat=seat)
    return created
