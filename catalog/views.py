import mimetypes
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from catalog import selectors, services
from catalog.exports.pack import PackExporter
from catalog.exports.proxies import ProxyError, ProxySheetExporter, render_preview
from catalog.forms import PackBuilderForm, ProxyForm, SetFilterForm
from catalog.models import ProxyJob
from catalog.permissions import can_edit_set, is_public
from catalog.selectors import PackBuildError


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/home.html", {"sets": selectors.set_list(viewer=request.user)})


def set_detail(request: HttpRequest, code: str) -> HttpResponse:
    card_set = selectors.set_get(code=code, viewer=request.user)
    form = SetFilterForm(request.GET or None, kinds=selectors.set_kinds(card_set=card_set))
    deck = kind = ""
    if form.is_bound and form.is_valid():
        deck, kind = form.cleaned_data["deck"], form.cleaned_data["kind"]
    invalid = form.is_bound and not form.is_valid()
    cards = [] if invalid else selectors.set_cards(card_set=card_set, deck=deck, kind=kind)
    return render(
        request,
        "catalog/set_detail.html",
        {
            "card_set": card_set,
            "form": form,
            "rows": selectors.set_card_rows(cards=cards),
            "filtered": bool(deck or kind),
            "coverage": selectors.set_coverage(card_set=card_set),
            "can_edit": can_edit_set(request.user, card_set),
        },
        status=400 if invalid else 200,
    )


PAGE_SIZE = 60
MAX_PAGE = 10_000


def card_search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    view = "list" if request.GET.get("view") == "list" else "grid"
    page = None
    if query.strip():
        raw = request.GET.get("page", "1")
        number = min(int(raw), MAX_PAGE) if raw.isdigit() and int(raw) >= 1 else 1
        page = selectors.card_search_page(
            query=query, viewer=request.user, page=number, per_page=PAGE_SIZE
        )
        if number > page.num_pages:  # past the end: show the last page, as links expect
            page = selectors.card_search_page(
                query=query, viewer=request.user, page=page.num_pages, per_page=PAGE_SIZE
            )
    warnings = page.warnings if page else []
    faces = {c.pk: selectors.face_key(c) for c in page.cards} if page else {}
    return render(
        request,
        "catalog/search.html",
        {
            "query": query,
            "page": page,
            "warnings": warnings,
            "view": view,
            "faces": faces,
            "orders": selectors.SEARCH_ORDERS,
        },
    )


def random_card(request: HttpRequest) -> HttpResponse:
    card = selectors.card_random(viewer=request.user)
    if card is None:
        raise Http404("The catalog is empty")
    return redirect("catalog:card_detail", code=card.card_set.code, slug=card.slug)


