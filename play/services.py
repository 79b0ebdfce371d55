"""Writes: a new game, a move (after which the bots move at once), a pack from sets."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from packs.models import Pack
from packs.services import pack_build, pack_create
from play.models import Game, Seat
from play.selectors import game_table, pack_cards, remember_table, token_digest
from validator.engine import Move, MoveError, Table, apply_move, new_table, run_bots

Actor = User | AnonymousUser
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class CreatedGame:
    """A new game and its seats' secret tokens, in seat order (shown once: only their
    digests are stored)."""

    game: Game
    tokens: list[str]
    table: Table


def game_pack_from_sets(*, actor: Actor | None, set_codes: Sequence[str]) -> Pack:
    """A pack of whole sets the actor may see, for a game. A pack with the same cards
    (the same sha256) that no one owns is reused rather than kept twice."""
    built = pack_build(actor=actor, set_codes=set_codes, name=" + ".join(set_codes))
    existing = Pack.objects.filter(sha256=built.document["sha256"], owner=None).first()
    if existing is not None:
        return existing
    return pack_create(actor=None, built=built)


def _save(game: Game, table: Table) -> None:
    game.moves = [[seat, move] for seat, move in table.log]
    game.finished = table.over
    game.winners = table.winners
    game.save(update_fields=["moves", "finished", "winners", "updated_at"])
    remember_table(game=game, table=table)


def game_create(*, actor: Actor | None, pack: Pack, seats: Sequence[str], seed: int) -> CreatedGame:
    """Deal a game of `pack` from `seed` for the seats (each "person" or "bot", 2 to 6). Bots
    seated first move at once. Raises the engine's MoveError for bad seats or seed, or no
    person among the seats (nothing stored)."""
    if not 0 <= seed <= MAX_SEED:
        raise MoveError(f"the seed is a whole number from 0 to {MAX_SEED}")
    if "person" not in seats:
        # Bots alone would play the whole game here; that is what simulations are for.
        raise MoveError("a game needs at least one person's seat (bots alone: simulate the pack)")
    table = new_table(pack_cards(pack=pack), seats=seats, seed=seed)  # checks the seats
    table = run_bots(table)
    tokens = [secrets.token_urlsafe(24) for _ in seats]
    with transaction.atomic():
        game = Game.objects.create(
            pack=pack,
            pack_sha256=pack.sha256,
            seed=seed,
            created_by=actor if isinstance(actor, User) else None,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=index, kind=kind, token_sha256=token_digest(token))
            for index, (kind, token) in enumerate(zip(seats, tokens, strict=True))
        )
        _save(game, table)
    return CreatedGame(game, tokens, table)


def game_move(*, game: Game, seat: int, move: Move | Any) -> Table:
    """Make `seat`'s move, then let the bots move while the game waits for them; returns the
    table. A refused move raises the engine's RuleViolation naming the rule, and nothing is
    stored. The game's row is locked meanwhile, so two moves never interleave."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        table = game_table(game=locked)
        table = apply_move(table, seat, move, then_bots=True)
        _save(locked, table)
    return table
