import mimetypes

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse

from accounts.selectors import user_get
from catalog import selectors, validation
from catalog.addresses import card_art_url, set_proof
from catalog.faces import face_key
from catalog.forms import ResultsViewForm, SetFilterForm
from catalog.permissions import can_edit_set, is_public
from catalog.profile_sections import profile_sections
from catalog.search import QueryTooComplex


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/home.html", {"tiles": selectors.set_tiles(viewer=request.user)})


def set_detail(request: HttpRequest, code: str) -> HttpResponse:
    """The set for players: its cards as a grid of faces, a list or a checklist, filtered
    and sorted; the rules engine's coverage folded away at the bottom. Unknown filters,
    views, orders or pages are reported with status 400 and no cards."""
    card_set = selectors.set_get(code=code, viewer=request.user)
    if card_set is None:
        raise Http404(f"No set with code {code!r}")
    form = SetFilterForm(request.GET or None, kinds=selectors.set_kinds(card_set=card_set))
    valid = not form.is_bound or form.is_valid()
    settings = form.cleaned_data if form.is_bound and valid else {}
    browse = None
    if valid:
        browse = selectors.set_browse(
            card_set=card_set,
            deck=settings.get("deck", ""),
            kind=settings.get("kind", ""),
            order=settings.get("order", "number"),
            direction=settings.get("dir", "asc"),
            page=settings.get("page", 1),
        )
        if browse.out_of_range:
            form.add_error("page", _no_such_page(browse.number, browse.num_pages))
    coverage = selectors.set_coverage(card_set=card_set)
    if coverage["rechecking"]:
        validation.stale_recheck_queue()  # one pass per code, however many pages ask
    return render(
        request,
        "catalog/set_detail.html",
        {
            "card_set": card_set,
            "counts": selectors.set_counts(card_set=card_set),
            "form": form,
            "browse": browse if browse and not browse.out_of_range else None,
            "view": settings.get("view", "grid"),
            "filtered": bool(settings.get("deck") or settings.get("kind")),
            "coverage": coverage,
            "can_edit": can_edit_set(request.user, card_set),
            "completeness": (
                selectors.set_completeness(card_set=card_set) if card_set.official else None
            ),
        },
        status=400 if form.errors else 200,
    )


def set_help(request: HttpRequest, code: str) -> HttpResponse:
    """The "Help complete this set" page: what is not known yet of an official set, card by
    card, with links to propose a correction or a missing card. A custom set has no such page
    (its maker completes it in the editor): 404, as for a set the viewer may not see."""
    card_set = selectors.set_get(code=code, viewer=request.user)
    if card_set is None or not card_set.official:
        raise Http404(f"No official set with code {code!r}")
    return render(
        request,
        "catalog/set_help.html",
        {
            "card_set": card_set,
            "help": selectors.set_help(card_set=card_set),
        },
    )


def _no_such_page(number: int, last: int) -> str:
    return f"there is no page {number:,}: this list has {last} page{'s' if last > 1 else ''}."


PAGE_SIZE = 60


def card_search(request: HttpRequest) -> HttpResponse:
    """Search results as a grid of faces, a list (stats and rules text) or a checklist;
    an unknown view or page is reported with status 400 and no results."""
    query = request.GET.get("q", "")
    form = ResultsViewForm(request.GET)
    valid = form.is_valid()
    view = form.cleaned_data.get("view", "grid") if valid else "grid"
    page = None
    refused = ""
    if valid and query.strip():
        number = form.cleaned_data["page"]
        try:
            page = selectors.card_search_page(
                query=query, viewer=request.user, page=number, per_page=PAGE_SIZE
            )
        except QueryTooComplex as exc:
            refused = str(exc)
        if page is not None and number > page.num_pages:
            form.add_error("page", _no_such_page(number, page.num_pages))
            page = None
    hints = (
        selectors.search_suggestions(
            query=query, viewer=request.user, total=page.total, corrections=page.corrections
        )
        if page is not None
        else None
    )
    return render(
        request,
        "catalog/search.html",
        {
            "query": query,
            "page": page,
            "entries": selectors.card_entries(cards=page.cards) if page else [],
            "warnings": page.warnings if page else [],
            "refused": refused,
            "form": form,
            "view": view,
            "hints": hints,
            "orders": selectors.SEARCH_ORDERS,
        },
        status=400 if form.errors else 200,
    )


def random_card(request: HttpRequest) -> HttpResponse:
    card = selectors.card_random(viewer=request.user)
    if card is None:
        raise Http404("The catalog is empty")
    return redirect("catalog:card_detail", code=card.card_set.code, slug=card.slug)


def card_art(request: HttpRequest, card_id: int) -> FileResponse:
    """A card's uploaded art, for viewers who may see the card: by its id alone a card of a
    set listed for them, an unlisted set's card when `?set=` names its set (the address its
    pages give, `catalog.addresses.card_art_url`).

    Read through the storage API rather than left to a media URL, so it works under any
    storage backend (local files, S3-compatible, ...) and with DEBUG off, and so a private
    set's art is only shown to those who may open the set."""
    card = selectors.card_get(card_id=card_id, viewer=request.user, set_code=request.GET.get("set"))
    if card is None:
        raise Http404(f"No card with id {card_id}")
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
    page = selectors.card_page(set_code=code, slug=slug, viewer=request.user)
    if page is None:
        raise Http404("No such card")
    card = page.detail.card
    if page.detail.stale is not None:
        validation.stale_recheck_queue()  # one pass per code, however many pages ask
    return render(
        request,
        "catalog/card_detail.html",
        {
            "card_page": page,
            "detail": page.detail,
            "card": card,
            "face_key": face_key(card),
            "art_url": card_art_url(card),
            "set_proof": set_proof(card.card_set),
            "can_edit": can_edit_set(request.user, card.card_set),
            "start_into": selectors.sets_editable_by(viewer=request.user),
            "provenance": selectors.card_provenance(card=card),
        },
    )


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A user's page: the sets they made that the viewer may see."""
    owner = user_get(username=username)
    if owner is None:
        raise Http404(f"No user {username!r}")
    is_owner = request.user.is_authenticated and request.user.pk == owner.pk
    new_set_url = reverse("authoring:set_create") if is_owner else None
    return render(
        request,
        "catalog/profile.html",
        {
            "owner": owner,
            "sets": selectors.sets_owned_by(owner=owner, viewer=request.user),
            "is_owner": is_owner,
            "new_set_url": new_set_url,
            "profile_sections": profile_sections(owner=owner, viewer=request.user),
        },
    )


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on answers that link no icon (an API's JSON, a face
    PNG opened alone): the site's icon under its static name, hashed in production."""
    response = redirect(static("catalog/favicon.png"))
    response["Cache-Control"] = "public, max-age=86400"
    return response
