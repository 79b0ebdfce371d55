"""Reads: a game, its seats, and its table as the engine replays it, seen from one seat."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from catalog.faces import face_key
from catalog.models import Card, CardSet
from catalog.permissions import is_public
from catalog.selectors import sets_editable_by, visible_sets
from packs.models import Pack
from play.models import Game, OpenedSeat, Seat
from play.tokens import given_back
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
    entries = [{"turn": 0, "text": line} for line in table.game.log]
    return [entry["text"] for entry in with_notes(game=game, entries=entries, turn=0)]


def with_notes(*, game: Game, entries: list[dict[str, Any]], turn: int) -> list[dict[str, Any]]:
    """The engine's log entries ({"turn", "text"}) with the game's notes (undo, restart) in
    place, each in the turn of the line it comes before (`turn`: the turn now, for a note at
    the end)."""
    entries = list(entries)
    # From the last note back (one note placed before another at the same line stays first).
    for line, text in reversed(sorted(game.notes, key=lambda note: int(note[0]))):
        at = min(int(line), len(entries))
        entries.insert(
            at, {"turn": entries[at]["turn"] if at < len(entries) else turn, "text": str(text)}
        )
    return entries


def answer_by(*, game: Game, table: Table) -> str | None:
    """When the people of the open reaction window have had the game's time to answer (ISO
    8601), or None without a timer or a window waiting for a person."""
    waiting = [s for s in table.window or () if table.seats[s] == "person"]
    if not game.answer_seconds or not waiting:
        return None
    return (game.updated_at + timedelta(seconds=game.answer_seconds)).isoformat()


def game_state(*, game: Game, seat: int | None, table: Table | None = None) -> dict[str, Any]:
    """The table as one seat sees it: every card in play, hand sizes, its own hand only
    (`table`: the game's table when the caller has it, else it is replayed)."""
    table = table if table is not None else game_table(game=game)
    view = table_view(table, seat)
    view["game"] = game.pk
    view["log"] = with_notes(game=game, entries=view["log"], turn=table.game.turn_number)
    view["log_full"] = log_full(game)
    view["answer_seconds"] = game.answer_seconds
    view["answer_by"] = answer_by(game=game, table=table)
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
    """Every card a seat's view shows (its hand, what is in play, the fight, the cards a
    question asks about, the discards)."""
    cards: list[dict[str, Any]] = list(state.get("hand") or [])
    for player in state["players"]:
        for pile in ("character", "equipped", "carried", "followers", "curses"):
            cards += player[pile]
    combat = state.get("combat")
    if combat:
        for monster in combat["monsters"]:
            cards += [monster["card"], *monster["enhancers"]]
        cards += combat["one_shots"]
    choice = state.get("choice")
    if isinstance(choice, dict):
        cards += [c for c in choice.get("candidates") or [] if isinstance(c, dict)]
    cards += state["decks"]["door_discard"] + state["decks"]["treasure_discard"]
    return cards


def card_links(
    *, keys: set[tuple[str, str]], viewer: User | AnonymousUser, faces: bool = True
) -> dict[tuple[str, str], dict[str, Any]]:
    """What the table links each card to, by (set code, name), for the catalog cards the
    viewer may see: the face's address (`face`, when `faces`), the card's page (`url`), its
    rules text (`text`) and whether the viewer may edit its set (`mine`). A card of a set the
    viewer cannot open is left out: the table shows it by its name alone."""
    if not keys:
        return {}
    codes = {code for code, _ in keys}
    names = {name for _, name in keys}
    editable = set(
        sets_editable_by(viewer=viewer).filter(code__in=codes).values_list("pk", flat=True)
    )
    rows = Card.objects.filter(
        card_set__in=visible_sets(viewer=viewer), card_set__code__in=codes, name__in=names
    ).select_related("card_set")
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        key = (row.card_set.code, row.name)
        if key not in keys or key in found:
            continue
        face = ""
        if faces:
            face = reverse("prints:card_face", kwargs={"card_id": row.pk, "digest": face_key(row)})
        found[key] = {
            "face": face,
            "url": reverse(
                "catalog:card_detail", kwargs={"code": row.card_set.code, "slug": row.slug}
            ),
            "text": row.text,
            "mine": row.card_set_id in editable,
        }
    return found


def game_card_links(*, game: Game, viewer: User | AnonymousUser) -> dict[str, str]:
    """Each card name of the game's pack that the viewer may open, with its page's address
    (the log links the names it mentions)."""
    keys = {(code, card.name) for code, card in pack_cards(pack=game.pack)}
    links = card_links(keys=keys, viewer=viewer, faces=False)
    by_name: dict[str, str] = {}
    for (_, name), link in sorted(links.items()):
        by_name.setdefault(name, link["url"])
    return by_name


def game_card_gold(*, game: Game) -> dict[tuple[str, str], int]:
    """The Gold value of each card of the game's pack that has one, by (set code, name)."""
    gold: dict[tuple[str, str], int] = {}
    for code, card in pack_cards(pack=game.pack):
        value = getattr(card, "gold", None)
        if isinstance(value, int) and value > 0:
            gold[(code, card.name)] = value
    return gold


def add_faces(
    *,
    cards: list[dict[str, Any]],
    viewer: User | AnonymousUser,
    gold: dict[tuple[str, str], int] | None = None,
) -> None:
    """Give each card of a view its face's address (`face`), its page (`url`), its rules text
    (`text`) and `mine` (in a set the viewer may edit), when the viewer may see the catalog
    card of that set and name; the others keep their name alone (a game dealt from a set the
    viewer cannot open is still played, by names). With `gold`, each card's Gold value too
    (`gold`, 0 when it has none)."""
    links = card_links(keys={(c.get("set", ""), c["name"]) for c in cards}, viewer=viewer)
    for shown in cards:
        key = (shown.get("set", ""), shown["name"])
        link = links.get(key, {})
        shown["face"] = link.get("face", "")
        shown["url"] = link.get("url", "")
        shown["text"] = link.get("text", "")
        shown["mine"] = bool(link.get("mine"))
        if gold is not None:
            shown["gold"] = gold.get(key, 0)


# "Your games" (play/remembered.py, docs/play.md): the games one dealt and the seats one opened.
YOUR_GAMES_LIMIT = 50


@dataclass(frozen=True)
class SeatLink:
    """A seat of a game and its token worked out again (play/tokens.py): None for a bot's
    seat, and for a game whose links cannot be given back (dealt before tokens were derived,
    or under a secret key since retired)."""

    index: int
    name: str
    kind: str
    token: str | None


@dataclass(frozen=True)
class YourGame:
    """A game of someone's "Your games": whether they dealt it, where it stands, and the
    seats they may open (every person seat of a game they dealt, else the seats they opened;
    one link, the device's, in hot-seat mode)."""

    game: Game
    dealt: bool
    status: str
    yours_to_move: bool
    turn: int | None
    links: list[SeatLink] = field(default_factory=list)


def _user_id(user: User | AnonymousUser) -> int | None:
    return user.pk if isinstance(user, User) and user.is_authenticated else None


def seat_links(*, game: Game) -> list[SeatLink]:
    """Every seat of the game, in order, with its token given back where it can be."""
    return [
        SeatLink(
            index=seat.index,
            name=f"P{seat.index + 1}",
            kind=seat.kind,
            token=given_back(salt=game.token_salt, index=seat.index, token_sha256=seat.token_sha256)
            if seat.kind == "person"
            else None,
        )
        for seat in game.seats.all()
    ]


def dealt_by(*, game: Game, user: User | AnonymousUser, dealt: Sequence[int]) -> bool:
    """Whether the requester dealt the game: its logged-in dealer, or the browser whose
    session recorded the deal (`dealt`). Only they are shown every seat's link again."""
    user_id = _user_id(user)
    return game.pk in dealt or (user_id is not None and game.created_by_id == user_id)


def _live(now: datetime) -> Q:
    """The games not expired at `now` (game_expired's rule, in a query)."""
    anonymous = now - timedelta(days=game_keep_days(anonymous=True))
    accounts = now - timedelta(days=game_keep_days(anonymous=False))
    return Q(created_by__isnull=True, updated_at__gt=anonymous) | Q(
        created_by__isnull=False, updated_at__gt=accounts
    )


def _standing(game: Game, yours: set[int]) -> tuple[str, bool, int | None]:
    """The game's status in words, whether it waits for one of `yours`, and its turn."""
    try:
        table = game_table(game=game)
    except GameBroken:
        return "No longer replays", False, None
    names = [player.name for player in table.game.players]
    if table.over:
        won = " and ".join(names[i] for i in table.winners)
        return (f"{won} won" if won else "Over (turn limit)"), False, table.game.turn_number
    waiting = seats_to_move(table)
    if yours & set(waiting):
        return "Your move", True, table.game.turn_number
    text = "Waiting for " + ", ".join(names[i] for i in waiting) if waiting else "Waiting"
    return text, False, table.game.turn_number


def your_games(
    *,
    user: User | AnonymousUser,
    dealt: Sequence[int],
    opened: Sequence[tuple[int, int]],
    now: datetime | None = None,
    limit: int = YOUR_GAMES_LIMIT,
) -> list[YourGame]:
    """The games the requester dealt (`dealt`: the session's; logged in, also by
    `created_by`) or opened a seat of (`opened`: the session's (game, seat) pairs; logged in,
    also their OpenedSeat rows), expired games left out, the most recently played first, at
    most `limit`. Four queries whatever the number (games, seats, packs, opened seats); each
    status is the table's replay, kept in the tables' cache."""
    user_id = _user_id(user)
    wanted = Q(pk__in={*dealt, *(game_id for game_id, _ in opened)})
    if user_id is not None:
        theirs = OpenedSeat.objects.filter(user_id=user_id, seat__game=OuterRef("pk"))
        wanted |= Q(created_by_id=user_id) | Q(Exists(theirs))
    rows = Game.objects.filter(wanted, _live(now or timezone.now()))
    games = list(rows.order_by("-updated_at", "-id").prefetch_related("seats")[:limit])
    packs = Pack.objects.in_bulk({game.pack_id for game in games})
    pairs = set(opened)
    if user_id is not None:
        pairs |= set(
            OpenedSeat.objects.filter(
                user_id=user_id, seat__game_id__in=[game.pk for game in games]
            ).values_list("seat__game_id", "seat__index")
        )
    found: list[YourGame] = []
    for game in games:
        game.pack = packs[game.pack_id]
        yours = {index for game_id, index in pairs if game_id == game.pk}
        links = seat_links(game=game)
        people = [link for link in links if link.kind == "person"]
        if game.hot_seat and yours:
            yours = {link.index for link in people}
        is_dealer = dealt_by(game=game, user=user, dealt=dealt)
        shown = people if is_dealer else [link for link in people if link.index in yours]
        if game.hot_seat:
            shown = shown[:1]  # one link opens the table for every person seat
        status, to_move, turn = _standing(game, yours)
        found.append(YourGame(game, is_dealer, status, to_move, turn, shown))
    return found
