"""The pack pages: the builder with its preview and blend report, the user's packs, downloads."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control

from catalog import selectors as catalog_selectors
from catalog.exports import UnknownExporter, exporter_get
from packs import selectors, services
from packs.forms import PackBuilderForm
from packs.models import Pack
from packs.selectors import PackBuildError
from packs.tts.views import hosting_context


def _pack_or_404(request: HttpRequest, pack_id: int) -> Pack:
    pack = selectors.pack_get(pack_id=pack_id, viewer=request.user)
    if pack is None:
        raise Http404(f"No pack {pack_id}")
    return pack


def _pack_overrides(data: Any) -> tuple[dict[int, int], list[int], list[str]]:
    """Copies (`copies-<id>`) and left-out cards (`exclude`) from the preview table."""
    copies: dict[int, int] = {}
    errors: list[str] = []
    for key, value in data.items():
        if key.startswith("copies-") and key[7:].isdigit() and value != "":
            if not str(value).isdigit() or int(value) > 99:
                errors.append(f"copies of card {key[7:]}: a whole number from 0 to 99")
            else:
                copies[int(key[7:])] = int(value)
    exclude = [int(v) for v in data.getlist("exclude") if str(v).isdigit()]
    return copies, exclude, errors


def pack_new(request: HttpRequest) -> HttpResponse:
    """The pack builder. A preview (GET with `sets`, a permalink; or POST) shows the cards
    and the blend report; POST with action=build builds and keeps the pack (logged-in users)
    and opens its page."""
    listed = catalog_selectors.listed_sets(viewer=request.user).order_by(
        "-official", "year", "name"
    )
    choices = [(s.code, s.name) for s in listed]
    posted = request.method == "POST"
    data = request.POST if posted else (request.GET if "sets" in request.GET else None)
    form = PackBuilderForm(data, set_choices=choices)
    errors: list[str] = []
    built = None
    candidates: list[Any] = []
    copies: dict[int, int] = {}
    exclude: list[int] = []
    if data is not None and form.is_valid():
        references = [line for line in form.cleaned_data["add_cards"].splitlines() if line.strip()]
        include, errors = catalog_selectors.cards_by_reference(
            references=references, viewer=request.user
        )
        copies, exclude, copy_errors = _pack_overrides(data)
        errors += copy_errors
        if not errors:
            options = {
                "set_codes": form.cleaned_data["sets"],
                "query": form.cleaned_data["query"],
                "include": include,
                # The lines' set codes: an unlisted set's card is included by its code.
                "include_sets": sorted({line.rpartition("@")[2].strip() for line in references}),
            }
            try:
                candidates = selectors.pack_candidates(actor=request.user, **options)
                built = services.pack_build(
                    actor=request.user,
                    copies=copies,
                    exclude=exclude,
                    include_failing=form.cleaned_data["include_failing"],
                    name=form.cleaned_data["name"],
                    **options,
                )
            except PackBuildError as exc:
                errors = [f"{path}: {message}" for path, message in exc.errors]
        if posted and request.POST.get("action") == "build" and built is not None:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            pack = services.pack_create(actor=request.user, built=built)
            messages.success(request, f"Pack {pack.name!r} built: {pack.card_count} cards.")
            return redirect("packs:pack_detail", pack_id=pack.pk)
    rows = [
        {
            "card": card,
            "copies": copies.get(card.pk, card.copies if card.copies is not None else 1),
            "excluded": card.pk in exclude or copies.get(card.pk) == 0,
        }
        for card in candidates
    ]
    return render(
        request,
        "packs/pack_new.html",
        {"form": form, "errors": errors, "built": built, "rows": rows},
        status=400 if errors or (data is not None and form.errors) else 200,
    )


@login_required
def pack_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "packs/pack_list.html", {"packs": selectors.packs_of(viewer=request.user)}
    )


@login_required
def pack_detail(request: HttpRequest, pack_id: int) -> HttpResponse:
    pack = _pack_or_404(request, pack_id)
    report = pack.document.get("metadata", {}).get("report", {})
    latest = selectors.tts_export_latest_done(pack=pack, viewer=request.user)
    return render(
        request,
        "packs/pack_detail.html",
        {
            "pack": pack,
            "report": report,
            "sets": pack.document.get("sets", []),
            "simulations": pack.simulations.all()[:10],
            "tts_exports": selectors.tts_exports_of(pack=pack, viewer=request.user),
            "tts_latest": hosting_context(latest) if latest else None,
        },
    )


@login_required
def pack_download(request: HttpRequest, pack_id: int, fmt: str) -> HttpResponse:
    pack = _pack_or_404(request, pack_id)
    try:
        exporter = exporter_get(f"pack-{fmt}")
    except UnknownExporter as exc:
        raise Http404(f"No {fmt!r} download") from exc
    filename, content_type, content = exporter.render(document=pack.document)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    patch_cache_control(response, private=True)  # the builder's own: no shared cache keeps it
    return response
