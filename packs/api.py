"""The packs API: build and keep a pack, read one back, the pack format's JSON Schema."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import FileResponse, HttpResponse
from django.urls import path, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.limits import client_address
from catalog.api.errors import ApiError, service_errors
from catalog.api.serializers import ErrorOutput, StrictInput
from catalog.api.throttles import WriteThrottle
from catalog.api.views import ERRORS, ApiView, WriteView, api_input
from catalog.models import MAX_ROW_ID
from packs import selectors
from packs.models import Pack, TtsExport
from packs.selectors import PackBuildError
from packs.services import pack_build, pack_create
from packs.tts import hosting, jobs, services
from packs.tts.views import tts_export_file, tts_export_saved_object_response
from prints import background
from prints.models import JobStatus
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
        links = {
            fmt: str(request.build_absolute_uri(reverse("packs:pack_download", args=[obj.pk, fmt])))
            for fmt in ("json", "yaml")
        }
        # The Tabletop Simulator zip is made in the background: POST here to start it.
        links["tts"] = str(request.build_absolute_uri(reverse("api:tts_exports", args=[obj.pk])))
        return links

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


class TtsUnknownStatsOutput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    set = serializers.CharField(help_text="the card's set code")
    deck = serializers.ChoiceField(choices=["door", "treasure"])
    stats = serializers.ListField(
        child=serializers.ChoiceField(
            choices=["level", "treasures", "bonus", "slot", "gold", "rank"]
        ),
        help_text="the stats not known yet: its face shows ? or unknown for them",
    )


class TtsLeftOutOutput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    set = serializers.CharField(help_text="the card's set code")
    why = serializers.CharField(help_text='why it is not exported ("in neither deck: ...")')


class TtsReportOutput(serializers.Serializer[dict[str, Any]]):
    unknown_stats = TtsUnknownStatsOutput(
        many=True, help_text="cards exported with stats not known yet, in deck-list order"
    )
    left_out = TtsLeftOutOutput(many=True, help_text="cards of the pack not in the export")


class TtsExportOutput(serializers.ModelSerializer[TtsExport]):
    object = serializers.SerializerMethodField()
    pack = serializers.IntegerField(source="pack_id", read_only=True)
    expires_at = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    status_url = serializers.SerializerMethodField()
    download = serializers.SerializerMethodField()
    saved_object = serializers.SerializerMethodField()
    images = serializers.SerializerMethodField()
    local_only = serializers.SerializerMethodField()
    link_revoked_at = serializers.DateTimeField(source="token_revoked_at", read_only=True)
    report = TtsReportOutput(
        read_only=True,
        allow_null=True,
        help_text="what the zip holds that you should know of, once done (null before): the "
        "cards exported with stats not known yet and the cards of the pack left out, and why",
    )

    class Meta:
        model = TtsExport
        fields = [
            "object",
            "id",
            "pack",
            "status",
            "done",
            "total",
            "drawn_ahead",
            "error",
            "created_at",
            "started_at",
            "finished_at",
            "expires_at",
            "url",
            "status_url",
            "download",
            "saved_object",
            "images",
            "local_only",
            "link_revoked_at",
            "report",
        ]

    def get_object(self, obj: TtsExport) -> str:
        return "tts_export"

    def get_saved_object(self, obj: TtsExport) -> str | None:
        """The saved object alone, its images at this site's addresses (null until done,
        once expired, when the link is revoked or the images are not hosted)."""
        if self.get_download(obj) is None or hosting.access(obj) not in ("public", "token"):
            return None
        return self._absolute("api:tts_export_saved_object", obj)

    def get_images(self, obj: TtsExport) -> str:
        """How the images are served: `public` (to anyone), `token` (at addresses holding the
        export's secret link), `revoked` (no longer), `none` (not hosted)."""
        return hosting.access(obj)

    def get_local_only(self, obj: TtsExport) -> bool:
        """The images' addresses are on a loopback address: they reach only this computer."""
        return bool(obj.base_url) and hosting.is_loopback(obj.base_url)

    def _absolute(self, name: str, obj: TtsExport) -> str:
        request = self.context["request"]
        return str(request.build_absolute_uri(reverse(name, args=[obj.pack_id, obj.pk])))

    def get_expires_at(self, obj: TtsExport) -> str | None:
        expires_at = services.tts_export_expires_at(obj)
        return serializers.DateTimeField().to_representation(expires_at) if expires_at else None

    def get_url(self, obj: TtsExport) -> str:
        """The export's page."""
        return self._absolute("packs:tts_export", obj)

    def get_status_url(self, obj: TtsExport) -> str:
        return self._absolute("api:tts_export", obj)

    def get_download(self, obj: TtsExport) -> str | None:
        """The zip, once made (null before, after a failure and once expired)."""
        if obj.status != JobStatus.DONE or services.tts_export_expired(obj):
            return None
        return self._absolute("api:tts_export_download", obj)


def _own_pack(request: Request, pack_id: int) -> Pack:
    pack = selectors.pack_get(pack_id=pack_id, viewer=request.user)
    if pack is None:
        raise NotFound(f"no pack {pack_id}")
    return pack


def _own_export(request: Request, pack_id: int, export_id: int) -> tuple[Pack, TtsExport]:
    pack = _own_pack(request, pack_id)
    export = selectors.tts_export_get(export_id=export_id, pack=pack, viewer=request.user)
    if export is None:
        raise NotFound(f"no Tabletop Simulator export {export_id} of pack {pack_id}")
    return pack, export


class TtsExportList(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=None, responses={202: TtsExportOutput, **ERRORS})
    def post(self, request: Request, pack_id: int) -> Response:
        """Start a Tabletop Simulator export of one of your packs: the zip (saved object, face
        sheets and backs, README) is made in the background, its images hosted by the site as
        for an export started from the pack page (at `SITE_URL`, else at this request's
        address). 202 with the export; read it at `status_url` until `status` is `done` (then
        `download` is the zip's address, `saved_object` the saved object alone and `report`
        what the zip holds) or `failed` (`error` says why). At most `TTS_EXPORTS_PER_USER`
        exports waiting or running per user and `TTS_EXPORTS_PER_ADDRESS` per client address:
        past it, 429 with `Retry-After` and nothing started."""
        pack = _own_pack(request, pack_id)
        user = request.user
        if not user.is_authenticated:  # pragma: no cover - IsAuthenticated refused them
            raise NotAuthenticated()
        export = jobs.tts_export_start(
            pack=pack,
            actor=user,
            # As the page does: the images hosted at SITE_URL, or this request's address.
            base_url=hosting.site_base_url(request),
            address=client_address(request),
        )
        data = TtsExportOutput(export, context={"request": request}).data
        return Response(data, status=202, headers={"Location": data["status_url"]})


class TtsExportDetail(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: TtsExportOutput, **ERRORS})
    def get(self, request: Request, pack_id: int, export_id: int) -> Response:
        """One of your Tabletop Simulator exports: its status and progress (`done` of
        `total` faces on their sheets, `drawn_ahead` of them found already drawn), then its
        `download` address until `expires_at`, and its `report`: the cards exported with stats
        not known yet (`unknown_stats`: name, set, deck, stats) and the cards of the pack left
        out (`left_out`: name, set, why)."""
        _pack, export = _own_export(request, pack_id, export_id)
        if export.status in background.ACTIVE and services.tts_exports_expire_stalled():
            export.refresh_from_db()
        return Response(TtsExportOutput(export, context={"request": request}).data)


