"""The API: thin views over the catalog's selectors and the authoring services.

A write resolves its object as the requester sees it first (`set_get` / `card_get`), so an
object they may not see is a 404 whatever they try; the service then decides whether they may
change it (403 if not). Writes need a logged-in session or an API token and are throttled per
user; `validate` and `scenarios/run` are open to anyone and throttled too.
"""

from typing import Any
from urllib.parse import quote

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from catalog import selectors
from catalog.api.errors import ApiError, service_errors
from catalog.api.parsers import BoundedJSONParser
from catalog.api.serializers import (
    CardCreateInput,
    CardListOutput,
    CardOutput,
    CardSetDetailOutput,
    CardSetListOutput,
    CardSetOutput,
    CardUpdateInput,
    ErrorOutput,
    ScenarioResultOutput,
    SetCreateInput,
    SetUpdateInput,
    ValidationOutput,
)
from catalog.api.throttles import ValidateThrottle, WriteThrottle
from catalog.models import Card, CardSet
from catalog.search import QueryTooComplex
from catalog.services import (
    card_create,
    card_delete,
    card_update,
    set_create,
    set_delete,
    set_update,
)
from catalog.validation import checks_shown
from validator.checks import check_card
from validator.engine import (
    ScenarioResult,
    parse_card,
    parse_scenario,
    render_lines,
    run_scenario,
    whole_number,
)

PAGE_SIZE = 60
MAX_PAGE = 10_000
API_SOURCE = "api"
# The set code a card is checked under when the request names none (the checks need one).
UNSAVED_SET = "draft"


def list_object(
    request: Request, data: list[Any], total: int, page: int, warnings: list[str]
) -> dict[str, Any]:
    has_more = page * PAGE_SIZE < total
    next_page = None
    if has_more:
        query = request.query_params.copy()
        query["page"] = str(page + 1)
        next_page = request.build_absolute_uri(f"{request.path}?{query.urlencode()}")
    return {
        "object": "list",
        "total": total,
        "has_more": has_more,
        "next_page": next_page,
        "data": data,
        "warnings": warnings,
    }


def _page(request: Request) -> int:
    page = whole_number(request.query_params.get("page", "1"), low=1, high=MAX_PAGE)
    if page is None:
        raise ValidationError({"page": f"page must be a whole number from 1 to {MAX_PAGE}"})
    return page


def api_input(serializer_class: type[Serializer[Any]], request: Request) -> dict[str, Any]:
    """The request body checked against an input shape (400 naming each bad key)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _set(request: Request, code: str, *, counts: bool = True) -> CardSet:
    # A write into the set needs the set alone; an answer about it, its card counts too.
    find = selectors.set_get if counts else selectors.set_open
    card_set = find(code=code, viewer=request.user)
    if card_set is None:
        raise NotFound(f"no set with code {code!r}")
    return card_set


def _card(request: Request, card_id: int) -> Card:
    # By its id alone, a card of a set listed for the requester; an unlisted set's card when
    # `?set=` names its set (see card_get).
    card = selectors.card_get(
        card_id=card_id, viewer=request.user, set_code=request.query_params.get("set")
    )
    if card is None:
        raise NotFound(f"no card with id {card_id}")
    return card


def _set_data(request: Request, code: str) -> dict[str, Any]:
    # Read back through the selector: the set object carries its card counts.
    return dict(CardSetOutput(_set(request, code), context={"request": request}).data)


def _card_data(request: Request, card: Card) -> dict[str, Any]:
    context = {"request": request, "checks": checks_shown(document_hashes=[card.document_hash])}
    return dict(CardOutput(card, context=context).data)


ERRORS = {
    400: ErrorOutput,
    401: ErrorOutput,
    403: ErrorOutput,
    404: ErrorOutput,
    429: ErrorOutput,
}


class ApiView(APIView):
    """The API's base view. An unauthenticated request that needs a user gets 401 with
    `WWW-Authenticate: Token` (DRF asks only the first authentication class, the session,
    which has no such header and would make it a 403)."""

    def get_authenticate_header(self, request: Request) -> str:
        for authenticator in self.get_authenticators():
            header = authenticator.authenticate_header(request)
            if header:
                return str(header)
        return ""


class WriteView(ApiView):
    """Reads are open; writes need a user and are throttled."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = [WriteThrottle]


