"""The packs API: build and keep a pack, read one back, the pack format's JSON Schema."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.urls import path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.api.errors import ApiError, service_errors
from catalog.api.serializers import StrictInput
from catalog.api.views import ERRORS, ApiView, WriteView, api_input
from catalog.models import MAX_ROW_ID
from packs import selectors
from packs.models import Pack
from packs.selectors import PackBuildError
from packs.services import pack_build, pack_create
from validator.engine import PACK_SCHEMA_PATH, whole_number


def _too_many(count: int) -> serializers.ValidationError:
    limit = settings.PACK_API_MAX_ITEMS
    return serializers.ValidationError(f"at most {limit} items in one request; this has {count}")


class BoundedListField(serializers.ListField):
    """A list of at most PACK_API_MAX_ITEMS items, counted before any item is read."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if isinstance(data, list) and len(data) > settings.PACK_API_MAX_ITEMS:
            raise _too_many(len(data))
        return list(super().to_internal_value(data))


class BoundedDictField(serializers.DictField):
    """An object of at most PACK_API_MAX_ITEMS keys, counted before any value is read."""

    def to_internal_value(self, data: Any) -> dict[Any, Any]:
        if isinstance(data, dict) and len(data) > settings.PACK_API_MAX_ITEMS:
            raise _too_many(len(data))
        return dict(super().to_internal_value(data))


class PackCreateInput(StrictInput):
    sets = serializers.ListField(
        child=serializers.CharField(max_length=60),
        min_length=1,
        max_length=50,
        help_text="codes of the sets the pack draws from",
    )
    query = serializers.CharField(
        max_length=1000,
        allow_blank=True,
        required=False,
        default="",
        help_text="a search query narrowing the cards (refused if it has warnings)",
    )
    copies = BoundedDictField(
        child=serializers.IntegerField(min_value=0, max_value=99),
        required=False,
        default=dict,
        help_text="card id -> copies (0 leaves the card out)",
    )
    include = BoundedListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ROW_ID),
        required=False,
        default=list,
        help_text="ids of single cards to add, from any set you can see",
    )
    exclude = BoundedListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ROW_ID),
        required=False,
        default=list,
        help_text="ids of cards to leave out",
    )
    include_failing = serializers.BooleanField(
        required=False, default=False, help_text="keep cards that fail validation"
    )
    name = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")

    def validate_copies(self, value: dict[str, int]) -> dict[int, int]:
        ids = {key: whole_number(key, low=1, high=MAX_ROW_ID) for key in value}
        bad = [key for key, card_id in ids.items() if card_id is None]
        if bad:
            raise serializers.ValidationError(f"keys are card ids, not {bad[0]!r}")
        return {card_id: value[key] for key, card_id in ids.items() if card_id is not None}


class PackOutput(serializers.ModelSerializer[Pack]):
    object = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    downloads = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()

    class Meta:
        model = Pack
        fields = [
            "object",
            "id",
            "name",
            "sha256",
            "card_count",
            "door_copies",
            "treasure_copies",
            "created_at",
            "selection",
            "report",
            "url",
            "downloads",
        ]

    def get_object(self, obj: Pack) -> str:
        return "pack"

    def get_url(self, obj: Pack) -> str:
        request = self.context["request"]
        return str(request.build_absolute_uri(reverse("packs:pack_detail", args=[obj.pk])))

    def get_downloads(self, obj: Pack) -> dict[str, str]:
        request = self.context["request"]
        return {
            fmt: str(request.build_absolute_uri(reverse("packs:pack_download", args=[obj.pk, fmt])))
            for fmt in ("json", "yaml", "tts")
        }

    def get_report(self, obj: Pack) -> dict[str, Any]:
        return dict(obj.document.get("metadata", {}).get("report", {}))


class PackList(WriteView):
    @extend_schema(request=PackCreateInput, responses={201: PackOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        """Build a pack from sets (narrowed by a query, single cards added or left out, copies
        changed) and keep it under the requester's account. 201 with the pack, its blend
        report and download links; 400 naming the field for an unknown set, a query with
        warnings or an empty selection (nothing is kept then)."""
        data = api_input(PackCreateInput, request)
        with service_errors():
            try:
                built = pack_build(
                    actor=request.user,
                    set_codes=data["sets"],
                    query=data["query"],
                    copies=data["copies"],
                    include=data["include"],
                    exclude=data["exclude"],
                    include_failing=data["include_failing"],
                    name=data["name"],
                )
            except PackBuildError as exc:
                raise ApiError(400, "invalid", exc.errors) from exc
            pack = pack_create(actor=request.user, built=built)
        return Response(PackOutput(pack, context={"request": request}).data, status=201)


class PackDetail(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PackOutput, **ERRORS})
    def get(self, request: Request, pack_id: int) -> Response:
        """One of the requester's packs (packs belong to whoever built them)."""
        pack = selectors.pack_get(pack_id=pack_id, viewer=request.user)
        if pack is None:
            raise NotFound(f"no pack {pack_id}")
        return Response(PackOutput(pack, context={"request": request}).data)


class PackSchema(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> HttpResponse:
        """The pack format's JSON Schema, generated from the engine's definitions."""
        response = HttpResponse(
            PACK_SCHEMA_PATH.read_bytes(), content_type="application/schema+json"
        )
        response["Cache-Control"] = "public, max-age=3600"
        return response


urlpatterns = [
    path("packs/", PackList.as_view(), name="pack_list"),
    path("packs/<int:pack_id>/", PackDetail.as_view(), name="pack_detail"),
    path("schema/pack.json", PackSchema.as_view(), name="pack_schema"),
]
