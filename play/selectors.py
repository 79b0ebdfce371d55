"""Reads: a game, its seats, and its table as the engine replays it, seen from one seat."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.urls import reverse
from django.utils import timezone

from catalog.faces import face_key
from catalog.models import Card, CardSet
from catalog.permissions import is_public
from catalog.selectors import visible_sets
from packs.models import Pack
from play.models import Game, Seat
from validator.engine import (
    CardBase,
    Move,
    PackError,
    RuleViolation,
    Table,
    describe_move,
    legal_moves,
    parse_pack,
    replay_table,
    seats_to_move,
    table_view,
)

# Parsing a pack costs far more than a move: the cards of the packs in play are kept, by
# sha256 (a pack never changes), a few at a time.
_CARDS: OrderedDict[str, tuple[tuple[str, CardBase], ...]] = OrderedDict()
# The last table replayed for each game, so that a move is applied to it instead of the whole
# log again. Only a cache: it is used when its log is exactly the stored one.
_TABLES: OrderedDict[int, Table] = OrderedDict()
_LOCK = threading.Lock()
MAX_CACHED_PACKS = 8
MAX_CACHED_TABLES = 64


class GameBroken(Exception):
    """The stored game no longer replays (its pack does not load, or a move is refused)."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_get(*, game_id: int) -> Game | None:
    # The id comes from a path, where play/converters.py holds it to a row's range.
    return Game.objects.filter(pk=game_id).first()


def seat_for_token(*, game_id: int, token: str) -> Seat | None:
    """The seat this secret link opens, with its game (one query), or None: the token of
    another game opens nothing."""
    if not token or len(token) > 100:
        return None
    found = Seat.objects.select_related("game").filter(
        game_id=game_id, token_sha256=token_digest(token)
    )
    return found.first()


def game_keep_days(*, anonymous: bool) -> int:
    """How many days a game no one moves in is kept: PLAY_ANONYMOUS_GAME_DAYS for a game
    dealt without an account, PLAY_GAME_DAYS for one dealt by a logged-in user."""
    return settings.PLAY_ANONYMOUS_GAME_DAYS if anonymous else settings.PLAY_GAME_DAYS


def game_expires_at(game: Game) -> datetime:
    """When the game expires: its last move (or deal, undo, restart) and its days to keep."""
    days = game_keep_days(anonymous=game.created_by_id is None)
    return game.updated_at + timedelta(days=days)


def game_expired(game: Game, *, now: datetime | None = None) -> bool:
    """Whether the game's time is up: it is no longer shown or played, even before the
    worker has deleted it."""
    return game_expires_at(game) <= (now or timezone.now())


def log_full(game: Game) -> bool:
    """Whether the game's log holds PLAY_MAX_LOG_MOVES moves: no move is made any more."""
    return len(game.moves) >= settings.PLAY_MAX_LOG_MOVES


def log_full_message() -> str:
    """The refusal of a move in a game whose log is full, in players' words."""
    cap = settings.PLAY_MAX_LOG_MOVES
    return f"This game has reached {cap:,} move{'s' if cap != 1 else ''}; start a new one"


def pack_cards(*, pack: Pack) -> tuple[tuple[str, CardBase], ...]:
    with _LOCK:
        hit = _CARDS.get(pack.sha256)
        if hit is not None:
            _CARDS.move_to_end(pack.sha256)
            return hit
    try:
        document = parse_pack(pack.document, source=f"pack {pack.pk}")
    except PackError as exc:
        raise GameBroken("the pack does not load: " + "; ".join(exc.lines())) from exc
    cards = tuple(document.game_cards())
    with _LOCK:
        _CARDS[pack.sha256] = cards
        while len(_CARDS) > MAX_CACHED_PACKS:
            _CARDS.popitem(last=False)
    return cards


def stored_log(game: Game) -> list[tuple[int, Move]]:
    return [(int(seat), dict(move)) for seat, move in game.moves]


def game_table(*, game: Game) -> Table:
    """The game's table: the replay of its stored log (from the cache when it holds exactly
    that log). Shared with the cache: the engine never changes a table once made (a move
    returns a new one), so no one may change it in place."""
    log = stored_log(game)
    with _LOCK:
        cached = _TABLES.get(game.pk)
    if cached is not None and cached.seed == game.seed and cached.log == log:
        return cached
    seats = [seat.kind for seat in game.seats.all()]
    try:
        table = replay_table(pack_cards(pack=game.pack), seats=seats, seed=game.seed, log=log)
    except RuleViolation as exc:
        raise GameBroken(str(exc)) from exc
    remember_table(game=game, table=table)
    return table


def forget_tables(*, game_ids: list[int]) -> None:
    """Drop the cached tables of deleted games."""
    with _LOCK:
        for game_id in game_ids:
            _TABLES.pop(game_id, None)