class TtsExportDownload(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "application/zip"): OpenApiTypes.BINARY, 409: ErrorOutput, **ERRORS}
    )
    def get(self, request: Request, pack_id: int, export_id: int) -> FileResponse:
        """The zip of a finished export. 409 while it is waiting or running or when it failed;
        404 once it has expired."""
        pack, export = _own_export(request, pack_id, export_id)
        if export.status != JobStatus.DONE:
            message = (
                f"the export failed: {export.error}"
                if export.status == JobStatus.FAILED
                else f"the export is {export.status}: read its status until it is done"
            )
            raise ApiError(409, "conflict", [("status", message)])
        return tts_export_file(pack, export)


class TtsLinkInput(StrictInput):
    action = serializers.ChoiceField(
        choices=["revoke", "renew"],
        help_text="revoke: the images answer 404 at every address given so far; renew: a new "
        "link (the old one revoked), for a new saved object",
    )


class TtsExportSavedObject(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "folder",
                str,
                required=False,
                description="a full path where the zip was unpacked: each FaceURL and "
                "BackURL is then that file's file:/// URL instead of this site's address",
            )
        ],
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            409: ErrorOutput,
            **ERRORS,
        },
    )
    def get(self, request: Request, pack_id: int, export_id: int) -> HttpResponse:
        """A finished export's saved object alone, to drop into Tabletop Simulator's Saved
        Objects folder: its images at this site's addresses (public, or holding the
        export's link), or with `folder` at the unpacked zip's files. 409 before the export
        is done; 404 once expired or revoked; 400 naming `folder` for a path that cannot be
        used (not a full path, over 400 characters, control characters)."""
        pack, export = _own_export(request, pack_id, export_id)
        if export.status != JobStatus.DONE:
            raise ApiError(409, "conflict", [("status", f"the export is {export.status}")])
        try:
            return tts_export_saved_object_response(pack, export, request.GET.get("folder"))
        except hosting.FolderError as exc:
            field, _, message = str(exc).partition(": ")
            raise ApiError(400, "invalid", [(field, message)]) from exc


class TtsExportLink(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=TtsLinkInput, responses={200: TtsExportOutput, **ERRORS})
    def post(self, request: Request, pack_id: int, export_id: int) -> Response:
        """Revoke or renew the secret link of an export of a pack that is not public. 200
        with the export (`images` says `revoked` or `token`); 400 for a public pack's export,
        which has no link."""
        _pack, export = _own_export(request, pack_id, export_id)
        data = api_input(TtsLinkInput, request)
        user = request.user
        if not user.is_authenticated:  # pragma: no cover - IsAuthenticated refused them
            raise NotAuthenticated()
        change = (
            services.tts_export_link_revoke
            if data["action"] == "revoke"
            else services.tts_export_link_renew
        )
        try:
            export = change(export=export, actor=user)
        except ValueError as exc:
            raise ApiError(400, "invalid", [("action", str(exc))]) from exc
        return Response(TtsExportOutput(export, context={"request": request}).data)


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
    path("packs/<int:pack_id>/tts/", TtsExportList.as_view(), name="tts_exports"),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/",
        TtsExportDetail.as_view(),
        name="tts_export",
    ),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/download.zip",
        TtsExportDownload.as_view(),
        name="tts_export_download",
    ),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/saved-object.json",
        TtsExportSavedObject.as_view(),
        name="tts_export_saved_object",
    ),
    path(
        "packs/<int:pack_id>/tts/<int:export_id>/link/",
        TtsExportLink.as_view(),
        name="tts_export_link",
    ),
    path("schema/pack.json", PackSchema.as_view(), name="pack_schema"),
]
