"""The table in the browser: deal a game, then one page per seat whose buttons are the moves
the engine allows that seat now (each a POST form, so it works without JavaScript)."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from authoring.scenarios import ScenarioNameError
from catalog import selectors as catalog_selectors
from packs import selectors as pack_selectors
from packs.selectors import PackBuildError
from play import moves_display, selectors, table_page
from play.forms import NewGameForm
from play.models import Game, Seat
from play.remembered import dealt_ids, opened_seats, remember_dealt, remember_seat
from play.services import (
    GameLogFull,
    game_create,
    game_move,
    game_pack_from_sets,
    game_restart,
    game_save_scenario,
    game_time_up,
    game_undo,
    seat_opened_record,
)
from validator.engine import CardDocumentError, RuleViolation

MAX_MOVE_FIELD = 2000  # a move's JSON from a button: a few numbers and names


def _table_url(game_id: int, token: str) -> str:
    return reverse("play:table", kwargs={"game_id": game_id}) + f"?seat={token}"


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """Choose the cards, the seats and the seed. Dealing redirects to the game's dealt page
    (Post/Redirect/Get: a refresh deals nothing), which this browser's session and the
    logged-in dealer may open again."""
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
                answer_seconds=data["answer_seconds"] or 0,
            )
        except PackBuildError as exc:
            errors = [message for _, message in exc.errors]
        except (RuleViolation, selectors.GameBroken) as exc:
            errors = [str(exc)]
        else:
            remember_dealt(request.session, game_id=created.game.pk)
            return HttpResponseRedirect(reverse("play:dealt", kwargs={"game_id": created.game.pk}))
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
    """One seat's page: the fight first, then its legal moves grouped (buttons and small
    forms), its own hand, the players and the log. In hot-seat mode, the person the game
    waits for (or the one asked for by `as`), behind a cover screen until they reveal it.
    `?fragment=1` answers the page's changing regions alone (table.js swaps them in place);
    204 when the page would now be the cover (the script then opens the page itself)."""
    token = request.GET.get("seat", "")
    seat = _seat(request, game_id, token)
    game = seat.game
    fragment = request.GET.get("fragment") == "1"
    try:
        acting = _acting(seat, request.GET.get("as", ""), strict=False)
        state = selectors.game_state(game=game, seat=acting)
        moves = selectors.game_moves(game=game, seat=acting)
    except selectors.GameBroken as exc:
        return render(request, "play/broken.html", {"game": game, "error": str(exc)}, status=409)
    names = [p["name"] for p in state["players"]]
    if game.hot_seat and not state["over"] and request.GET.get("reveal") != str(acting):
        if fragment:
            return HttpResponse(status=204)
        cover = {"game": game, "token": token, "acting": acting, "name": names[acting]}
        return render(request, "play/cover.html", cover)
    context = _table_context(request, seat, acting, state, moves)
    context["log"] = table_page.log_entries(
        state["log"], selectors.game_card_links(game=game, viewer=request.user)
    )
    if fragment:
        answer = render(request, "play/_table_regions.html", context)
        add_never_cache_headers(answer)
        return answer
    return render(request, "play/table.html", context)


def _table_context(
    request: HttpRequest,
    seat: Seat,
    acting: int,
    state: dict[str, Any],
    moves: list[dict[str, Any]],
) -> dict[str, Any]:
    """What the table's template shows, from the seat's view and its legal moves."""
    game = seat.game
    names = [p["name"] for p in state["players"]]
    selectors.add_faces(
        cards=selectors.shown_cards(state),
        viewer=request.user,
        gold=selectors.game_card_gold(game=game),
    )
    people = [s.index for s in game.seats.all() if s.kind == "person"]
    log_full = selectors.log_full_message() if state["log_full"] else ""
    query = request.GET.copy()
    query.pop("fragment", None)
    return {
        "game": game,
        "seat": seat,
        "acting": acting,
        "token": token_of(request),
        "state": state,
        "me": state["players"][acting],
        "groups": moves_display.group_moves(moves, state, acting),
        "has_moves": bool(moves),
        "status": table_page.status_line(
            state, acting, can_move=bool(moves), log_full=bool(log_full)
        ),
        "your_move": acting in state["waiting_for"] and not state["over"] and not log_full,
        "fight": table_page.fight_summary(state, acting),
        "asked": table_page.help_request(state, acting),
        "window": table_page.fight_window(state, acting),
        "offer": table_page.help_offer(state, acting),
        "choice": moves_display.my_choice(state, acting),
        "others": [(i, names[i]) for i in people if i != acting] if game.hot_seat else [],
        "page_url": request.path + "?" + query.urlencode(),
        "poll_url": reverse("api:game_detail", kwargs={"game_id": game.pk})
        + "?"
        + urlencode({"seat": token_of(request)}),
        "scenario_cards": selectors.scenario_cards(game=game, actor=request.user),
        "log_full": log_full,
    }


def token_of(request: HttpRequest) -> str:
    """The seat's token a page or a form carries."""
    return request.GET.get("seat", "") or request.POST.get("seat", "")


