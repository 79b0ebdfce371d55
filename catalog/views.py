import mimetypes

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse

from accounts.selectors import user_get
from catalog import selectors
from catalog.addresses import card_art_url, set_proof
from catalog.faces import face_key
from catalog.forms import SetFilterForm
from catalog.permissions import can_edit_set, is_public
from catalog.search import QueryTooComplex
from validator.engine import whole_number


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/home.html", {"sets": selectors.set_list(viewer=request.user)})


def set_detail(request: HttpRequest, code: str) -> HttpResponse:
    card_set = selectors.set_get(code=code, viewer=request.user)
    if card_set is None:
        raise Http404(f"No set with code {code!r}")
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
    refused = ""
    if query.strip():
        number = whole_number(request.GET.get("page", "1"), low=1, high=10**18) or 1
        number = min(number, MAX_PAGE)
        try:
            page = selectors.card_search_page(
                query=query, viewer=request.user, page=number, per_page=PAGE_SIZE
            )
            if number > page.num_pages:  # past the end: show the last page, as links expect
                page = selectors.card_search_page(
                    query=query, viewer=request.user, page=page.num_pages, per_page=PAGE_SIZE
                )
        except QueryTooComplex as exc:
            refused = str(exc)
    warnings = page.warnings if page else []
    faces = {c.pk: face_key(c) for c in page.cards} if page else {}
    return render(
        request,
        "catalog/search.html",
        {
            "query": query,
            "page": page,
            "warnings": warnings,
            "refused": refused,
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
        },
    )


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on answers that link no icon (an API's JSON, a face
    PNG opened alone): the site's icon under its static name, hashed in production."""
    response = redirect(static("catalog/favicon.png"))
    response["Cache-Control"] = "public, max-age=86400"
    return response
