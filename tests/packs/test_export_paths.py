"""Every pack export is chosen by identifier (catalog.exports.exporter_get): with a stand-in
registered as "pack-json", "pack-yaml" or "pack-tts", the pack page's download, the
`export_pack` command, the Tabletop Simulator job started from the page or the API all hand
out the stand-in's file. The job gives the exporter its host: an image handed to it is stored
and served at the address the exporter wrote."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from PIL import Image
from rest_framework.test import APIClient

from catalog.exports import ImageHost, LinkedImage, Rendered
from packs.models import Pack, TtsExport, TtsSheet
from packs.services import pack_build, pack_create
from packs.tts import jobs
from prints.models import JobStatus
from tests.exporters import StandIn

pytestmark = pytest.mark.django_db

StandInMaker = Callable[..., type[StandIn]]
QUERY = '!"Net Troll" or !"Boots of Butt-Kicking"'
DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def pack(core_catalog: None, alice: User) -> Pack:
    built = pack_build(actor=alice, set_codes=["munchkin-core"], query=QUERY, name="Two")
    return pack_create(actor=alice, built=built)


@pytest.fixture
def queued(settings: Any, tmp_path: Path) -> None:
    """This test's own media and faces cache; exports stay queued until run here."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CACHES = {
        **settings.CACHES,
        "faces": {**settings.CACHES["faces"], "LOCATION": str(tmp_path / "faces")},
    }
    settings.TASKS = DUMMY
    settings.SITE_URL = ""


def jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 12), (200, 40, 40)).save(buffer, format="JPEG")
    return buffer.getvalue()


class HostingStandIn(StandIn):
    """Hands one image and its linking document to the job's host, as the Tabletop
    Simulator exporter does, and writes the address it got into its file."""

    image = LinkedImage("door-back.jpg", jpeg(), 1, 1)

    def render(self, **kwargs: Any) -> Rendered:
        self.calls.append(kwargs)
        host: ImageHost = kwargs["host"]
        address = host.address(self.image)
        named = {"ObjectStates": [{"CustomDeck": {"1": {"BackURL": self.image.filename}}}]}
        host.keep_named("stand-in.json", json.dumps(named).encode())
        return self.filename, self.content_type, f"{address}\n{host.note()}".encode()


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_the_pack_page_downloads_the_registered_exporters_file(
    pack: Pack, alice: User, client: Client, stand_in: StandInMaker, fmt: str
) -> None:
    made = stand_in(f"pack-{fmt}", content_type="text/plain", filename="stand-in.txt")
    client.force_login(alice)
    response = client.get(f"/packs/{pack.pk}/download.{fmt}")
    assert response.status_code == 200 and response.content == StandIn.content
    assert response["Content-Type"] == "text/plain"
    assert response["Content-Disposition"] == 'attachment; filename="stand-in.txt"'
    assert made.calls == [{"document": pack.document}]


@pytest.mark.parametrize("fmt", ["json", "yaml", "tts"])
def test_export_pack_writes_the_registered_exporters_file(
    core_catalog: None, queued: None, tmp_path: Path, stand_in: StandInMaker, fmt: str
) -> None:
    made = stand_in(f"pack-{fmt}")
    out = tmp_path / "pack.out"
    call_command(
        "export_pack", "--sets", "munchkin-core", "--query", QUERY, "--format", fmt,
        "--output", str(out), stdout=io.StringIO(),
    )  # fmt: skip
    assert out.read_bytes() == StandIn.content
    (call,) = made.calls
    # The Tabletop Simulator sheets take the faces drawn ahead; the pack files only the pack.
    assert set(call) == ({"document", "faces"} if fmt == "tts" else {"document"})


def test_the_background_export_renders_with_the_registered_exporter(
    pack: Pack, alice: User, client: Client, queued: None, stand_in: StandInMaker
) -> None:
    made = stand_in("pack-tts", base=HostingStandIn, filename="stand-in-tts.zip")
    client.force_login(alice)
    assert client.post(f"/packs/{pack.pk}/tts/").status_code == 302
    export = TtsExport.objects.get()
    jobs.tts_export_run(export_id=export.pk)

    export.refresh_from_db()
    assert export.status == JobStatus.DONE and export.error == ""
    (call,) = made.calls
    assert set(call) == {"document", "faces", "progress", "host"}
    sha = hashlib.sha256(HostingStandIn.image.content).hexdigest()
    address = f"http://testserver/tts/sheets/{sha}.jpg"
    assert export.archive.read().decode().startswith(f"{address}\nNothing to upload")
    assert str(export.archive.name).endswith("-stand-in-tts.zip")
    sheet = TtsSheet.objects.get(export=export)
    assert (sheet.filename, sheet.sha256, sheet.columns, sheet.rows) == ("door-back.jpg", sha, 1, 1)
    image = client.get(f"/tts/sheets/{sha}.jpg")
    assert b"".join(image.streaming_content) == HostingStandIn.image.content  # type: ignore[attr-defined]
    # The linking document the stand-in kept, pointed at the hosted image on download.
    saved = client.get(f"/packs/{pack.pk}/tts/{export.pk}/saved-object.json").json()
    assert saved == {"ObjectStates": [{"CustomDeck": {"1": {"BackURL": address}}}]}
    download = client.get(f"/packs/{pack.pk}/tts/{export.pk}/download.zip")
    assert b"".join(download.streaming_content).startswith(address.encode())  # type: ignore[attr-defined]


def test_an_export_started_through_the_api_renders_with_the_registered_exporter(
    pack: Pack, alice: User, queued: None, stand_in: StandInMaker
) -> None:
    made = stand_in("pack-tts", base=HostingStandIn)
    api = APIClient()
    api.force_login(alice)
    started = api.post(f"/api/packs/{pack.pk}/tts/")
    assert started.status_code == 202
    jobs.tts_export_run(export_id=started.json()["id"])
    answer = api.get(started.json()["status_url"]).json()
    assert answer["status"] == "done" and len(made.calls) == 1
    download = api.get(answer["download"])
    # Started without SITE_URL through the API: hosted at the request's address, as from the
    # page (issue 36: it was named by file, unhosted).
    body = b"".join(download.streaming_content)  # type: ignore[attr-defined]
    sha = hashlib.sha256(HostingStandIn.image.content).hexdigest()
    assert body.startswith(f"http://testserver/tts/sheets/{sha}.jpg\nNothing to upload".encode())
    assert answer["images"] == "public" and answer["saved_object"]


def test_a_failing_exporter_fails_the_export_saying_why(
    pack: Pack, alice: User, queued: None, stand_in: StandInMaker
) -> None:
    class Refusing(StandIn):
        def render(self, **kwargs: Any) -> Rendered:
            raise RuntimeError("the stand-in refuses")

    stand_in("pack-tts", base=Refusing)
    export = jobs.tts_export_start(pack=pack, actor=alice)
    jobs.tts_export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == JobStatus.FAILED and not export.archive
    assert export.error == "The export failed: RuntimeError: the stand-in refuses"