MAX_PICKS = 60  # cards a form picks: a hand never holds more (the engine's own bound)
_CARD_NUMBER = re.compile(r"[0-9]{1,9}")
_TREASURES = re.compile(r"[0-9]{1,2}")


def compose_move(data: QueryDict) -> Any:
    """The move a form sends: `move` (JSON: a button's whole move, or a form's template,
    or the option chosen among radio buttons or a menu), with `pick_into` naming the list
    the repeated `pick` fields fill (cards' numbers), and `treasures` (a whole number) the
    Treasures offered for help. Each field is checked strictly; the engine checks the move."""
    raw = data.get("move", "")
    if not raw:
        raise RuleViolation("choose a move first")
    if len(raw) > MAX_MOVE_FIELD:
        raise RuleViolation(f"a move is at most {MAX_MOVE_FIELD} characters")
    try:
        move = json.loads(raw)
    except ValueError:
        raise RuleViolation("the move is not a JSON object") from None
    into = data.get("pick_into", "")
    picks = data.getlist("pick")
    if into:
        if into not in moves_display.PICK_KEYS:
            raise RuleViolation("pick_into: one of " + ", ".join(moves_display.PICK_KEYS))
        if not isinstance(move, dict) or into not in move:
            raise RuleViolation(f"the form's move has no {into!r} to fill")
        if len(picks) > MAX_PICKS:
            raise RuleViolation(f"pick: at most {MAX_PICKS} cards")
        if not all(_CARD_NUMBER.fullmatch(pick) for pick in picks):
            raise RuleViolation("pick: a card's number")
        numbers = [int(pick) for pick in picks]
        if len(set(numbers)) != len(numbers):
            raise RuleViolation("pick: a card is picked twice")
        move[into] = numbers
    elif picks:
        raise RuleViolation("pick: the form names no list to fill (pick_into)")
    if "treasures" in data:
        treasures = data.get("treasures", "").strip()
        if not isinstance(move, dict) or not {"ask_for_help", "offer_help"} & set(move):
            raise RuleViolation("treasures: only with a request or an offer of help")
        if not _TREASURES.fullmatch(treasures) or int(treasures) > 20:
            raise RuleViolation("treasures: a whole number of Treasures from 0 to 20")
        if "offer_help" in move:
            move["offer_help"] = int(treasures)
        else:
            move["treasures"] = int(treasures)
    return move


@require_POST
@_answers_no_game
def game_move_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """A button's or a form's move (`compose_move`): made (and the bots' after it), or
    refused with the reason shown on the page; either way back to the seat's page."""
    token = request.POST.get("seat", "")
    seat = _seat(request, game_id, token)
    acting = seat.index
    try:
        acting = _acting(seat, request.POST.get("as", ""))
        game_move(game=seat.game, seat=acting, move=compose_move(request.POST))
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


