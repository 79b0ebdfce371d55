"""The site hosts a Tabletop Simulator export's images, so that its saved object loads as it is.

Tabletop Simulator (TTS) loads a custom deck's images from URLs only. An export therefore
stores each face sheet and back on the media storage (so any web process on any machine
serves it) under the SHA-256 of its bytes, ``tts/sheets/<sha256>.jpg``, shared by every export
that drew the same image, and its saved object points at their absolute addresses:

* the addresses start with the export's `base_url`: settings.SITE_URL when set, otherwise the
  address of the request that started the export (the page's or the API's), kept on the
  export because the worker that makes it has no request;
* a *public* export (every set of its pack official or public when it was made, and still so
  when an image is asked for) is served at ``/tts/sheets/<sha256>.jpg`` to anyone;
* any other export's images only at ``/tts/sheets/<token>/<sha256>.jpg``, the token 43
  random URL-safe characters (256 bits) of that export. Its owner may revoke the token (every
  saved object holding it then gets 404s for its images, and the export's page says so) and
  make a new one (a new saved object to download). Without the token, anyone, the owner
  included, gets a 404: TTS asks for images without a session.

A site on a loopback address (127.0.0.1, ::1, localhost) is reached only from its own
computer: its pages say so, and offer the saved object pointed at the images of the unpacked
zip instead, as ``file:///`` URLs under a folder the user names.

The images live as long as their export: the pruning of expired exports
(packs/tts/services.py) deletes each image no other export still uses.

The exporter hands an export's images over as it writes the zip, through `ExportHost` (a
catalog.exports.ImageHost): this module stores files and says where they are; starting,
running and expiring exports is packs/tts/jobs.py's and packs/tts/services.py's.
"""

from __future__ import annotations

import hashlib
import io
import ipaddress
import json
import secrets
from collections.abc import Mapping
from typing import Any, Final, Literal
from urllib.parse import quote, urlsplit

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import HttpRequest
from django.urls import reverse
from PIL import Image

from catalog.exports import LinkedImage
from packs import selectors
from packs.models import TtsExport, TtsSheet
from packs.tts.exporter import UrlMaker, rewrite_urls

SHEETS_FOLDER: Final = "tts/sheets"
TOKEN_BYTES: Final = 32  # 43 URL-safe characters
# A folder typed on the page: long enough for any real path, bounded before it is read.
FOLDER_MAX_CHARS: Final = 400
BASE_URL_MAX_CHARS: Final = 200  # TtsExport.base_url's column
Access = Literal["public", "token", "revoked", "none"]


class FolderError(ValueError):
    """A folder for file:/// URLs that cannot be used; the message says why."""


def site_base_url(request: HttpRequest) -> str:
    """Where an export's URLs start: SITE_URL, else the address the request came to (its
    Host header was checked against ALLOWED_HOSTS, its scheme as the site trusts it)."""
    configured = str(getattr(settings, "SITE_URL", "") or "")
    return configured.rstrip("/") or request.build_absolute_uri("/").rstrip("/")


