"""The games API: deal a game, read the table from a seat, its legal moves, make a move, the
log. A seat is named by its secret token (the seat link); the token opens that seat only."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from authoring.scenarios import ScenarioNameError
from catalog.api.errors import ApiError, service_errors
from catalog.api.serializers import ErrorOutput, StrictInput
from catalog.api.throttles import WriteThrottle
from catalog.api.views import EngineView, api_input
from catalog.models import MAX_ROW_ID
from packs import selectors as pack_selectors
from packs.models import Pack
from packs.selectors import PackBuildError
from play import selectors
from play.converters import GAME_ID
from play.models import ANSWER_SECONDS, Game, Seat
from play.services import (
    MAX_SEED,
    GameLogFull,
    game_create,
    game_move,
    game_pack_from_sets,
    game_restart,
    game_save_scenario,
    game_time_up,
    game_undo,
)
from validator.engine import MOVE_VERBS, SEAT_KINDS, MoveError, RuleViolation, Table

MAX_MOVE_KEYS = 4  # a verb and at most three arguments (use: ability, discard, on)


class PlayThrottle(WriteThrottle):
    """Dealing a game and making a move run the engine: anyone may, counted per user (per
    address when anonymous). A game takes a few hundred moves, so the rate is above the
    validator's; reads are not counted."""

    scope = "play"
    default_rate = "3600/hour"


class SeatInput(StrictInput):
    kind = serializers.ChoiceField(choices=list(SEAT_KINDS))


