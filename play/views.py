"""The table in the browser: deal a game, then one page per seat whose buttons are the moves
the engine allows that seat now (each a POST form, so it works without JavaScript)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods, require_POST

from authoring.scenarios import ScenarioNameError
from catalog import selectors as catalog_selectors
from packs import selectors as pack_selectors
from packs.selectors import PackBuildError
from play import selectors
from play.forms import NewGameForm
from play.models import Seat
from play.services import (
    GameLogFull,
    game_create,
    game_move,
    game_pack_from_sets,
    game_restart,
    game_save_scenario,
    game_undo,
)
from validator.engine import CardDocumentError, RuleViolation

MAX_MOVE_FIELD = 2000  # a move's JSON from a button: a few numbers and names


def _table_url(game_id: int, token: str) -> str:
    return reverse("play:table", kwargs={"game_id": game_id}) + f"?seat={token}"


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """Choose the cards, the seats and the seed; dealing shows each seat's secret link once."""
    listed = catalog_selectors.listed_sets(viewer=request.user).order_by(
        "-official", "year", "name"
    )
    packs = pack_selectors.packs_of(viewer=request.user)[:50]
    pack_choices = [(p.pk, p.name) for p in packs]
    # "Play this pack" on a pack's page comes here with the pack chosen.
    asked = request.GET.get("pack", "")
    initial = {"pack": int(asked)} if asked in {str(pk) for pk, _ in pack_choices} else None
    form = NewGameForm(
        request.POST if request.method == "POST" else None,
        initial=initial,
        set_choices=[(s.code, s.name) for s in listed],
        pack_choices=pack_choices,
    )
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["pack"] is not None:
                pack = pack_selectors.pack_get(pack_id=data["pack"], viewer=request.user)
                if pack is None:
                    raise Http404("no such pack")
            else:
                pack = game_pack_from_sets(actor=request.user, set_codes=data["sets"])
            seed = data["seed"] if data["seed"] is not None else secrets.randbelow(2**31)
            created = game_create(
                actor=request.user,
                pack=pack,
                seats=form.seats(),
                seed=seed,
                hot_seat=data["hot_seat"],
            )
        except PackBuildError as exc:
            errors = [message for _, message in exc.errors]
        except (RuleViolation, selectors.GameBroken) as exc:
            errors = [str(exc)]
        else:
            seats = [
                {"index": i, "kind": kind, "url": _table_url(created.game.pk, token)}
                for i, (kind, token) in enumerate(
                    zip(created.table.seats, created.tokens, strict=True)
                )
            ]
            device = next(s["url"] for s in seats if s["kind"] == "person")
            context = {"game": created.game, "seats": seats, "device_url": device}
            return render(request, "play/dealt.html", context)
    return render(
        request, "play/new.html", {"form": form, "errors": errors}, status=400 if errors else 200
    )


class _NoGame(Exception):
    """A link that opens no game: none (404: never, or deleted) or an expired one (410)."""

    def __init__(self, game_id: int, status: int) -> None:
        super().__init__(f"game {game_id}: {status}")
        self.game_id = game_id
        self.status = status


GameView = Callable[[HttpRequest, int], HttpResponse]


def _answers_no_game(view: GameView) -> GameView:
    """The play page's own 404 and 410 for a link that opens no game: what became of it
    (games no one moves in are deleted after days), and a link to deal a new one."""

    @wraps(view)
    def wrapper(request: HttpRequest, game_id: int) -> HttpResponse:
        try:
            return view(request, game_id)
        except _NoGame as exc:
            context = {
                "game_id": exc.game_id,
                "expired": exc.status == 410,
                "anonymous_days": settings.PLAY_ANONYMOUS_GAME_DAYS,
                "account_days": settings.PLAY_GAME_DAYS,
            }
            answer = render(request, "play/gone.html", context, status=exc.status)
            # 404 and 410 may be cached by default, but an expired game's 410 becomes a 404
            # once it is pruned.
            add_never_cache_headers(answer)
            return answer

    return wrapper


def _seat(request: HttpRequest, game_id: int, token: str) -> Seat:
    seat = selectors.seat_for_token(game_id=game_id, token=token)
    if seat is None:
        raise _NoGame(game_id, 404)
    if selectors.game_expired(seat.game):
        raise _NoGame(game_id, 410)
    return seat


def _acting(seat: Seat, asked: str, *, strict: bool = True) -> int:
    """The seat a request plays: the token's own, or in hot-seat mode the person seat the
    device shows (any person seat of the game: they share the device). `asked` names one
    (`as`); a button's (strict) that is not a person seat's index is refused, a page's falls
    back to the person the game waits for."""
    if not seat.game.hot_seat:
        return seat.index
    acting = selectors.hot_seat_turn(game=seat.game, seat=seat.index, asked=asked[:3])
    if strict and asked and asked != str(acting):
        raise RuleViolation(f"as: {asked[:20]!r} is not a person seat of this game")
    return acting


def _back(game_id: int, token: str, seat: Seat, acting: int) -> HttpResponseRedirect:
    """Back to the table after a button. In hot-seat mode, the same person keeps the device
    (no cover) only while the game still waits for them; else the cover screen comes."""
    url = _table_url(game_id, token)
    if seat.game.hot_seat:
        try:
            if selectors.hot_seat_turn(game=seat.game, seat=acting) == acting:
                url += f"&reveal={acting}"
        except selectors.GameBroken:
            pass
    return HttpResponseRedirect(url)


