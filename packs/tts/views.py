"""Pages of a pack's Tabletop Simulator exports: start one, watch it, download the zip or the
saved object alone, revoke or renew its link; and the hosted images themselves.

Exports belong to whoever started them, of a pack they may see (their own): anything else is
a 404, as if it did not exist. The images are the exception: Tabletop Simulator fetches them
without a session, so their address alone decides (packs/tts/hosting.py).

The pages parse the request and answer; the work is packs/tts/jobs.py's (start),
packs/tts/services.py's (expiry, the link) and packs/tts/hosting.py's (files and addresses).
`hosting_context` and the two download answers are shared with the pack page and the API.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.text import slugify
from django.views.decorators.http import require_POST, require_safe

from accounts.limits import TooManyRequests, client_address
from packs import selectors
from packs.models import Pack, TtsExport, TtsSheet
from packs.tts import hosting, jobs, services
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
        export = jobs.tts_export_start(
            pack=pack,
            actor=user,
            base_url=hosting.site_base_url(request),
            address=client_address(request),
        )
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
    if export.status in background.ACTIVE and services.tts_exports_expire_stalled():
        export.refresh_from_db()
    finished = export.status in background.FINISHED
    response = _detail_page(request, pack, export)
    patch_cache_control(response, private=True, no_store=not finished)
    return response


def hosting_context(
    export: TtsExport, *, folder: str = "", folder_error: str = ""
) -> dict[str, Any]:
    """What the saved-object part of a page shows for a finished export (shared by the
    export's page and the pack page)."""
    return {
        "export": export,
        "access": hosting.access(export),
        "local": bool(export.base_url) and hosting.is_loopback(export.base_url),
        "expires_at": services.tts_export_expires_at(export),
        "folder": folder,
        "folder_error": folder_error,
        "folder_max": hosting.FOLDER_MAX_CHARS,
        "folder_example": f"C:\\Users\\you\\Downloads\\{slugify(export.pack.name) or 'pack'}-tts",
    }


def _detail_page(
    request: HttpRequest, pack: Pack, export: TtsExport, *, status: int = 200, **hosting: str
) -> HttpResponse:
    return render(
        request,
        "packs/tts_export.html",
        {
            "pack": pack,
            "export": export,
            "refresh": export.status not in background.FINISHED,
            "expires_at": services.tts_export_expires_at(export),
            "expired": services.tts_export_expired(export),
            "pack_url": reverse("packs:pack_detail", args=[pack.pk]) + f"#{SECTION}",
            "hosting": hosting_context(export, **hosting),
        },
        status=status,
    )


@login_required
@require_safe
def tts_export_saved_object(request: HttpRequest, pack_id: int, export_id: int) -> HttpResponse:
    """The saved object alone, as a download: its images at this site's addresses, or with
    `?folder=` at the unpacked zip's files there (a folder that cannot be used: the export's
    page with the reason on the field, status 400). 404 like the zip, and once the link is
    revoked (its addresses would answer 404) or for an export whose images are not hosted."""
    pack = _pack(request, pack_id)
    export = _export(request, pack, export_id)
    folder = request.GET.get("folder")
    try:
        return tts_export_saved_object_response(pack, export, folder)
    except hosting.FolderError as exc:
        bounded = (folder or "")[: hosting.FOLDER_MAX_CHARS]
        return _detail_page(
            request, pack, export, status=400, folder=bounded, folder_error=str(exc)
        )


def tts_export_saved_object_response(
    pack: Pack, export: TtsExport, folder: str | None
) -> HttpResponse:
    """The saved object of an export as a download (the caller checked who asks): 404 where
    the zip is (not finished, expired), and for hosted addresses that would not answer
    (revoked link, images not hosted). FolderError for a folder that cannot be used."""
    _check_served(export)
    if folder is None and hosting.access(export) not in ("public", "token"):
        raise Http404("This export's images are not served")
    if not export.saved_object:
        raise Http404("This export has no saved object of its own")
    try:
        content = hosting.saved_object_bytes(export, folder=folder)
    except OSError as exc:
        raise Http404("The export's saved object is gone") from exc
    response = HttpResponse(content, content_type="application/json")
    name = f"{slugify(pack.name) or 'pack'}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    patch_cache_control(response, private=True, no_store=True)  # the link may change
    return response


@login_required
@require_POST
def tts_export_link(request: HttpRequest, pack_id: int, export_id: int) -> HttpResponse:
    """Revoke (`action=revoke`) or renew (`action=renew`) a private export's link, then back
    to its page, which says what changed."""
    pack = _pack(request, pack_id)
    export = _export(request, pack, export_id)
    action = request.POST.get("action", "")
    user = request.user
    if not user.is_authenticated:  # pragma: no cover - login_required sent them to log in
        raise Http404(f"No pack {pack_id}")
    try:
        if action == "revoke":
            services.tts_export_link_revoke(export=export, actor=user)
            messages.success(
                request,
                "Link revoked: saved objects downloaded before no longer load their images.",
            )
        elif action == "renew":
            services.tts_export_link_renew(export=export, actor=user)
            messages.success(request, "New link made: download the saved object again.")
        else:
            raise ValueError(f"the action is 'revoke' or 'renew', not {action[:40]!r}")
    except ValueError as exc:  # nothing changed; the page says why
        messages.error(request, f"Link not changed: {exc}.")
        return _detail_page(request, pack, export, status=400)
    return redirect("packs:tts_export", pack_id=pack.pk, export_id=export.pk)


def _sheet_response(request: HttpRequest, sheet: TtsSheet | None, *, public: bool) -> FileResponse:
    if sheet is None:
        raise Http404("No such image")
    try:
        handle = default_storage.open(sheet.name, "rb")
    except OSError as exc:
        raise Http404("The image is gone") from exc
    response = FileResponse(handle, content_type="image/jpeg")
    if public:
        patch_cache_control(response, public=True, max_age=3600)
    else:  # a revoked link must stop working: no shared cache keeps it
        patch_cache_control(response, private=True, no_cache=True)
        response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
def tts_sheet_public(request: HttpRequest, sha256: str) -> FileResponse:
    """A public export's image, to anyone (Tabletop Simulator has no session)."""
    return _sheet_response(request, selectors.tts_sheet_public(sha256=sha256), public=True)


@require_safe
def tts_sheet(request: HttpRequest, token: str, sha256: str) -> FileResponse:
    """A private export's image, to whoever has its link; 404 for anyone else."""
    sheet = selectors.tts_sheet_with_token(token=token, sha256=sha256)
    return _sheet_response(request, sheet, public=False)


def _check_served(export: TtsExport) -> None:
    """404 unless the export is done and not expired."""
    if export.status != JobStatus.DONE or not export.archive:
        raise Http404("The export has not finished")
    if services.tts_export_expired(export):
        raise Http404("The export has expired")


def tts_export_file(pack: Pack, export: TtsExport) -> FileResponse:
    """The zip of a finished export as a download (the caller checked who asks). A zip past
    its time, or gone from the storage, is a 404."""
    _check_served(export)
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