class GameCreateInput(StrictInput):
    pack = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROW_ID,
        required=False,
        help_text="the id of one of your packs (or give sets)",
    )
    sets = serializers.ListField(
        child=serializers.CharField(max_length=60),
        min_length=1,
        max_length=20,
        required=False,
        help_text="codes of sets you may see, dealt whole (or give pack)",
    )
    seats = serializers.ListField(child=SeatInput(), min_length=2, max_length=6)
    seed = serializers.IntegerField(
        min_value=0, max_value=MAX_SEED, required=False, help_text="chosen at random if left out"
    )
    hot_seat = serializers.BooleanField(
        default=False,
        help_text="every person seat played on one device, a cover screen between turns "
        "(two or more person seats)",
    )
    answer_seconds = serializers.ChoiceField(
        choices=ANSWER_SECONDS,
        default=0,
        help_text="seconds a person has to answer a fight before anyone may let their chance "
        "pass (time-up/); 0: the fight waits until each person passes",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("pack" in attrs) == ("sets" in attrs):
            raise serializers.ValidationError({"pack": ["give either pack or sets, not both"]})
        return attrs


class MoveObjectField(serializers.JSONField):
    """A move object: one verb of the engine's and its arguments
    (validator/engine/table_moves.py)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict) or not 1 <= len(data) <= MAX_MOVE_KEYS:
            raise serializers.ValidationError(
                f"a move is an object of 1 to {MAX_MOVE_KEYS} keys naming one of: "
                + ", ".join(MOVE_VERBS)
            )
        return data


class MoveInput(StrictInput):
    seat = serializers.CharField(max_length=100, help_text="the seat's secret token")
    move = MoveObjectField(help_text='a move as listed by moves/, such as {"kick_door": true}')


class SeatInputOnly(StrictInput):
    seat = serializers.CharField(max_length=100, help_text="the seat's secret token")


class SaveScenarioInput(StrictInput):
    seat = serializers.CharField(max_length=100, help_text="the seat's secret token")
    card = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROW_ID,
        help_text="the id of a card of yours in one of the game's sets",
    )
    name = serializers.CharField(
        max_length=120, required=False, allow_blank=True, help_text="the scenario's name"
    )


class ScenarioSavedOutput(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField(default="scenario")
    id = serializers.IntegerField()
    card = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="its first run: pass, fail or error")
    messages = serializers.ListField(child=serializers.CharField())
    text = serializers.CharField(help_text="the scenario in YAML")


class SeatOutput(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField()
    kind = serializers.CharField()
    token = serializers.CharField()
    state = serializers.CharField(help_text="this seat's view of the table")
    moves = serializers.CharField(help_text="this seat's legal moves")


class GameCreatedOutput(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField(default="game")
    id = serializers.IntegerField()
    pack = serializers.IntegerField()
    pack_sha256 = serializers.CharField()
    seed = serializers.IntegerField()
    seats = SeatOutput(many=True)
    log = serializers.CharField()


class WindowOutput(serializers.Serializer[dict[str, Any]]):
    seats = serializers.ListField(child=serializers.IntegerField())
    fighter = serializers.IntegerField()


class ChoiceOutput(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    question = serializers.CharField(
        help_text="items_to_lose, cards_to_lose, card_to_take, item_to_discard, "
        "discard_for_escape, option, abandon_ship or discard_to_escape"
    )
    text = serializers.CharField()
    count = serializers.IntegerField(help_text="how many candidates to choose (`choose`)")
    candidates = serializers.ListField(child=serializers.DictField())
    options = serializers.ListField(
        child=serializers.CharField(), help_text="answered by number with `choose_option`"
    )
    suggested = serializers.ListField(child=serializers.IntegerField())


class LogLineOutput(serializers.Serializer[dict[str, Any]]):
    turn = serializers.IntegerField()
    text = serializers.CharField()


class StateOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    turn = serializers.IntegerField()
    active = serializers.IntegerField()
    phase = serializers.CharField()
    over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.IntegerField())
    waiting_for = serializers.ListField(child=serializers.IntegerField())
    asked = serializers.DictField(
        allow_null=True,
        help_text=(
            "a request for help waiting for its answer: seat (asked), by (the fighter), "
            "treasures, monsters_names, without_you, with_you, monsters (strengths)"
        ),
    )
    window = WindowOutput(
        allow_null=True,
        help_text="the seats that may still play into the fight or pass before it resolves",
    )
    choice = ChoiceOutput(
        allow_null=True, help_text="a question the rules leave to a person, waiting for them"
    )
    answer_seconds = serializers.IntegerField(
        help_text="the game's time to answer a fight (0: it waits for each person to pass)"
    )
    answer_by = serializers.DateTimeField(
        allow_null=True,
        help_text="when the people of the open window have had their time (time-up/ then "
        "passes for them); null without a timer or a window waiting for a person",
    )
    players = serializers.ListField(child=serializers.DictField())
    hand = serializers.ListField(child=serializers.DictField(), allow_null=True)
    decks = serializers.DictField()
    combat = serializers.DictField(allow_null=True)
    moves_made = serializers.IntegerField()
    log_full = serializers.BooleanField(
        help_text="the log holds PLAY_MAX_LOG_MOVES moves: no move is made any more"
    )
    log = LogLineOutput(many=True, help_text="the whole log in words, oldest first")


class LegalMoveOutput(serializers.Serializer[dict[str, Any]]):
    move = serializers.DictField()
    text = serializers.CharField(help_text="the move in words, for a button")


class MovesOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    moves = LegalMoveOutput(many=True)


class LogEntryOutput(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    move = serializers.DictField()


class LogOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    moves = LogEntryOutput(many=True)
    lines = serializers.ListField(child=serializers.CharField())


SEAT_PARAMETER = OpenApiParameter(
    "seat", str, required=True, description="the seat's secret token, from its seat link"
)
GAME_ERRORS = {
    400: ErrorOutput,
    401: ErrorOutput,
    403: ErrorOutput,
    404: ErrorOutput,
    409: ErrorOutput,
    410: ErrorOutput,
    429: ErrorOutput,
}


class PlayView(EngineView):
    throttle_classes = [PlayThrottle]


def _unexpired(game: Game) -> Game:
    """The game, or 410 `gone` once no one has moved in it for its days to keep."""
    if selectors.game_expired(game):
        days = selectors.game_keep_days(anonymous=game.created_by_id is None)
        message = f"game {game.pk} has expired: no one moved in it for {days} days; deal a new one"
        raise ApiError(410, "gone", [("", message)])
    return game


def _game(game_id: int) -> Game:
    game = selectors.game_get(game_id=game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    return _unexpired(game)


def _seat(game_id: int, token: str | None) -> Seat:
    """The seat a token opens, with its game: 404 for no such game, 410 for an expired
    one, 403 for a token that opens no seat of it (looked up in one query when the token
    is right)."""
    if not token:
        _game(game_id)
        raise ApiError(400, "invalid", [("seat", "give the seat's secret token: ?seat=TOKEN")])
    seat = selectors.seat_for_token(game_id=game_id, token=token)
    if seat is None:
        _game(game_id)
        raise PermissionDenied("the seat token opens no seat of this game")
    _unexpired(seat.game)
    return seat


def _broken(exc: selectors.GameBroken) -> ApiError:
    return ApiError(409, "conflict", [("", f"the game no longer replays: {exc}")])


def _pack(request: Request, data: dict[str, Any]) -> Pack:
    if "pack" in data:
        if not request.user.is_authenticated:
            raise NotAuthenticated("log in to deal a game from one of your packs")
        pack = pack_selectors.pack_get(pack_id=data["pack"], viewer=request.user)
        if pack is None:
            raise ApiError(400, "invalid", [("pack", f"you have no pack {data['pack']}")])
        return pack
    try:
        return game_pack_from_sets(actor=request.user, set_codes=data["sets"])
    except PackBuildError as exc:
        raise ApiError(400, "invalid", exc.errors) from exc


def _created(request: Request, created: Any) -> dict[str, Any]:
    game = created.game
    base = f"/api/games/{game.pk}/"
    pairs = zip(created.table.seats, created.tokens, strict=True)
    return {
        "object": "game",
        "id": game.pk,
        "pack": game.pack_id,
        "pack_sha256": game.pack_sha256,
        "seed": game.seed,
        "seats": [
            {
                "index": index,
                "kind": kind,
                "token": token,
                "state": request.build_absolute_uri(f"{base}?seat={token}"),
                "moves": request.build_absolute_uri(f"{base}moves/?seat={token}"),
            }
            for index, (kind, token) in enumerate(pairs)
        ],
        "log": request.build_absolute_uri(f"{base}log/"),
    }


class GameList(PlayView):
    @extend_schema(request=GameCreateInput, responses={201: GameCreatedOutput, **GAME_ERRORS})
    def post(self, request: Request) -> Response:
        """Deal a game: a pack of yours (`pack`) or whole sets you may see (`sets`), 2 to 6
        seats, each a person or a bot, and a seed. 201 with each seat's secret token and
        links (shown once: keep them); bots seated first have already moved. 400 naming the
        field for an unknown pack or set, or a bad seat."""
        data = api_input(GameCreateInput, request)
        pack = _pack(request, data)
        seed = data["seed"] if "seed" in data else secrets.randbelow(MAX_SEED + 1)
        try:
            created = game_create(
                actor=request.user,
                pack=pack,
                seats=[seat["kind"] for seat in data["seats"]],
                seed=seed,
                hot_seat=data["hot_seat"],
                answer_seconds=data["answer_seconds"],
            )
        except MoveError as exc:
            raise ApiError(400, "invalid", [("seats", str(exc))]) from exc
        except selectors.GameBroken as exc:
            raise _broken(exc) from exc
        return Response(_created(request, created), status=201)


class GameDetail(PlayView):
    @extend_schema(parameters=[SEAT_PARAMETER], responses={200: StateOutput, **GAME_ERRORS})
    def get(self, request: Request, game_id: int) -> Response:
        """The table as the seat sees it: every player's Level, sex, character cards, gear,
        followers and hand size, the decks, the combat with its strengths, the last lines of
        the log, and this seat's own hand (never another's)."""
        seat = _seat(game_id, request.query_params.get("seat"))
        game = seat.game
        try:
            return Response(selectors.game_state(game=game, seat=seat.index))
        except selectors.GameBroken as exc:
            raise _broken(exc) from exc


class GameMoves(PlayView):
    @extend_schema(parameters=[SEAT_PARAMETER], responses={200: MovesOutput, **GAME_ERRORS})
    def get(self, request: Request, game_id: int) -> Response:
        """The moves the rules allow this seat right now, each with its words. Every move
        listed is accepted by POST; an empty list means the game waits for another seat (or
        is over, or its log is full: `log_full` in the state)."""
        seat = _seat(game_id, request.query_params.get("seat"))
        game = seat.game
        try:
            moves = selectors.game_moves(game=game, seat=seat.index)
        except selectors.GameBroken as exc:
            raise _broken(exc) from exc
        return Response({"game": game.pk, "seat": seat.index, "moves": moves})

    @extend_schema(request=MoveInput, responses={200: StateOutput, **GAME_ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        """Make a move for the seat whose token is given; then bots move at once. 200 with
        the table as that seat sees it. A move the rules forbid (out of turn, not legal now,
        for a card the seat does not hold) or a malformed one is a 400 whose message names
        the rule, and nothing changes; once the game's log holds PLAY_MAX_LOG_MOVES moves,
        every move is a 409 `log_full` (start a new game)."""
        data = api_input(MoveInput, request)
        seat = _seat(game_id, data["seat"])
        game = seat.game
        try:
            table = game_move(game=game, seat=seat.index, move=data["move"])
        except MoveError as exc:
            raise ApiError(400, "invalid", [("move", str(exc))]) from exc
        except GameLogFull as exc:
            raise ApiError(409, "log_full", [("move", str(exc))]) from exc
        except RuleViolation as exc:
            raise ApiError(400, "refused", [("move", str(exc))]) from exc
        except selectors.GameBroken as exc:
            raise _broken(exc) from exc
        return Response(selectors.game_state(game=game, seat=seat.index, table=table))


LOG_SEAT_PARAMETER = OpenApiParameter(
    "seat",
    str,
    required=False,
    description="a seat's secret token: needed when a set of the game is not public",
)


class GameLog(PlayView):
    @extend_schema(
        parameters=[LOG_SEAT_PARAMETER],
        responses={
            200: LogOutput,
            403: ErrorOutput,
            404: ErrorOutput,
            409: ErrorOutput,
            410: ErrorOutput,
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        """Every move made, by seat, and the game's log in words (what the table showed;
        no hand is in it). Anyone may read it when every set of the game is public; else
        only a seat of the game (`?seat=TOKEN`; 403 otherwise): the cards of a private set
        are not listed to others."""
        game = _game(game_id)
        token = request.query_params.get("seat")
        if token:
            game = _seat(game_id, token).game
        elif not selectors.game_is_public(game=game):
            raise PermissionDenied(
                "a set of this game is not public: give a seat's token (?seat=TOKEN) to read "
                "its log"
            )
        try:
            return Response(selectors.game_log(game=game))
        except selectors.GameBroken as exc:
            raise _broken(exc) from exc


def _tool_errors(exc: RuleViolation) -> ApiError:
    return ApiError(400, "refused", [("seat", str(exc))])


def _seat_tool(request: Request, game_id: int, tool: Callable[..., Table]) -> Response:
    """A playtesting tool (undo, restart) used by the seat of the body's token: the state
    after it, as that seat sees it, or the error object with nothing changed."""
    data = api_input(SeatInputOnly, request)
    seat = _seat(game_id, data["seat"])
    try:
        table = tool(game=seat.game, seat=seat.index)
    except RuleViolation as exc:
        raise _tool_errors(exc) from exc
    except selectors.GameBroken as exc:
        raise _broken(exc) from exc
    seat.game.refresh_from_db()
    return Response(selectors.game_state(game=seat.game, seat=seat.index, table=table))


class GameUndo(PlayView):
    @extend_schema(request=SeatInputOnly, responses={200: StateOutput, **GAME_ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        """Take back the last person's move, and the bots' moves after it: the log is cut
        there and replayed, and the log in words says so. Only the seat that made it may
        (any person seat in hot-seat mode). 400 `refused` when there is nothing to undo or
        for a bot's seat; nothing changes."""
        return _seat_tool(request, game_id, game_undo)


