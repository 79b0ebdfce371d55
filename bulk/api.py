"""`GET /api/bulk-data/` lists the bulk data files; each file is downloaded from its
`download_uri`, under a content-hashed name, while every set it holds is still public."""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage
from django.http import FileResponse
from django.urls import URLPattern, path, reverse
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from bulk.models import BulkFile, BulkKind
from bulk.selectors import bulk_file_named, bulk_file_still_public, bulk_files
from catalog.api.errors import ApiError
from catalog.api.serializers import ErrorOutput
from catalog.api.views import ApiView

# A content-hashed name never changes its bytes, but a set in it may stop being public: then
# the file stops answering (410), and a cache keeps its copy at most an hour after that.
CACHE_CONTROL = "public, max-age=3600"


def _entry(request: Request, row: BulkFile) -> dict[str, Any]:
    filename = row.name.rsplit("/", 1)[-1]
    return {
        "object": "bulk_data",
        "type": row.kind,
        "name": BulkKind(row.kind).label,
        "updated_at": row.updated_at.isoformat(),
        "size": row.size,
        "sha256": row.sha256,
        "items": row.items,
        "content_type": "application/json",
        "content_encoding": "gzip",
        "download_uri": request.build_absolute_uri(reverse("api:bulk_data_file", args=[filename])),
    }


BulkDataListOutput = inline_serializer(
    name="BulkDataList",
    fields={
        "object": serializers.CharField(help_text='always "list"'),
        "total": serializers.IntegerField(),
        "has_more": serializers.BooleanField(),
        "next_page": serializers.URLField(allow_null=True),
        "warnings": serializers.ListField(child=serializers.CharField()),
        "data": inline_serializer(
            name="BulkData",
            many=True,
            fields={
                "object": serializers.CharField(help_text='always "bulk_data"'),
                "type": serializers.ChoiceField(choices=BulkKind.choices),
                "name": serializers.CharField(),
                "updated_at": serializers.DateTimeField(),
                "size": serializers.IntegerField(help_text="bytes of the file as downloaded"),
                "sha256": serializers.CharField(help_text="of the file's bytes as downloaded"),
                "items": serializers.IntegerField(help_text="cards, sets or pack cards"),
                "content_type": serializers.CharField(help_text="of the JSON inside"),
                "content_encoding": serializers.CharField(help_text='"gzip": gunzip it'),
                "download_uri": serializers.URLField(),
            },
        ),
    },
)


class BulkDataList(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="bulk_data_list",
        responses=BulkDataListOutput,
        examples=[
            OpenApiExample(
                "the cards file",
                response_only=True,
                value={
                    "object": "list",
                    "total": 1,
                    "has_more": False,
                    "next_page": None,
                    "warnings": [],
                    "data": [
                        {
                            "object": "bulk_data",
                            "type": "cards",
                            "name": "Every public card",
                            "updated_at": "2026-11-28T01:00:00+00:00",
                            "size": 48213,
                            "sha256": "9f2c...",
                            "items": 744,
                            "content_type": "application/json",
                            "content_encoding": "gzip",
                            "download_uri": "https://cards.example.org/api/bulk-data/files/"
                            "cards-9f2c0a1b2c3d4e5f6a7b.json.gz",
                        }
                    ],
                },
            )
        ],
    )
    def get(self, request: Request) -> Response:
        """The downloadable bulk data files: every public card (`cards`), every public set
        with its cards (`sets`), and the engine-ready pack of the official sets
        (`official_pack`), each a gzip-compressed JSON file. The task worker makes them again
        after the catalog changes; `sha256` and `size` are of the bytes downloaded."""
        rows = bulk_files()
        data = [_entry(request, row) for row in rows]
        return Response(
            {
                "object": "list",
                "total": len(data),
                "has_more": False,
                "next_page": None,
                "warnings": [],
                "data": data,
            }
        )


class BulkDataFile(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="bulk_data_file",
        responses={(200, "application/gzip"): bytes, 404: ErrorOutput, 410: ErrorOutput},
    )
    def get(self, request: Request, filename: str) -> FileResponse:
        """One bulk data file, gzip-compressed JSON, under its content-hashed name (its bytes
        never change; cacheable for an hour). A file replaced by a newer one is still served
        until the next change, unless a set it holds is no longer public: then 410."""
        name = f"bulk-data/{filename}"
        row = bulk_file_named(name=name)
        if row is None or not default_storage.exists(name):
            raise NotFound(f"no bulk data file {filename!r}: GET /api/bulk-data/ lists them")
        if not bulk_file_still_public(row=row, name=name):
            raise ApiError(
                410,
                "gone",
                [
                    (
                        "filename",
                        f"{filename!r} holds a set that is no longer public: GET /api/bulk-data/"
                        " lists the current files",
                    )
                ],
            )
        response = FileResponse(
            default_storage.open(name, "rb"),
            content_type="application/gzip",
            as_attachment=True,
            filename=filename,
        )
        response["Cache-Control"] = CACHE_CONTROL
        response["ETag"] = f'"{filename.rsplit(".", 2)[0]}"'
        return response


urlpatterns: list[URLPattern] = [
    path("bulk-data/", BulkDataList.as_view(), name="bulk_data"),
    path("bulk-data/files/<str:filename>", BulkDataFile.as_view(), name="bulk_data_file"),
]