@_answers_no_game
def game_table(request: HttpRequest, game_id: int) -> HttpResponse:
    """One seat's page: the whole table, its own hand, and its legal moves as buttons. In
    hot-seat mode, the person the game waits for (or the one asked for by `as`), behind a
    cover screen until they reveal it."""
    token = request.GET.get("seat", "")
    seat = _seat(request, game_id, token)
    game = seat.game
    try:
        acting = _acting(seat, request.GET.get("as", ""), strict=False)
        state = selectors.game_state(game=game, seat=acting)
        moves = selectors.game_moves(game=game, seat=acting)
    except selectors.GameBroken as exc:
        return render(request, "play/broken.html", {"game": game, "error": str(exc)}, status=409)
    names = [p["name"] for p in state["players"]]
    if game.hot_seat and not state["over"] and request.GET.get("reveal") != str(acting):
        cover = {"game": game, "token": token, "acting": acting, "name": names[acting]}
        return render(request, "play/cover.html", cover)
    for move in moves:
        move["json"] = json.dumps(move["move"], sort_keys=True)
    selectors.add_faces(cards=selectors.shown_cards(state), viewer=request.user)
    me = state["players"][acting]
    combat = state["combat"]
    people = [s.index for s in game.seats.all() if s.kind == "person"]
    context: dict[str, Any] = {
        "game": game,
        "seat": seat,
        "acting": acting,
        "token": token,
        "state": state,
        "me": me,
        "moves": moves,
        "others": [(i, names[i]) for i in people if i != acting] if game.hot_seat else [],
        "active_name": names[state["active"]],
        "fighter_name": names[combat["fighter"]] if combat else "",
        "helper_name": names[combat["helper"]] if combat and combat["helper"] is not None else "",
        "winners": [names[i] for i in state["winners"]],
        "waiting": [names[i] for i in state["waiting_for"]],
        "poll_url": reverse("api:game_detail", kwargs={"game_id": game.pk}) + f"?seat={token}",
        "scenario_cards": selectors.scenario_cards(game=game, actor=request.user),
        "log_full": selectors.log_full_message() if state["log_full"] else "",
    }
    return render(request, "play/table.html", context)


@require_POST
@_answers_no_game
def game_move_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """A button's move: made (and the bots' after it), or refused with the engine's reason
    shown on the page; either way back to the seat's page."""
    token = request.POST.get("seat", "")
    seat = _seat(request, game_id, token)
    raw = request.POST.get("move", "")
    acting = seat.index
    try:
        acting = _acting(seat, request.POST.get("as", ""))
        if len(raw) > MAX_MOVE_FIELD:
            raise RuleViolation(f"a move is at most {MAX_MOVE_FIELD} characters")
        try:
            move = json.loads(raw)
        except ValueError:
            raise RuleViolation("the move is not a JSON object") from None
        game_move(game=seat.game, seat=acting, move=move)
    except GameLogFull as exc:
        messages.error(request, f"{exc}.")
    except RuleViolation as exc:
        messages.error(request, f"Refused: {exc}.")
    except selectors.GameBroken as exc:
        messages.error(request, f"The game no longer replays: {exc}")
    return _back(game_id, token, seat, acting)


def _seat_tool(
    request: HttpRequest, game_id: int, tool: Callable[..., object], done: str
) -> HttpResponse:
    """A playtesting tool (undo, restart) used by the seat of the request's link: `done` on
    success, else the reason; back to the table either way."""
    token = request.POST.get("seat", "")
    seat = _seat(request, game_id, token)
    acting = seat.index
    try:
        acting = _acting(seat, request.POST.get("as", ""))
        tool(game=seat.game, seat=acting)
    except RuleViolation as exc:
        messages.error(request, f"Refused: {exc}.")
    except selectors.GameBroken as exc:
        messages.error(request, f"The game no longer replays: {exc}")
    else:
        messages.success(request, done)
    return _back(game_id, token, seat, acting)


@require_POST
@_answers_no_game
def game_undo_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """Undo: the last person's move and the bots' after it taken back (or the reason not)."""
    return _seat_tool(request, game_id, game_undo, "The last move is taken back.")


@require_POST
@_answers_no_game
def game_restart_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """Restart: the same seed deals the same cards to the same seats (the links still work)."""
    return _seat_tool(request, game_id, game_restart, "The game is dealt again from its seed.")


@require_POST
@_answers_no_game
def game_scenario_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save as scenario: the game so far attached to one of the requester's cards, run at
    once; the page says whether it passes and where to find it."""
    token = request.POST.get("seat", "")
    seat = _seat(request, game_id, token)
    game = seat.game
    mine = {str(c.pk): c for c in selectors.scenario_cards(game=game, actor=request.user)}
    card = mine.get(request.POST.get("card", ""))
    name = request.POST.get("name", "")[:200]
    acting = seat.index
    try:
        acting = _acting(seat, request.POST.get("as", ""))
        if card is None:
            raise RuleViolation("choose one of your cards in the sets this game was dealt from")
        scenario = game_save_scenario(
            game=game, seat=acting, actor=request.user, card=card, name=name
        )
    except (RuleViolation, ScenarioNameError, PermissionDenied) as exc:
        messages.error(request, f"Not saved: {exc}.")
    except CardDocumentError as exc:
        messages.error(request, "Not saved: " + "; ".join(e.message for e in exc.errors))
    except selectors.GameBroken as exc:
        messages.error(request, f"The game no longer replays: {exc}")
    else:
        status = scenario.get_last_status_display().lower()
        messages.success(
            request,
            f"Saved as the scenario {scenario.name!r} of {scenario.card.name} "
            f"(it {status}); see the card's scenarios.",
        )
    return _back(game_id, token, seat, acting)