def remember_table(*, game: Game, table: Table) -> None:
    with _LOCK:
        _TABLES[game.pk] = table
        _TABLES.move_to_end(game.pk)
        while len(_TABLES) > MAX_CACHED_TABLES:
            _TABLES.popitem(last=False)


def hot_seat_turn(*, game: Game, seat: int, asked: str = "") -> int:
    """In hot-seat mode, the person seat the device shows: `asked` (a person seat's index,
    to play out of turn: a curse, a monster enhancer), else the person the game waits for,
    else `seat`."""
    people = [s.index for s in game.seats.all() if s.kind == "person"]
    if asked.isdigit() and int(asked) in people:
        return int(asked)
    waiting = [s for s in seats_to_move(game_table(game=game)) if s in people]
    return waiting[0] if waiting else seat


def game_sets(*, game: Game) -> list[str]:
    """The codes of the sets the game's cards come from."""
    return sorted({code for code, _ in pack_cards(pack=game.pack)})


def game_is_public(*, game: Game) -> bool:
    """Whether anyone may read the game's log without a seat: only when every set its cards
    come from is one anyone may see (official or public, not deleted). A game dealt from a
    private set, or from one that is gone, stays playable by its seats, but its cards are not
    listed to others."""
    codes = game_sets(game=game)
    sets = list(CardSet.objects.filter(code__in=codes))
    return len(sets) == len(codes) and all(is_public(s) for s in sets)


def log_lines(*, game: Game, table: Table) -> list[str]:
    """The log in words: the engine's, with the game's notes (undo, restart) in place."""
    lines = list(table.game.log)
    # From the last note back (one note placed before another at the same line stays first).
    for line, text in reversed(sorted(game.notes, key=lambda note: int(note[0]))):
        lines.insert(min(int(line), len(lines)), str(text))
    return lines


def game_state(*, game: Game, seat: int | None, table: Table | None = None) -> dict[str, Any]:
    """The table as one seat sees it: every card in play, hand sizes, its own hand only
    (`table`: the game's table when the caller has it, else it is replayed)."""
    table = table if table is not None else game_table(game=game)
    view = table_view(table, seat)
    view["game"] = game.pk
    view["log"] = log_lines(game=game, table=table)[-30:]
    view["log_full"] = log_full(game)
    return view


def game_moves(*, game: Game, seat: int) -> list[dict[str, Any]]:
    """The moves the rules allow this seat now, each with its words for a button (none once
    the game's log is full: no move is made any more)."""
    if log_full(game):
        return []
    table = game_table(game=game)
    return [
        {"move": move, "text": describe_move(table, seat, move)}
        for move in legal_moves(table, seat)
    ]


def game_log(*, game: Game) -> dict[str, Any]:
    """The moves made, by seat, and the log in words."""
    table = game_table(game=game)
    return {
        "game": game.pk,
        "moves": [{"seat": seat, "move": move} for seat, move in table.log],
        "lines": log_lines(game=game, table=table),
    }


def scenario_cards(*, game: Game, actor: User | AnonymousUser) -> list[Card]:
    """The cards a save as scenario may be attached to: the actor's own (in a set they may
    edit), among the sets this game was dealt from (the scenario is played with those sets,
    so the card under test is in its decks)."""
    if not isinstance(actor, User) or not actor.is_authenticated:
        return []
    codes = game_sets(game=game)
    cards = Card.objects.filter(card_set__code__in=codes).select_related("card_set")
    if not actor.is_staff:
        cards = cards.filter(card_set__owner=actor, card_set__official=False)
    return list(cards.order_by("card_set__code", "name")[:500])


def shown_cards(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every card a seat's view shows (its hand, what is in play, the fight, the discards)."""
    cards: list[dict[str, Any]] = list(state.get("hand") or [])
    for player in state["players"]:
        for pile in ("character", "equipped", "carried", "followers", "curses"):
            cards += player[pile]
    combat = state.get("combat")
    if combat:
        for monster in combat["monsters"]:
            cards += [monster["card"], *monster["enhancers"]]
        cards += combat["one_shots"]
    cards += state["decks"]["door_discard"] + state["decks"]["treasure_discard"]
    return cards


def add_faces(*, cards: list[dict[str, Any]], viewer: User | AnonymousUser) -> None:
    """Give each card of a view its face's address (`face`), when the viewer may see the
    catalog card of that set and name; the others keep their name alone (a game dealt from
    a set the viewer cannot open is still played, by names)."""
    wanted = {(c["set"], c["name"]) for c in cards}
    codes = {code for code, _ in wanted}
    found: dict[tuple[str, str], str] = {}
    rows = Card.objects.filter(
        card_set__in=visible_sets(viewer=viewer), card_set__code__in=codes
    ).select_related("card_set")
    for row in rows:
        key = (row.card_set.code, row.name)
        if key in wanted and key not in found:
            found[key] = reverse(
                "prints:card_face", kwargs={"card_id": row.pk, "digest": face_key(row)}
            )
    for shown in cards:
        shown["face"] = found.get((shown["set"], shown["name"]), "")
