"""Authoring pages: sets, the card editor with its live preview, history and the trash."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from authoring import selectors
from authoring.controls import controls_config, controls_data, controls_version
from authoring.editor import NEW_CARD_YAML, STAT_FIELDS, EditorError, split_document, typed_card
from authoring.forms import CardForm, SetForm
from authoring.previews import counted_preview
from authoring.starters import STARTERS
from catalog import selectors as catalog_selectors
from catalog import services
from catalog.images import PictureError
from catalog.models import MAX_ROW_ID, Card, CardSet
from catalog.permissions import can_edit_set
from catalog.services import StaleRevisionError
from validator.engine import CardDocumentError, whole_number

# The longest card name the language allows (CardName).
MAX_CARD_NAME = 80


def _user(request: HttpRequest) -> Any:
    return request.user


def _editable_set(request: HttpRequest, code: str, *, include_deleted: bool = False) -> CardSet:
    """A set the user may change: 404 when they may not even see it, 403 when they may see
    but not change it."""
    user = _user(request)
    card_set = selectors.author_set(code=code, actor=user, include_deleted=include_deleted)
    if card_set is None:
        raise Http404(f"No set with code {code!r}")
    if not can_edit_set(user, card_set):
        raise PermissionDenied(f"you may not change the set {card_set.code!r}")
    return card_set


def _editable_card(request: HttpRequest, code: str, slug: str) -> Card:
    card = selectors.author_card(card_set=_editable_set(request, code), slug=slug)
    if card is None:
        raise Http404("No such card")
    return card


def _set_fields(form: SetForm) -> dict[str, Any]:
    return {
        key: form.cleaned_data[key] for key in ("name", "visibility", "description", "cards_in_box")
    }


@login_required
def set_create(request: HttpRequest) -> HttpResponse:
    form = SetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            card_set = services.set_create(
                owner=_user(request), code=form.cleaned_data["code"], **_set_fields(form)
            )
        except services.SetError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"Set {card_set.name!r} created. Add its first card.")
            return redirect("authoring:card_new", code=card_set.code)
    return render(
        request, "authoring/set_form.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
def set_edit(request: HttpRequest, code: str) -> HttpResponse:
    card_set = _editable_set(request, code)
    form = SetForm(request.POST or None, instance=card_set)
    if request.method == "POST" and form.is_valid():
        try:
            services.set_update(
                card_set=CardSet.objects.get(pk=card_set.pk),
                actor=_user(request),
                **_set_fields(form),
            )
        except services.SetError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, "Set saved.")
            return redirect("catalog:set_detail", code=card_set.code)
    return render(
        request,
        "authoring/set_form.html",
        {"form": form, "card_set": card_set},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def set_delete(request: HttpRequest, code: str) -> HttpResponse:
    card_set = _editable_set(request, code)
    services.set_delete(card_set=card_set, actor=_user(request))
    messages.success(request, f"Set {card_set.name!r} deleted. It stays in your trash.")
    return redirect("authoring:trash")


@login_required
@require_POST
def set_restore(request: HttpRequest, code: str) -> HttpResponse:
    card_set = _editable_set(request, code, include_deleted=True)
    services.set_restore(card_set=card_set, actor=_user(request))
    messages.success(request, f"Set {card_set.name!r} restored.")
    return redirect("catalog:set_detail", code=card_set.code)


@login_required
def trash(request: HttpRequest) -> HttpResponse:
    sets, cards = selectors.trash(actor=_user(request))
    return render(request, "authoring/trash.html", {"sets": sets, "cards": cards})


def _editor_context(
    form: CardForm,
    card_set: CardSet,
    card: Card | None,
    errors: list[EditorError],
    *,
    fresh: bool = False,
) -> dict[str, Any]:
    """`fresh`: a blank new card, which shows no error until the user first edits it."""
    kind = form["kind"].value()
    return {
        "form": form,
        "card_set": card_set,
        "card": card,
        "errors": errors,
        "stat_names": [s.name for s in STAT_FIELDS],
        # Rows of other kinds start hidden, so the page is right before (or without) scripts.
        "shown_stats": {s.name for s in STAT_FIELDS if kind in s.kinds},
        "preview_url": reverse("authoring:card_preview", args=[card_set.code]),
        "controls_url": f"{reverse('authoring:card_controls')}?v={controls_version()}",
        # The YAML's mapping for the controls to draw at once (None: not readable, so the
        # page opens on the YAML).
        "controls_data": controls_data(str(form["document_yaml"].value() or "")),
        "fresh": fresh,
    }


def _initial(document: dict[str, Any], revision: int | None) -> dict[str, Any]:
    values, text = split_document(document)
    return {**values, "deck": values.get("deck") or "", "document_yaml": text} | (
        {"base_revision": revision} if revision is not None else {}
    )


@login_required
def card_new(request: HttpRequest, code: str) -> HttpResponse:
    card_set = _editable_set(request, code)
    if request.method == "POST":
        return _card_save(request, card_set, None)
    initial: dict[str, Any] = {"kind": "monster", "deck": "door", "document_yaml": NEW_CARD_YAML}
    started = _starting_point(request)
    if isinstance(started, HttpResponse):
        return started
    if started is not None:
        initial = _initial(started, None)
    source_id = request.GET.get("from", "")
    card_id = whole_number(source_id, low=1, high=MAX_ROW_ID)
    if source_id and card_id is None:
        raise Http404(f"No card with id {source_id}")
    if card_id is not None:  # "start from" another card the user may see (`set`: see card_get)
        source = catalog_selectors.card_get(
            card_id=card_id, viewer=_user(request), set_code=request.GET.get("set")
        )
        if source is None:
            raise Http404(f"No card with id {source_id}")
        initial = _initial(source.document, None)
    context = _editor_context(
        CardForm(initial=initial), card_set, None, [], fresh=card_id is None and started is None
    )
    context["starters"] = list(STARTERS.items())
    return render(request, "authoring/card_edit.html", context)


def _starting_point(request: HttpRequest) -> dict[str, Any] | HttpResponse | None:
    """A new card's "Start from": one of the common shapes (`template`) or a card the user may
    see, by name (`from_name`). Bad input is refused with what is accepted."""
    template = request.GET.get("template", "")
    if template:
        starter = STARTERS.get(template)
        if starter is None:
            return HttpResponseBadRequest(
                f"no template {template[:40]!r}; the templates are {', '.join(STARTERS)}",
                content_type="text/plain",
            )
        return starter.document
    name = request.GET.get("from_name", "").strip()
    if not name:
        return None
    if len(name) > MAX_CARD_NAME:
        return HttpResponseBadRequest(
            f"from_name: a card name has at most {MAX_CARD_NAME} characters",
            content_type="text/plain",
        )
    source = selectors.card_named(name=name, viewer=_user(request))
    if source is None:
        messages.error(request, f"No card named {name!r} that you can see; starting blank.")
        return None
    return dict(source.document)


@login_required
def card_new_from(request: HttpRequest) -> HttpResponse:
    """ "Start from" a card the user may see: the editor of a new card in one of their sets,
    filled with that card's document (nothing is saved until they save). The code of the
    card's set, when an unlisted set's card page sent it (`set`), is passed on."""
    into = request.GET.get("into", "")
    source = request.GET.get("from", "")
    card_set = _editable_set(request, into)
    if whole_number(source, low=1, high=MAX_ROW_ID) is None:
        raise Http404("No card to start from")
    query = {"from": source} | ({"set": proof} if (proof := request.GET.get("set")) else {})
    return redirect(f"{reverse('authoring:card_new', args=[card_set.code])}?{urlencode(query)}")


@login_required
def card_edit(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    card = _editable_card(request, code, slug)
    if request.method == "POST":
        return _card_save(request, card.card_set, card)
    form = CardForm(initial=_initial(card.document, card.revision))
    return render(
        request, "authoring/card_edit.html", _editor_context(form, card.card_set, card, [])
    )


def _card_save(request: HttpRequest, card_set: CardSet, card: Card | None) -> HttpResponse:
    form = CardForm(request.POST, request.FILES)
    errors: list[EditorError] = []
    if form.is_valid():
        typed, merged = typed_card(form.values(), form.cleaned_data["document_yaml"])
        errors = merged.errors
        if typed is not None and merged.document is not None:
            try:
                saved = _write(request, form, card_set, card, merged.document)
            except CardDocumentError as exc:
                errors = [EditorError(e.path, e.message, field="name") for e in exc.errors]
            except StaleRevisionError as exc:
                return _conflict(request, form, card_set, exc, merged.document)
            except PictureError as exc:  # the form checked it; decoding found it broken
                errors = [EditorError("art", str(exc), field="art")]
            else:
                said = f"Saved {saved.name!r} as revision {saved.revision}."
                if card is None and request.POST.get("then") == "another":
                    messages.success(request, f"{said} Now a new card of {card_set.name}.")
                    return redirect("authoring:card_new", code=card_set.code)
                messages.success(request, said)
                return redirect("catalog:card_detail", code=card_set.code, slug=saved.slug)
    for error in errors:
        if error.field in form.fields:
            form.add_error(error.field, error.message)
    context = _editor_context(form, card_set, card, [e for e in errors if not e.field])
    return render(request, "authoring/card_edit.html", context, status=400)


def _write(
    request: HttpRequest,
    form: CardForm,
    card_set: CardSet,
    card: Card | None,
    document: dict[str, Any],
) -> Card:
    # One transaction: art that cannot be kept leaves the card as it was.
    with transaction.atomic():
        if card is None:
            saved = services.card_create(card_set=card_set, actor=_user(request), document=document)
        else:
            base = form.cleaned_data.get("base_revision") or card.revision
            saved = services.card_update(
                card=card, actor=_user(request), document=document, base_revision=base
            )
        art = form.cleaned_data.get("art")
        if art:
            saved = services.card_art_set(card=saved, actor=_user(request), upload=art)
    return saved


def _conflict(
    request: HttpRequest,
    form: CardForm,
    card_set: CardSet,
    exc: StaleRevisionError,
    yours: dict[str, Any],
) -> HttpResponse:
    """The card changed since this edit began: show both versions and keep this edit in the
    form, now based on the current revision, so saving again is a deliberate choice."""
    current = exc.card
    data = request.POST.copy()
    data["base_revision"] = str(current.revision)
    rebased = CardForm(data)
    rebased.is_valid()
    context = _editor_context(rebased, card_set, current, [])
    context["conflict"] = {
        "base_revision": exc.base_revision,
        "current": current,
        "latest": current.revisions.select_related("changed_by").first(),
        "theirs": selectors.document_yaml(current.document),
        "yours": selectors.document_yaml(yours),
        "diff": selectors.document_diff(current.document, yours),
    }
    return render(request, "authoring/card_edit.html", context, status=409)


@login_required
@require_POST
def card_preview(request: HttpRequest, code: str) -> JsonResponse:
    """The editor's live preview: errors with their field or line, else the rules text, the
    face and the validator's report. Nothing is stored."""
    card_set = _editable_set(request, code)
    return counted_preview(request, CardForm(request.POST), set_code=card_set.code, scope="preview")


