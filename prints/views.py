"""The pages of prints: card faces, the proxy page with its live preview, proxy jobs."""

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control

from accounts.limits import TooManyRequests, client_address, identities, rate_limit
from catalog import selectors as catalog_selectors
from catalog.permissions import is_public
from prints import jobs, selectors
from prints.forms import ProxyForm
from prints.models import ProxyJob
from prints.proxies import render_preview
from prints.sheets import ProxyError
from prints.sources import pack_source


def card_face(request: HttpRequest, card_id: int, digest: str) -> HttpResponse:
    """A card's face; the URL names the document, so it can be cached for good. A stale
    digest is redirected to the current face only for a card its id alone reaches (a set
    listed for the viewer); an unlisted set's card is found only by its current digest."""
    card = catalog_selectors.card_by_face(card_id=card_id, viewer=request.user, face=digest)
    if card is None:
        raise Http404(f"No card with id {card_id}")
    current, png = selectors.card_face(card=card)
    if digest != current:
        return redirect("prints:card_face", card_id=card_id, digest=current)
    response = HttpResponse(png, content_type="image/png")
    # The address names the document, so the face never changes; a private set's faces stay
    # out of shared caches.
    scope = "public" if is_public(card.card_set) else "private"
    response["Cache-Control"] = f"{scope}, max-age=31536000, immutable"
    return response


def _proxy_form(request: HttpRequest, data: Any) -> ProxyForm:
    listed = catalog_selectors.listed_sets(viewer=request.user).order_by(
        "-official", "year", "name"
    )
    packs = pack_source().choices(viewer=request.user)[:50]
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
    at once for small selections (PROXY_PDF_PER_HOUR an hour per user and per address, then
    a 429 page saying when to retry), or as a background job with progress for large ones."""
    data = request.POST if request.method == "POST" else (request.GET or None)
    form = _proxy_form(request, data)
    errors: list[str] = []
    refused: TooManyRequests | None = None
    # "Update the preview" posts the form (so the CSRF token stays out of the address) and
    # asks for the page again, not the PDF.
    making = request.method == "POST" and "preview" not in request.POST
    if making:
        selection, options, errors = _proxy_request(request, form)
        if not errors:
            try:
                cards = jobs.proxy_cards(selection=selection, viewer=request.user)
                if jobs.made_at_once(cards):
                    filename, content_type, content = jobs.proxy_pdf_now(
                        cards=cards, options=options, idents=identities(request)
                    )
                    response = HttpResponse(content, content_type=content_type)
                    response["Content-Disposition"] = f'attachment; filename="{filename}"'
                    patch_cache_control(response, private=True)  # may hold the user's own sets
                    return response
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                job = jobs.proxy_job_start(
                    selection=selection,
                    options=options,
                    actor=request.user,
                    address=client_address(request),
                )
                return redirect("prints:proxy_job", job_id=job.pk)
            except ProxyError as exc:
                errors = [str(exc)]
            except jobs.PackNotFound as exc:
                errors = [str(exc)]
            except TooManyRequests as exc:
                refused = exc
                errors = [exc.message]
    preview_query, preview_errors = _preview_of(request, form, data, errors, checked=making)
    response = render(
        request,
        "prints/proxies.html",
        {
            "form": form,
            "errors": errors,
            "preview_query": preview_query,
            "preview_errors": preview_errors,
            "sync_copies": jobs.SYNC_COPIES,
            "sync_faces": jobs.SYNC_FACES,
            "preview_faces": settings.PROXY_PREVIEW_MAX_CARDS,
        },
        status=429 if refused else 400 if errors or preview_errors else 200,
    )
    if refused:
        response["Retry-After"] = str(refused.retry_after)
    return response


def preview_query(data: QueryDict) -> str:
    """The preview image's query: the form's options, never the CSRF token (an address is
    logged, cached and sent on as a referrer; the token is only for the POST body)."""
    query = data.copy()
    for name in ("csrfmiddlewaretoken", "preview"):
        query.pop(name, None)
    return query.urlencode()


def _preview_of(
    request: HttpRequest,
    form: ProxyForm,
    data: QueryDict | None,
    errors: list[str],
    *,
    checked: bool,
) -> tuple[str, list[str]]:
    """(query of the preview image, or "" for none; why there is none) for the page as
    served, so the page says in text why it shows no preview, with or without scripts.
    `checked`: proxies() has already checked the options in full (they gave `errors`)."""
    if data is None:
        return "", []
    if not checked:
        selection, _options, errors = _proxy_request(request, form)
        if not errors:
            try:
                jobs.proxy_cards(selection=selection, viewer=request.user)
            except (ProxyError, jobs.PackNotFound) as exc:
                errors = [str(exc)]
    return ("" if errors else preview_query(data)), errors


def _preview_refused(errors: list[str], status: int) -> JsonResponse:
    """A preview that cannot be drawn: its reasons as text, which the page shows beside the
    preview (never drawn into an image, which only sighted readers of English could use)."""
    return JsonResponse({"errors": errors}, status=status)


def proxy_preview(request: HttpRequest) -> HttpResponse:
    """The first sheet as PNG, drawn from the same layout as the PDF. Options that cannot be
    drawn answer 400 with {"errors": [...]} as JSON, for the page to show as text. Open to
    anyone, so counted per user and per address (PROXY_PREVIEW_PER_MINUTE): past it, a 429
    with the same JSON saying when to try again, and Retry-After."""
    try:
        rate_limit(
            scope="proxy-preview",
            idents=identities(request),
            limit=settings.PROXY_PREVIEW_PER_MINUTE,
            per="minute",
            what="previews",
        )
    except TooManyRequests as exc:
        response = _preview_refused([exc.message], 429)
        response["Retry-After"] = str(exc.retry_after)
        response["Cache-Control"] = "no-store"
        return response
    form = _proxy_form(request, request.GET)
    selection, options, errors = _proxy_request(request, form)
    if not errors:
        try:
            cards = jobs.proxy_cards(selection=selection, viewer=request.user)
            png = render_preview(cards=cards, options=options)
        except (ProxyError, jobs.PackNotFound) as exc:
            errors = [str(exc)]
    if errors:
        refused = _preview_refused(errors, 400)
        refused["Cache-Control"] = "no-store"
        return refused
    picture = HttpResponse(png, content_type="image/png")
    picture["Cache-Control"] = "private, max-age=60"
    return picture


@login_required
def proxy_job(request: HttpRequest, job_id: int) -> HttpResponse:
    job = get_object_or_404(ProxyJob, pk=job_id, owner=request.user)
    return render(
        request,
        "prints/proxy_job.html",
        {"job": job, "expires_at": jobs.proxy_job_expires_at(job)},
    )


@login_required
def proxy_job_download(request: HttpRequest, job_id: int) -> HttpResponse:
    job = get_object_or_404(ProxyJob, pk=job_id, owner=request.user, status="done")
    expires_at = jobs.proxy_job_expires_at(job)
    if expires_at is not None and expires_at <= timezone.now():
        raise Http404("The PDF has expired")
    response = HttpResponse(job.pdf.read(), content_type="application/pdf")
    response["Content-Disposition"] = 'attachment; filename="proxies.pdf"'
    patch_cache_control(response, private=True)  # the job's owner's own
    return response