class GameTimeUp(PlayView):
    @extend_schema(request=SeatInputOnly, responses={200: StateOutput, **GAME_ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        """The time to answer a fight has run out (the game's `answer_seconds` since the last
        move): each person who has not answered passes, and the bots move. Any seat may ask;
        400 `refused` while time is left, when no fight waits for a person, or for a game
        without a timer; nothing changes."""
        return _seat_tool(request, game_id, _time_up)


def _time_up(*, game: Game, seat: int) -> Table:
    return game_time_up(game=game)


class GameRestart(PlayView):
    @extend_schema(request=SeatInputOnly, responses={200: StateOutput, **GAME_ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        """Deal the game again from its seed with the same seats and links: the log is
        emptied and bots seated first move at once. Any person seat may; 400 `refused` for a
        bot's."""
        return _seat_tool(request, game_id, game_restart)


class GameScenario(PlayView):
    @extend_schema(request=SaveScenarioInput, responses={201: ScenarioSavedOutput, **GAME_ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        """Save the game so far as a scenario of one of your cards (logged in): the deal, the
        moves since as steps and what holds now as expectations, in the scenario format; it
        is run at once, like any scenario of a card. 400 naming the field for a card that is
        not yours or not in the game's sets, a name the card already uses, or a game too long
        for a scenario."""
        data = api_input(SaveScenarioInput, request)
        seat = _seat(game_id, data["seat"])
        if not request.user.is_authenticated:
            raise NotAuthenticated("log in to attach a scenario to one of your cards")
        game = seat.game
        mine = {c.pk: c for c in selectors.scenario_cards(game=game, actor=request.user)}
        card = mine.get(data["card"])
        if card is None:  # whether it exists elsewhere is not said: it may be private
            message = f"you have no card {data['card']} in the sets this game was dealt from"
            raise ApiError(400, "invalid", [("card", message)])
        try:
            with service_errors("text"):
                scenario = game_save_scenario(
                    game=game,
                    seat=seat.index,
                    actor=request.user,
                    card=card,
                    name=data.get("name", ""),
                )
        except ScenarioNameError as exc:
            raise ApiError(400, "invalid", [("name", exc.message)]) from exc
        except selectors.GameBroken as exc:
            raise _broken(exc) from exc
        body = {
            "object": "scenario",
            "id": scenario.pk,
            "card": card.pk,
            "name": scenario.name,
            "status": scenario.last_status,
            "messages": [str(m) for m in scenario.last_messages],
            "text": scenario.text,
        }
        return Response(body, status=201)


urlpatterns = [
    path("games/", GameList.as_view(), name="game_list"),
    path(f"games/{GAME_ID}/", GameDetail.as_view(), name="game_detail"),
    path(f"games/{GAME_ID}/moves/", GameMoves.as_view(), name="game_moves"),
    path(f"games/{GAME_ID}/log/", GameLog.as_view(), name="game_log"),
    path(f"games/{GAME_ID}/undo/", GameUndo.as_view(), name="game_undo"),
    path(f"games/{GAME_ID}/restart/", GameRestart.as_view(), name="game_restart"),
    path(f"games/{GAME_ID}/time-up/", GameTimeUp.as_view(), name="game_time_up"),
    path(f"games/{GAME_ID}/scenario/", GameScenario.as_view(), name="game_scenario"),
]
