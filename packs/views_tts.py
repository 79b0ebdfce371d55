"""Pages of a pack's Tabletop Simulator exports: start one, watch it, download the zip.

Exports belong to whoever started them, of a pack they may see (their own): anything else is
a 404, as if it did not exist.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.text import slugify
from django.views.decorators.http import require_POST, require_safe

from accounts.limits import TooManyRequests
from packs import selectors, tts_exports
from packs.models import Pack, TtsExport
from prints import background
from prints.models import JobStatus

# Where the pack page offers the export (the old download address leads there).
SECTION = "tabletop-simulator"


def _pack(request: HttpRequest, pack_id: int) -> Pack:
    pack = selectors.pack_get(pack_id=pack_id, viewer=request.user)
    if pack is None:
        raise Http404(f"No pack {pack_id}")
    return pack


def _export(request: HttpRequest, pack: Pack, export_id: int) -> TtsExport:
    export = selectors.tts_export_get(export_id=export_id, pack=pack, viewer=request.user)
    if export is None:
        raise Http404(f"No Tabletop Simulator export {export_id}")
    return export


@login_required
@require_POST
def tts_export_start(request: HttpRequest, pack_id: int) -> HttpResponse:
    """Start an export of the pack and open its page; past the user's limit, a page saying
    when to retry (429 with Retry-After) and nothing started."""
    pack = _pack(request, pack_id)
    user = request.user
    if not user.is_authenticated:  # pragma: no cover - login_required sent them to log in
        raise Http404(f"No pack {pack_id}")
    try:
        export = tts_exports.tts_export_start(pack=pack, actor=user)
    except TooManyRequests as exc:
        response = render(
            request,
            "packs/tts_export_refused.html",
            {"pack": pack, "message": exc.message},
            status=429,
        )
        response["Retry-After"] = str(exc.retry_after)
        return response
    return redirect("packs:tts_export", pack_id=pack.pk, export_id=export.pk)


@login_required
@require_safe
def tts_export_detail(request: HttpRequest, pack_id: int, export_id: int) -> HttpResponse:
    """The export's progress (the page reloads itself every 2 s until it has finished), then
    the download, or what went wrong."""
    pack = _pack(request, pack_id)
    export = _export(request, pack, export_id)
    if export.status in background.ACTIVE and tts_exports.tts_exports_expire_stalled():
        export.refresh_from_db()
    finished = export.status in background.FINISHED
    response = render(
        request,
        "packs/tts_export.html",
        {
            "pack": pack,
            "export": export,
            "refresh": not finished,
            "expires_at": tts_exports.tts_export_expires_at(export),
            "expired": tts_exports.tts_export_expired(export),
            "pack_url": reverse("packs:pack_detail", args=[pack.pk]) + f"#{SECTION}",
        },
    )
    patch_cache_control(response, private=True, no_store=not finished)
    return response


def tts_export_file(pack: Pack, export: TtsExport) -> FileResponse:
    """The zip of a finished export as a download (the caller checked who asks). A zip past
    its time, or gone from the storage, is a 404."""
    if export.status != JobStatus.DONE or not export.archive:
        raise Http404("The export has not finished")
    if tts_exports.tts_export_expired(export):
        raise Http404("The export has expired")
    try:
        handle = export.archive.open("rb")
    except OSError as exc:
        raise Http404("The export's file is gone") from exc
    filename = f"{slugify(pack.name) or 'pack'}-tts.zip"
    response = FileResponse(
        handle, as_attachment=True, filename=filename, content_type="application/zip"
    )
    patch_cache_control(response, private=True)  # the exporter's own
    return response


@login_required
@require_safe
def tts_export_download(request: HttpRequest, pack_id: int, export_id: int) -> FileResponse:
    pack = _pack(request, pack_id)
    return tts_export_file(pack, _export(request, pack, export_id))


@login_required
@require_safe
def tts_export_old_download(request: HttpRequest, pack_id: int) -> HttpResponse:
    """The old address of the zip, made while the request waited: now the pack page's
    Tabletop Simulator section, where the export is started."""
    pack = _pack(request, pack_id)
    return redirect(reverse("packs:pack_detail", args=[pack.pk]) + f"#{SECTION}")