def is_loopback(base_url: str) -> bool:
    """Whether an address reaches only the computer it is typed on."""
    host = (urlsplit(base_url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def pack_set_codes(document: Mapping[str, Any]) -> list[str]:
    """The codes of the sets a pack document holds."""
    return sorted({str(s.get("code")) for s in document.get("sets") or [] if isinstance(s, dict)})


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def access(export: TtsExport) -> Access:
    """How an export's images are served: to anyone, with its token, no longer (revoked),
    or not at all (no base URL: an export made before the site hosted its images)."""
    if not export.base_url:
        return "none"
    if export.public:
        return "public"
    return "token" if export.token else "revoked"


def sheet_path(export: TtsExport, sheet: TtsSheet) -> str:
    """A hosted image's path on this site (its token in it for a private export)."""
    if export.public:
        return reverse("packs:tts_sheet_public", args=[sheet.sha256])
    return reverse("packs:tts_sheet", args=[export.token, sheet.sha256])


def sheet_url(export: TtsExport, sheet: TtsSheet) -> str:
    """A hosted image's absolute URL, on the site's address the export was made for."""
    return export.base_url.rstrip("/") + sheet_path(export, sheet)


def hosted_urls(export: TtsExport, sheets: list[TtsSheet]) -> UrlMaker:
    """Zip file name -> the absolute URL of that image on this site."""
    urls = {sheet.filename: sheet_url(export, sheet) for sheet in sheets}

    def url(filename: str) -> str:
        return urls[filename]

    return url


def _image_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:  # reads the header only
        return image.size


def _write_missing(name: str, data: bytes) -> None:
    if not default_storage.exists(name):
        saved = default_storage.save(name, ContentFile(data))
        if saved != name:  # pragma: no cover - another process wrote it between the two calls
            default_storage.delete(saved)


def _sheet_record(export: TtsExport, image: LinkedImage) -> TtsSheet:
    sha = hashlib.sha256(image.content).hexdigest()
    width, height = _image_size(image.content)
    sheet, _ = TtsSheet.objects.update_or_create(
        export=export,
        filename=image.filename,
        defaults={
            "sha256": sha,
            "name": f"{SHEETS_FOLDER}/{sha}.jpg",
            "columns": image.columns,
            "rows": image.rows,
            "width": width,
            "height": height,
        },
    )
    return sheet


class ExportHost:
    """The images of `export`, stored as the exporter hands them over (an ImageHost): each
    under its content's hash and recorded for the export, its address on this site written
    into the zip (the file name, for an export without a base URL: its images are stored
    all the same). The saved object with file names is kept in `named` for the caller to
    save.

    An image's row is written before its file: the pruning deletes a file only when no row
    names it, so an image another export is about to share is not deleted under it."""

    def __init__(self, export: TtsExport) -> None:
        self.export = export
        self.images: dict[str, bytes] = {}
        self.named: tuple[str, bytes] | None = None

    def address(self, image: LinkedImage) -> str:
        sheet = _sheet_record(self.export, image)
        _write_missing(sheet.name, image.content)
        self.images[image.filename] = image.content
        return sheet_url(self.export, sheet) if self.export.base_url else image.filename

    def note(self) -> str | None:
        return hosted_readme_step(self.export) if self.export.base_url else None

    def keep_named(self, filename: str, content: bytes) -> None:
        self.named = (filename, content)

    def ensure_images(self) -> None:
        """Write again any image of the just-finished export that a pruning deleted
        meanwhile."""
        for sheet in TtsSheet.objects.filter(export=self.export):
            _write_missing(sheet.name, self.images[sheet.filename])


def hosted_readme_step(export: TtsExport) -> str:
    """The zip README's first loading step when its JSON holds this site's addresses."""
    hours = settings.TTS_EXPORT_KEEP_HOURS
    step = (
        f"Nothing to upload: each FaceURL and BackURL in the JSON is the image's address on "
        f"{export.base_url}, which serves it for {hours} hours after the export"
    )
    if not export.public:
        step += " and until the pack's owner revokes the export's link"
    step += "."
    if is_loopback(export.base_url):
        step += (
            " That address reaches only the computer the site runs on: for a game with others,"
            " use the export page's saved object pointed at a folder, or upload the images."
        )
    return step


def export_files_delete(export: TtsExport) -> None:
    """Delete an export's saved object and every image of it that no other export uses
    (the rows first, then each file no row names any more)."""
    names = list(TtsSheet.objects.filter(export=export).values_list("name", flat=True))
    TtsSheet.objects.filter(export=export).delete()
    for name in set(names):
        if not TtsSheet.objects.filter(name=name).exists():
            default_storage.delete(name)
    if export.saved_object:
        export.saved_object.delete(save=False)


def folder_file_urls(folder: str) -> UrlMaker:
    """Zip file name -> its file:/// URL in `folder`, where the user unpacked the zip.

    A Windows path (``C:\\Users\\me\\Downloads\\pack``) or an absolute POSIX path
    (``/home/me/pack``), at most FOLDER_MAX_CHARS characters without control characters.
    Spaces and other characters a URL cannot hold are percent-encoded (RFC 8089)."""
    text = folder.strip()
    if not text:
        raise FolderError("folder: type the folder where you unpacked the zip")
    if len(text) > FOLDER_MAX_CHARS:
        raise FolderError(f"folder: at most {FOLDER_MAX_CHARS} characters, not {len(text)}")
    if any(ord(char) < 32 or ord(char) == 127 for char in text):
        raise FolderError("folder: a folder's path has no control characters (tab, new line)")
    path = text.replace("\\", "/")
    windows = len(path) >= 3 and path[0].isalpha() and path[1] == ":" and path[2] == "/"
    if not windows and not path.startswith("/"):
        raise FolderError(
            f"folder: {text!r} is not a full path: start with a drive (C:\\...) on Windows or "
            "with / on macOS and Linux"
        )
    path = path.rstrip("/")
    prefix = "file:///" + quote(path.lstrip("/"), safe="/:~!$&'()*+,;=@")

    def url(filename: str) -> str:
        return f"{prefix}/{filename}"

    return url


def saved_object_bytes(export: TtsExport, *, folder: str | None = None) -> bytes:
    """An export's saved object, its images at this site's addresses or, with `folder`, the
    unpacked zip's files there (FolderError for a folder that cannot be used)."""
    url = folder_file_urls(folder) if folder is not None else None
    with export.saved_object.open("rb") as handle:
        saved = json.loads(handle.read().decode("utf-8"))
    if url is None:
        url = hosted_urls(export, list(export.sheets.all()))
    rewritten = rewrite_urls(saved, url)
    return (json.dumps(rewritten, indent=2, ensure_ascii=False) + "\n").encode()


def export_hosting_fields(*, document: Mapping[str, Any], base_url: str) -> dict[str, Any]:
    """The hosting fields of a new export of `document`: its sets, whether they are all
    public now, and a token when they are not."""
    codes = pack_set_codes(document)
    public = selectors.sets_all_public(set_codes=codes)
    base = base_url.rstrip("/")
    return {
        # An address longer than the column (never a real site's) leaves the images unhosted.
        "base_url": base if len(base) <= BASE_URL_MAX_CHARS else "",
        "set_codes": codes,
        "public": public,
        "token": "" if public else new_token(),
    }