def search_help(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/search_help.html", {"examples": selectors.SEARCH_EXAMPLES})


def card_face(request: HttpRequest, card_id: int, digest: str) -> HttpResponse:
    """A card's face; the URL names the document, so it can be cached for good."""
    card = selectors.card_get(card_id=card_id, viewer=request.user)
    current, png = selectors.card_face(card=card)
    if digest != current:
        return redirect("catalog:card_face", card_id=card_id, digest=current)
    response = HttpResponse(png, content_type="image/png")
    # The address names the document, so the face never changes; a private set's faces stay
    # out of shared caches.
    scope = "public" if is_public(card.card_set) else "private"
    response["Cache-Control"] = f"{scope}, max-age=31536000, immutable"
    return response


def card_art(request: HttpRequest, card_id: int) -> FileResponse:
    """A card's uploaded art, for viewers who may see the card.

    Read through the storage API rather than left to a media URL, so it works under any
    storage backend (local files, S3-compatible, ...) and with DEBUG off, and so a private
    set's art is only shown to those who may open the set."""
    card = selectors.card_get(card_id=card_id, viewer=request.user)
    if not card.art:
        raise Http404("This card has no art")
    try:
        art = card.art.open("rb")
    except OSError as exc:  # FileNotFoundError included: the record outlived its file
        raise Http404("This card's art is missing") from exc
    content_type = mimetypes.guess_type(art.name or "")[0] or "application/octet-stream"
    response = FileResponse(art, content_type=content_type)
    scope = "public" if is_public(card.card_set) else "private"
    response["Cache-Control"] = f"{scope}, max-age=86400"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def card_detail(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    detail = selectors.card_detail(set_code=code, slug=slug, viewer=request.user)
    return render(
        request,
        "catalog/card_detail.html",
        {
            "detail": detail,
            "card": detail.card,
            "face_key": selectors.face_key(detail.card),
            "printings": selectors.card_printings(card=detail.card, viewer=request.user),
            "can_edit": can_edit_set(request.user, detail.card.card_set),
            "start_into": selectors.sets_editable_by(viewer=request.user),
        },
    )


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
    listed = selectors.listed_sets(viewer=request.user).order_by("-official", "year", "name")
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
        include, errors = selectors.cards_by_reference(references=references, viewer=request.user)
        copies, exclude, copy_errors = _pack_overrides(data)
        errors += copy_errors
        if not errors:
            options = {
                "set_codes": form.cleaned_data["sets"],
                "query": form.cleaned_data["query"],
                "include": include,
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
            return redirect("catalog:pack_detail", pack_id=pack.pk)
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
        "catalog/pack_new.html",
        {"form": form, "errors": errors, "built": built, "rows": rows},
        status=400 if errors or (data is not None and form.errors) else 200,
    )


@login_required
def pack_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "catalog/pack_list.html", {"packs": selectors.packs_of(viewer=request.user)}
    )


@login_required
def pack_detail(request: HttpRequest, pack_id: int) -> HttpResponse:
    pack = selectors.pack_get(pack_id=pack_id, viewer=request.user)
    report = pack.document.get("metadata", {}).get("report", {})
    return render(
        request,
        "catalog/pack_detail.html",
        {
            "pack": pack,
            "report": report,
            "sets": pack.document.get("sets", []),
            "simulations": pack.simulations.all()[:10],
        },
    )


@login_required
def pack_download(request: HttpRequest, pack_id: int, fmt: str) -> HttpResponse:
    pack = selectors.pack_get(pack_id=pack_id, viewer=request.user)
    if fmt == "tts":
        from catalog.exports.tts import TabletopSimulatorExporter
        from validator.engine import parse_pack

        filename, content_type, content = TabletopSimulatorExporter().render(
            pack=parse_pack(pack.document)
        )
    elif fmt == "json":
        filename, content_type, content = PackExporter().render(document=pack.document)
    elif fmt == "yaml":
        filename, content_type, content = PackExporter().render(
            document=pack.document, format="yaml"
        )
    else:
        raise Http404(f"No {fmt!r} download")
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _proxy_form(request: HttpRequest, data: Any) -> ProxyForm:
    listed = selectors.listed_sets(viewer=request.user).order_by("-official", "year", "name")
    packs = [(p.pk, p.name) for p in selectors.packs_of(viewer=request.user)[:50]]
    return ProxyForm(data, set_choices=[(s.code, s.name) for s in listed], pack_choices=packs)


def _proxy_request(request: HttpRequest, form: ProxyForm) -> tuple[Any, Any, list[str]]:
    """(selection, options, errors) from a bound form."""
    if not form.is_valid():
        errors = [f"{name}: {' '.join(str(m) for m in e)}" for name, e in form.errors.items()]
        return None, None, errors
    try:
        return form.selection(), form.options(), []
    except ProxyError as exc:
        return None, None, [str(exc)]


def proxies(request: HttpRequest) -> HttpResponse:
    """Printable proxies: the options, a live preview of the first sheet, and the PDF —
    at once for small selections, or as a background job with progress for large ones."""
    from catalog import proxy_jobs

    data = request.POST if request.method == "POST" else (request.GET or None)
    form = _proxy_form(request, data)
    errors: list[str] = []
    if request.method == "POST":
        selection, options, errors = _proxy_request(request, form)
        if not errors:
            try:
                cards = proxy_jobs.proxy_cards(selection=selection, viewer=request.user)
                if sum(c.copies for c in cards) <= proxy_jobs.SYNC_COPIES:
                    filename, content_type, content = ProxySheetExporter().render(
                        cards=cards, options=options
                    )
                    response = HttpResponse(content, content_type=content_type)
                    response["Content-Disposition"] = f'attachment; filename="{filename}"'
                    return response
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                job = proxy_jobs.proxy_job_start(
                    selection=selection, options=options, actor=request.user
                )
                return redirect("catalog:proxy_job", job_id=job.pk)
            except ProxyError as exc:
                errors = [str(exc)]
            except Http404 as exc:
                errors = [str(exc)]
    preview_query = (request.POST if request.method == "POST" else request.GET).urlencode()
    return render(
        request,
        "catalog/proxies.html",
        {"form": form, "errors": errors, "preview_query": preview_query},
        status=400 if errors else 200,
    )


def proxy_preview(request: HttpRequest) -> HttpResponse:
    """The first sheet as PNG, drawn from the same layout as the PDF; a problem is drawn as
    text in its place, so the page's preview always says something."""
    from catalog import proxy_jobs

    form = _proxy_form(request, request.GET)
    selection, options, errors = _proxy_request(request, form)
    png = None
    if not errors:
        try:
            cards = proxy_jobs.proxy_cards(selection=selection, viewer=request.user)
            png = render_preview(cards=cards, options=options)
        except (ProxyError, Http404) as exc:
            errors = [str(exc)]
    if png is None:
        png = message_png(errors)
    response = HttpResponse(png, content_type="image/png", status=200 if not errors else 400)
    response["Cache-Control"] = "private, max-age=60"
    return response


@login_required
def proxy_job(request: HttpRequest, job_id: int) -> HttpResponse:
    job = get_object_or_404(ProxyJob, pk=job_id, owner=request.user)
    return render(request, "catalog/proxy_job.html", {"job": job})


@login_required
def proxy_job_download(request: HttpRequest, job_id: int) -> HttpResponse:
    job = get_object_or_404(ProxyJob, pk=job_id, owner=request.user, status="done")
    response = HttpResponse(job.pdf.read(), content_type="application/pdf")
    response["Content-Disposition"] = 'attachment; filename="proxies.pdf"'
    return response


def message_png(lines: list[str]) -> bytes:
    """A small picture of a message, for an image slot that cannot show what was asked."""
    import io
    import textwrap

    from PIL import Image, ImageDraw

    text = "\n".join(textwrap.fill(line, 60) for line in lines) or "Nothing to show"
    image = Image.new("RGB", (520, 40 + 16 * text.count("\n")), "#fff6f5")
    ImageDraw.Draw(image).multiline_text((12, 12), text, fill="#8b1e1e")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