@require_GET
def card_controls(request: HttpRequest) -> JsonResponse:
    """What the editor's controls are drawn from: the card schema, plain words for each effect
    type and condition, and an example card for each. The same for everyone (no user data),
    so caches may keep it; its address carries the engine's version."""
    config = controls_config(
        examples=selectors.effect_examples(), suggestions=selectors.condition_suggestions()
    )
    response = JsonResponse(config)
    response["Cache-Control"] = "public, max-age=600"
    return response


def card_history(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    """Every revision of a card with its diff; anyone who may see the card may read it."""
    detail = catalog_selectors.card_detail(set_code=code, slug=slug, viewer=_user(request))
    if detail is None:
        raise Http404("No such card")
    card = detail.card
    can_edit = can_edit_set(_user(request), card.card_set)
    return render(
        request,
        "authoring/card_history.html",
        {"card": card, "entries": selectors.card_history(card=card), "can_edit": can_edit},
    )


@login_required
@require_POST
def card_revert(request: HttpRequest, code: str, slug: str, number: int) -> HttpResponse:
    card = _editable_card(request, code, slug)
    raw = request.POST.get("base_revision", "")
    base = whole_number(raw, low=1, high=MAX_ROW_ID) if raw else card.revision
    if base is None:
        return HttpResponseBadRequest(
            f"base_revision must be a whole number from 1 to {MAX_ROW_ID:,}",
            content_type="text/plain",
        )
    try:
        saved = services.card_revert(
            card=card, actor=_user(request), number=number, base_revision=base
        )
    except StaleRevisionError as exc:
        messages.error(
            request,
            f"Not reverted: the card was saved again (now revision {exc.card.revision}) while "
            "you were reading. Check the newest revision and try again.",
        )
        return redirect("authoring:card_history", code=code, slug=card.slug)
    except CardDocumentError as exc:
        messages.error(request, f"Not reverted: {exc}")
        return redirect("authoring:card_history", code=code, slug=card.slug)
    messages.success(request, f"Reverted to revision {number}: saved as revision {saved.revision}.")
    return redirect("catalog:card_detail", code=code, slug=saved.slug)


@login_required
@require_POST
def card_delete(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    card = _editable_card(request, code, slug)
    services.card_delete(card=card, actor=_user(request))
    messages.success(request, f"{card.name!r} deleted. It stays in your trash.")
    return redirect("catalog:set_detail", code=code)


@login_required
@require_POST
def card_restore(request: HttpRequest, card_id: int) -> HttpResponse:
    card = Card.everything.select_related("card_set").filter(pk=card_id).first()
    # By its id alone: a deleted card of a set the user may not change does not exist for
    # them (a 403 would say it does, and name its set).
    if card is None or card.deleted_at is None or not can_edit_set(_user(request), card.card_set):
        raise Http404("No such deleted card")
    _editable_set(request, card.card_set.code)
    try:
        services.card_restore(card=card, actor=_user(request))
    except CardDocumentError as exc:
        messages.error(request, f"Not restored: {exc}")
        return redirect("authoring:trash")
    messages.success(request, f"{card.name!r} restored.")
    return redirect("catalog:card_detail", code=card.card_set.code, slug=card.slug)
