"""Lookups by name, as deck tools and bots are used to from the best-known card APIs: a card by
its exact or approximate name, name completion, and many cards in one request."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api.errors import ApiError
from catalog.api.serializers import (
    CardCollectionOutput,
    CardOutput,
    CatalogOutput,
    CollectionInput,
    ErrorOutput,
)
from catalog.api.throttles import LookupThrottle
from catalog.api.views import ApiView, api_input, list_object
from catalog.names import MAX_TYPED_NAME
from catalog.selectors import (
    CardIdentifier,
    card_named,
    card_names_completing,
    cards_collection,
)
from catalog.validation import checks_shown


def _typed(request: Request, key: str, *, required: bool = True) -> str | None:
    value = request.query_params.get(key)
    if value is None:
        if required:
            raise ValidationError({key: "this parameter is required"})
        return None
    if len(value) > MAX_TYPED_NAME:
        raise ValidationError({key: f"at most {MAX_TYPED_NAME} characters"})
    return value


def _cards_data(request: Request, cards: list[Any]) -> list[Any]:
    context = {
        "request": request,
        "checks": checks_shown(document_hashes=[c.document_hash for c in cards]),
    }
    return list(CardOutput(cards, many=True, context=context).data)


class CardNamed(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="cards_named",
        parameters=[
            OpenApiParameter(
                "exact", str, description="the card's name (case and punctuation forgiven)"
            ),
            OpenApiParameter(
                "fuzzy",
                str,
                description="part of a name, or a name with typing slips: `bulrog` finds Bullrog",
            ),
            OpenApiParameter("set", str, description="a set code: look only in that set"),
        ],
        responses={200: CardOutput, 400: ErrorOutput, 404: ErrorOutput},
        examples=[
            OpenApiExample("fuzzy", value={"fuzzy": "bulrog"}, parameter_only=("fuzzy", "query")),
        ],
    )
    def get(self, request: Request) -> Response:
        """One card by its name: `exact` (case, accents and punctuation forgiven) or `fuzzy`
        (missing words and small typos forgiven too). A name printed in several sets answers
        with its official printing, else the first set by code; `set` narrows to one set. 404
        when nothing matches; 404 with code `ambiguous` and `candidates` (the names it could
        mean) when a fuzzy name fits several cards equally well."""
        exact = _typed(request, "exact", required=False)
        fuzzy = _typed(request, "fuzzy", required=False)
        if (exact is None) == (fuzzy is None):
            raise ValidationError({"exact": "give exactly one of `exact` and `fuzzy`"})
        asked = exact if exact is not None else fuzzy
        assert asked is not None
        found = card_named(
            name=asked,
            viewer=request.user,
            fuzzy=fuzzy is not None,
            set_code=_typed(request, "set", required=False) or None,
        )
        parameter = "exact" if exact is not None else "fuzzy"
        if found.card is not None:
            return Response(_cards_data(request, [found.card])[0])
        if found.candidates:
            listed = ", ".join(found.candidates)
            raise ApiError(
                404,
                "ambiguous",
                [(parameter, f"{asked!r} could be any of: {listed}; give more of the name")],
                extra={"candidates": found.candidates},
            )
        raise ApiError(404, "not_found", [(parameter, f"no card is named like {asked!r}")])


class CardAutocomplete(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="cards_autocomplete",
        parameters=[OpenApiParameter("q", str, description="the start of a card's name")],
        responses={200: CatalogOutput, 400: ErrorOutput},
        examples=[OpenApiExample("bull", value={"q": "bull"}, parameter_only=("q", "query"))],
    )
    def get(self, request: Request) -> Response:
        """Up to 20 card names starting with `q` (case, accents and punctuation forgiven), in
        alphabetical order, each once: cheap enough to ask on every key press."""
        names = card_names_completing(prefix=_typed(request, "q") or "", viewer=request.user)
        return Response({"object": "catalog", "total_values": len(names), "data": names})


class CardCollection(ApiView):
    permission_classes = [AllowAny]
    throttle_classes = [LookupThrottle]

    @extend_schema(
        operation_id="cards_collection",
        request=CollectionInput,
        responses={200: CardCollectionOutput, 400: ErrorOutput},
        examples=[
            OpenApiExample(
                "three ways to name a card",
                request_only=True,
                value={
                    "identifiers": [
                        {"id": 1},
                        {"name": "Bullrog"},
                        {"name": "Duck of Doom", "set": "munchkin-core"},
                    ]
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Up to 75 cards in one request, each named by `id`, by `name`, or by `name` and
        `set`, answered in the order asked (the list object), with `not_found` holding the
        identifiers that named no card. Names match as `named?exact=` does."""
        data = api_input(CollectionInput, request)
        identifiers = [CardIdentifier(**entry) for entry in data["identifiers"]]
        cards, missing = cards_collection(identifiers=identifiers, viewer=request.user)
        body = list_object(request, _cards_data(request, cards), len(cards), 1, [])
        body["not_found"] = [
            {key: value for key, value in vars(i).items() if value is not None} for i in missing
        ]
        return Response(body)
