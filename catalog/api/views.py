"""The read API: thin views over the catalog's selectors."""

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog import selectors
from catalog.api.serializers import CardOutput, CardSetOutput
from catalog.models import Card
from validator.selectors import checks_for

PAGE_SIZE = 60
MAX_PAGE = 10_000


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
    raw = request.query_params.get("page", "1")
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        raise ValidationError({"page": f"page must be a whole number from 1 to {MAX_PAGE}"})
    return int(raw)


class SetList(APIView):
    @extend_schema(responses=CardSetOutput(many=True))
    def get(self, request: Request) -> Response:
        sets = list(selectors.set_list())
        data = CardSetOutput(sets, many=True, context={"request": request}).data
        return Response(list_object(request, list(data), len(sets), 1, []))


class SetDetail(APIView):
    @extend_schema(responses=CardSetOutput)
    def get(self, request: Request, code: str) -> Response:
        try:
            card_set = selectors.set_get(code=code)
        except Http404 as exc:
            raise NotFound(f"no set with code {code!r}") from exc
        return Response(CardSetOutput(card_set, context={"request": request}).data)


class CardList(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("q", str, description="a query in the search language"),
            OpenApiParameter("page", int),
        ],
        responses=CardOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        page = _page(request)
        found = selectors.card_search_page(
            query=request.query_params.get("q", ""), page=page, per_page=PAGE_SIZE
        )
        context = {
            "request": request,
            "checks": checks_for(document_hashes=[c.document_hash for c in found.cards]),
        }
        data = CardOutput(found.cards, many=True, context=context).data
        return Response(list_object(request, list(data), found.total, page, found.warnings))


class CardDetail(APIView):
    @extend_schema(responses=CardOutput)
    def get(self, request: Request, card_id: int) -> Response:
        card = Card.objects.select_related("card_set").filter(pk=card_id).first()
        if card is None:
            raise NotFound(f"no card with id {card_id}")
        context = {"request": request, "checks": checks_for(document_hashes=[card.document_hash])}
        return Response(CardOutput(card, context=context).data)


class UnknownEndpoint(APIView):
    """Any other path under /api/ answers with the error object, never an HTML page."""

    @extend_schema(exclude=True)
    def get(self, request: Request, rest: str = "") -> Response:
        raise NotFound(f"no API endpoint at {request.path}")
