"""The official sets' pack of the bulk data is written by the exporter registered as
"pack-json" (catalog.exports.exporter_get): a stand-in registered in its place writes it."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage

from bulk.models import BulkFile, BulkKind
from bulk.services import bulk_data_refresh
from tests.exporters import StandIn

pytestmark = pytest.mark.django_db


def test_the_official_pack_is_written_by_the_registered_exporter(
    core_catalog: None,
    settings: Any,
    tmp_path: Path,
    stand_in: Callable[..., type[StandIn]],
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    made = stand_in("pack-json")
    bulk_data_refresh(kinds=[BulkKind.OFFICIAL_PACK])
    stored = BulkFile.objects.get(kind=BulkKind.OFFICIAL_PACK)
    with default_storage.open(stored.name, "rb") as handle:
        assert gzip.decompress(handle.read()) == StandIn.content
    assert [call["document"]["name"] for call in made.calls] == ["Official sets"]