class SetList(WriteView):
    @extend_schema(operation_id="sets_list", responses=CardSetListOutput)
    def get(self, request: Request) -> Response:
        """The sets listed for the requester: official and public sets, and their own."""
        sets = list(selectors.set_list(viewer=request.user))
        data = CardSetOutput(sets, many=True, context={"request": request}).data
        return Response(list_object(request, list(data), len(sets), 1, []))

    @extend_schema(request=SetCreateInput, responses={201: CardSetOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        """Create a custom set owned by the requester, private unless `visibility` says
        otherwise. Its code starts with the requester's scope and a hyphen ("dragons" asked
        by alice becomes "alice-dragons"), so it can only meet the requester's own sets or
        sets anyone may open. 201 with the set; 400 naming the field when the code is
        malformed, too long or taken, or the name is blank."""
        data = api_input(SetCreateInput, request)
        with service_errors():
            card_set = set_create(owner=request.user, **data)
        return Response(_set_data(request, card_set.code), status=201)


class SetDetail(WriteView):
    @extend_schema(responses={200: CardSetDetailOutput, 404: ErrorOutput})
    def get(self, request: Request, code: str) -> Response:
        """One set the requester may see (404 for anyone else's private set), with its
        `completeness` when it is official (null for a custom set)."""
        card_set = _set(request, code)
        completeness = selectors.set_completeness(card_set=card_set) if card_set.official else None
        context = {"request": request, "completeness": completeness}
        return Response(CardSetDetailOutput(card_set, context=context).data)

    @extend_schema(request=SetUpdateInput, responses={200: CardSetOutput, **ERRORS})
    def patch(self, request: Request, code: str) -> Response:
        """Change a set's name, visibility, description or box size; keys left out are kept.
        Only the owner may (staff for official sets): 403 for a set the requester may see
        but not change, 404 for one they may not see."""
        data = api_input(SetUpdateInput, request)
        card_set = _set(request, code)
        with service_errors():
            card_set = set_update(card_set=card_set, actor=request.user, **data)
        return Response(CardSetOutput(card_set, context={"request": request}).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, code: str) -> Response:
        """Delete a custom set softly: it and its cards answer 404 from then on, and its
        owner can restore it. Official sets are not deleted (403)."""
        card_set = _set(request, code)
        with service_errors():
            set_delete(card_set=card_set, actor=request.user)
        return Response(status=204)


class CardList(WriteView):
    @extend_schema(
        parameters=[
            OpenApiParameter("q", str, description="a query in the search language"),
            OpenApiParameter("page", int),
        ],
        operation_id="cards_list",
        responses=CardListOutput,
    )
    def get(self, request: Request) -> Response:
        """Cards matching `q` (the search language), a page of 60 at a time."""
        page = _page(request)
        try:
            found = selectors.card_search_page(
                query=request.query_params.get("q", ""),
                viewer=request.user,
                page=page,
                per_page=PAGE_SIZE,
            )
        except QueryTooComplex as exc:
            raise ValidationError({"q": str(exc)}) from exc
        context = {
            "request": request,
            "checks": checks_shown(document_hashes=[c.document_hash for c in found.cards]),
        }
        data = CardOutput(found.cards, many=True, context=context).data
        return Response(list_object(request, list(data), found.total, page, found.warnings))

    @extend_schema(request=CardCreateInput, responses={201: CardOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        """Add a card to a set from its typed document (`effects`). 201 with the card at
        revision 1, `Location` its address in the API; 400 naming each bad path of the
        document (`effects.<path>`) or a name the set already has; 404 for a set the
        requester may not see, 403 for one they may see but not change. The validator checks
        the card after the answer: its `validation` is "unchecked" until then (the verdict
        at once when the same document was checked before), and the card read again
        (`Location`) or its page (`url`, the Validation section) gives the verdict."""
        data = api_input(CardCreateInput, request)
        card_set = _set(request, data["set"], counts=False)
        with service_errors(document_path="effects"):
            card = card_create(
                card_set=card_set, actor=request.user, document=data["effects"], source=API_SOURCE
            )
        # With its set named, the address reaches the card in an unlisted set too.
        where = f"{reverse('api:card_detail', args=[card.pk])}?set={quote(card_set.code)}"
        location = request.build_absolute_uri(where)
        return Response(_card_data(request, card), status=201, headers={"Location": location})


class CardDetail(WriteView):
    @extend_schema(
        responses=CardOutput,
        parameters=[
            OpenApiParameter(
                "set", str, description="the card's set code, to reach an unlisted set's card"
            )
        ],
    )
    def get(self, request: Request, card_id: int) -> Response:
        """One card of a set listed for the requester (official, public, their own), or of
        an unlisted set when `set` is its code: ids are sequential, an id alone reaches no
        unlisted set."""
        return Response(_card_data(request, _card(request, card_id)))

    @extend_schema(request=CardUpdateInput, responses={200: CardOutput, 409: ErrorOutput, **ERRORS})
    def patch(self, request: Request, card_id: int) -> Response:
        """Replace a card's document. `revision` is the revision the edit is based on: if the
        card has been saved since, nothing is written and the answer is 409 (code
        `conflict`), whose error gives the current revision. 200 with the card at its new
        revision otherwise, "unchecked" until the validator has checked the new document
        after the answer (as for a new card)."""
        data = api_input(CardUpdateInput, request)
        card = _card(request, card_id)
        with service_errors(document_path="effects"):
            card = card_update(
                card=card,
                actor=request.user,
                document=data["effects"],
                base_revision=data["revision"],
                source=API_SOURCE,
            )
        return Response(_card_data(request, card))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, card_id: int) -> Response:
        """Delete a card softly: it leaves its set, search and packs (404 from then on)."""
        card = _card(request, card_id)
        with service_errors():
            card_delete(card=card, actor=request.user)
        return Response(status=204)


class EngineView(ApiView):
    """Endpoints that run the engine on a posted JSON document: anyone may, throttled."""

    permission_classes = [AllowAny]
    throttle_classes = [ValidateThrottle]
    parser_classes = [BoundedJSONParser]


class Validate(EngineView):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter(
                "set",
                str,
                description="the code of a set (one the requester may see) the card is meant for",
            )
        ],
        responses={200: ValidationOutput, 400: ErrorOutput, 404: ErrorOutput, 429: ErrorOutput},
    )
    def post(self, request: Request) -> Response:
        """Check a card document (the body) in the engine, as the validator does, and store
        nothing. 200 with the report (`status` pass / warn / fail, its messages and the rules
        text rendered from the document); 400 naming each path when the document does not
        parse; 404 when `set` names a set the requester may not see."""
        code = request.query_params.get("set", "")
        set_code = _set(request, code).code if code else UNSAVED_SET
        with service_errors():
            card = parse_card(request.data)
        report = check_card(card, set_code)
        return Response(
            {
                "object": "validation",
                "name": report.name,
                "kind": report.kind,
                "encoding": report.encoding,
                "status": report.status,
                "verified": report.verified,
                "messages": report.messages,
                "text": render_lines(card),
                "errors": [],
            }
        )


def _scenario_run(request: Request) -> ScenarioResult:
    """Run a posted scenario document against the cards of the sets it names that the
    requester may see, plus its inline cards."""
    document = parse_scenario(request.data)
    if document.pack is not None:
        raise ApiError(
            400, "invalid", [("pack", "the API looks cards up in `sets` and `cards`, not a pack")]
        )
    visible = set(
        selectors.visible_sets(viewer=request.user)
        .filter(code__in=document.sets)
        .values_list("code", flat=True)
    )
    unknown = [
        (f"sets[{index}]", f"no set with code {code!r}")
        for index, code in enumerate(document.sets)
        if code not in visible
    ]
    if unknown:
        raise ApiError(400, "invalid", unknown)
    library = selectors.catalog_card_library(set_codes=sorted(visible))
    return run_scenario(document, source="", library=library)


class ScenarioRun(EngineView):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: ScenarioResultOutput, 400: ErrorOutput, 429: ErrorOutput},
    )
    def post(self, request: Request) -> Response:
        """Run a scenario document (the body; the keys of the YAML scenario format, except
        `pack`) through the rules engine. Card names are looked up in its inline `cards`,
        then in the sets it names that the requester may see. 200 with `passed`, every
        computed value and the failed expectations (a scenario that fails is still a 200);
        400 naming the path of a malformed document, an unknown set, card or player."""
        with service_errors():
            result = _scenario_run(request)
        return Response(
            {
                "object": "scenario_result",
                "name": result.name,
                "passed": result.passed,
                "values": result.values,
                "failures": result.failures,
            }
        )


class UnknownEndpoint(ApiView):
    """Any other path under /api/ answers with the error object, never an HTML page."""

    @extend_schema(exclude=True)
    def get(self, request: Request, rest: str = "") -> Response:
        raise NotFound(f"no API endpoint at {request.path}")

    post = put = patch = delete = get  # whatever the method: no endpoint here is a 404