def _time_up(*, game: Game, seat: int) -> object:
    return game_time_up(game=game)


@require_POST
@_answers_no_game
def game_time_up_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """The time to answer a fight has run out: the people who have not answered pass (the
    page's countdown sends it; the server checks the time)."""
    return _seat_tool(request, game_id, _time_up, "Time is up: the fight goes on.")


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


def _live_game(game_id: int) -> Game:
    """The game, or the play page's 404 (none) or 410 (expired)."""
    game = selectors.game_get(game_id=game_id)
    if game is None:
        raise _NoGame(game_id, 404)
    if selectors.game_expired(game):
        raise _NoGame(game_id, 410)
    return game


@require_GET
@_answers_no_game
def game_dealt(request: HttpRequest, game_id: int) -> HttpResponse:
    """The seat links of a game just dealt, shown again on every visit (a refresh deals
    nothing) to the browser that dealt it and to its logged-in dealer; a 403 to anyone else."""
    game = _live_game(game_id)
    if not selectors.dealt_by(game=game, user=request.user, dealt=dealt_ids(request.session)):
        answer = render(request, "play/not_dealer.html", {"game": game}, status=403)
    else:
        seats = [
            {
                "index": link.index,
                "kind": link.kind,
                "url": _table_url(game.pk, link.token) if link.token else "",
            }
            for link in selectors.seat_links(game=game)
        ]
        people = [seat for seat in seats if seat["kind"] == "person"]
        context = {
            "game": game,
            "seats": seats,
            "device_url": people[0]["url"],
            "given_back": all(seat["url"] for seat in people),
        }
        answer = render(request, "play/dealt.html", context)
    add_never_cache_headers(answer)  # secret links: never kept by a cache
    return answer


@require_GET
def your_games(request: HttpRequest) -> HttpResponse:
    """The games this browser (or the logged-in user, on any device) dealt or opened a seat
    of, the most recently played first, each with its status and the links to its seats."""
    games = selectors.your_games(
        user=request.user, dealt=dealt_ids(request.session), opened=opened_seats(request.session)
    )
    rows = [
        {
            "game": entry.game,
            "dealt": entry.dealt,
            "status": entry.status,
            "yours_to_move": entry.yours_to_move,
            "turn": entry.turn,
            "links": [
                (link.name, _table_url(entry.game.pk, link.token))
                for link in entry.links
                if link.token
            ],
        }
        for entry in games
    ]
    context = {
        "games": rows,
        "limit": selectors.YOUR_GAMES_LIMIT,
        "anonymous_days": settings.PLAY_ANONYMOUS_GAME_DAYS,
        "account_days": settings.PLAY_GAME_DAYS,
    }
    answer = render(request, "play/mine.html", context)
    add_never_cache_headers(answer)
    return answer


def _remember_opened(request: HttpRequest, game_id: int) -> None:
    """Remember the seat the request's link opened (see `remembers_seat`)."""
    seat = selectors.seat_for_token(game_id=game_id, token=request.GET.get("seat", ""))
    if seat is None or not remember_seat(request.session, game_id=game_id, index=seat.index):
        return
    if isinstance(request.user, User) and request.user.is_authenticated:
        seat_opened_record(user=request.user, seat=seat)


def remembers_seat(view: GameView) -> GameView:
    """Wraps the table page (play/urls.py): a seat opened by its link is remembered for
    "Your games", in the session (game and seat, never the token) and, logged in, as an
    OpenedSeat. The session and the database are written only the first time."""

    @wraps(view)
    def wrapper(request: HttpRequest, game_id: int) -> HttpResponse:
        answer = view(request, game_id)
        if answer.status_code == 200:
            _remember_opened(request, game_id)
        return answer

    return wrapper
