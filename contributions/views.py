"""Proposal pages: proposing a card or a change to one of an official set, the proposal page
with its review, the proposer's list and the curators' queue.

Every proposal is fetched with selectors.proposal_get first, so anyone but its proposer and
the set's curators gets a 404 before a service is called; the services then refuse what the
viewer may not do (403) or what the proposal's state forbids (409)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.limits import TooManyRequests, identities
from authoring.controls import controls_data, controls_version
from authoring.editor import (
    NEW_CARD_YAML,
    STAT_FIELDS,
    EditorError,
    Merged,
    locate,
    merge_document,
    split_document,
)
from authoring.previews import counted_preview
from catalog.models import MAX_ROW_ID, Card, CardSet
from catalog.selectors import field_label
from contributions import selectors, services
from contributions.forms import ProposalForm, QueueFilterForm, ReviewNoteForm
from contributions.merging import ABSENT, FieldRow
from contributions.models import Proposal, ProposalStatus
from validator.engine import CardBase, CardDocumentError, parse_card, whole_number

# Live previews a minute per user and per address: one per pause in typing, as the editor.


def _proposable_set(code: str) -> CardSet:
    """An official public set; any other code (a custom or private set) is a 404: proposals
    exist only for the official sets, and a custom set is changed in its owner's editor."""
    card_set = selectors.proposable_sets().filter(code=code).first()
    if card_set is None:
        raise Http404(f"No official set with code {code!r} takes proposals")
    return card_set


def _proposable_card(code: str, slug: str) -> Card:
    card = Card.objects.filter(card_set=_proposable_set(code), slug=slug).first()
    if card is None:
        raise Http404("No such card")
    return card


def _proposal(request: HttpRequest, pk: int) -> Proposal:
    proposal = selectors.proposal_get(proposal_id=pk, viewer=request.user)
    if proposal is None:
        raise Http404("No such proposal")
    return proposal


def _kind_stats(kind: object, document: dict[str, Any]) -> set[str]:
    """The stats (form fields) of `kind` that the document has a key for."""
    return {
        stat.name
        for stat in STAT_FIELDS
        if stat.type != "bool" and kind in stat.kinds and stat.name in document
    }


def _initial(document: dict[str, Any]) -> dict[str, Any]:
    # Unlike the editor, a stat not known yet is a blank field, not `null` in the YAML: a
    # player completing the card fills the field (the editor would refuse it set twice).
    unknown = {n for n in _kind_stats(document.get("kind"), document) if document[n] is None}
    values, text = split_document({k: v for k, v in document.items() if k not in unknown})
    return {**values, "deck": values.get("deck") or "", "document_yaml": text}


def _typed(form: ProposalForm, base: dict[str, Any] | None) -> tuple[CardBase | None, Merged]:
    """The proposed card from the form (as the editor's typed_card). A stat of the kind left
    blank stays unknown (null) when the card had it, so an untouched field changes nothing."""
    values = form.values()
    merged = merge_document(values, form.cleaned_data["document_yaml"])
    if merged.document is None:
        return None, merged
    if base is not None:
        for name in _kind_stats(values.get("kind"), base) - merged.document.keys():
            merged.document[name] = None
    try:
        return parse_card(merged.document), merged
    except CardDocumentError as exc:
        merged.errors = [locate(e, values, merged.lines) for e in exc.errors]
        return None, merged


def _form_context(
    request: HttpRequest,
    form: ProposalForm,
    card_set: CardSet,
    *,
    card: Card | None = None,
    proposal: Proposal | None = None,
    errors: list[EditorError] | None = None,
    fresh: bool = False,
) -> dict[str, Any]:
    kind = form["kind"].value()
    return {
        "form": form,
        "card_set": card_set,
        "card": card,
        "proposal": proposal,
        "errors": errors or [],
        "stat_names": [s.name for s in STAT_FIELDS],
        # Rows of other kinds start hidden, so the page is right before (or without) scripts.
        "shown_stats": {s.name for s in STAT_FIELDS if kind in s.kinds},
        "preview_url": reverse("contributions:propose_preview", args=[card_set.code]),
        # The effects built with the card editor's controls, as in the editor.
        "controls_url": f"{reverse('authoring:card_controls')}?v={controls_version()}",
        "controls_data": controls_data(str(form["document_yaml"].value() or "")),
        "fresh": fresh,
    }


def _too_many(response: HttpResponse, exc: TooManyRequests) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(exc.retry_after)
    return response


def _save(
    request: HttpRequest,
    card_set: CardSet,
    *,
    card: Card | None = None,
    proposal: Proposal | None = None,
) -> HttpResponse:
    """Submit the propose form: a new proposal, or the proposer's new version of one. Errors
    land like the editor's (on their field or YAML line) and nothing is stored."""
    form = ProposalForm(request.POST, request.FILES)
    errors: list[EditorError] = []
    if form.is_valid():
        values = form.values()
        base = proposal.base_document if proposal is not None else None
        typed, merged = _typed(form, card.document if card is not None and base is None else base)
        errors = merged.errors
        if typed is not None and merged.document is not None:
            try:
                saved = _write(request, form, card_set, card, proposal, merged.document)
            except CardDocumentError as exc:
                errors = [locate(e, values, merged.lines) for e in exc.errors]
            except services.ProposalInvalid as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            except services.ProposalClosed as exc:
                messages.error(request, f"Not changed: {exc}")
                assert proposal is not None
                return redirect("contributions:proposal_detail", pk=proposal.pk)
            except TooManyRequests as exc:
                form.add_error(None, exc.message)
                context = _form_context(request, form, card_set, card=card, proposal=proposal)
                page = render(request, "contributions/propose.html", context)
                return _too_many(page, exc)
            else:
                verb = "updated" if proposal is not None else "sent"
                messages.success(
                    request,
                    f"Proposal #{saved.pk} ({saved.name}) {verb}: the set's curators will "
                    "review it. You can follow it here and on your profile.",
                )
                return redirect("contributions:proposal_detail", pk=saved.pk)
    for error in errors:
        if error.field in form.fields:
            form.add_error(error.field, error.message)
    context = _form_context(
        request,
        form,
        card_set,
        card=card,
        proposal=proposal,
        errors=[e for e in errors if not e.field or e.field not in form.fields],
    )
    return render(request, "contributions/propose.html", context, status=400)


def _write(
    request: HttpRequest,
    form: ProposalForm,
    card_set: CardSet,
    card: Card | None,
    proposal: Proposal | None,
    document: dict[str, Any],
) -> Proposal:
    photo = form.cleaned_data.get("photo") or None
    base = form.cleaned_data.get("base_revision")
    if proposal is not None:
        return services.proposal_update(
            proposal=proposal,
            actor=request.user,
            document=document,
            evidence=form.cleaned_data["evidence"],
            base_revision=base,
            photo=photo,
        )
    return services.proposal_create(
        proposer=request.user,
        card_set=card_set,
        document=document,
        evidence=form.cleaned_data["evidence"],
        card=card,
        base_revision=base if card is not None else None,
        photo=photo,
        idents=identities(request),
    )


@login_required
def propose_new(request: HttpRequest, code: str) -> HttpResponse:
    """Propose a card the set is missing."""
    card_set = _proposable_set(code)
    if request.method == "POST":
        return _save(request, card_set)
    form = ProposalForm(initial={"kind": "monster", "deck": "door", "document_yaml": NEW_CARD_YAML})
    return render(
        request, "contributions/propose.html", _form_context(request, form, card_set, fresh=True)
    )


@login_required
def propose_change(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    """Propose a change to a card: the editor opened on its current document."""
    card = _proposable_card(code, slug)
    if request.method == "POST":
        return _save(request, card.card_set, card=card)
    form = ProposalForm(initial={**_initial(card.document), "base_revision": card.revision})
    return render(
        request,
        "contributions/propose.html",
        _form_context(request, form, card.card_set, card=card),
    )


@login_required
def proposal_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The proposer's new version of a pending proposal: the form filled with it."""
    proposal = _proposal(request, pk)
    if proposal.proposer_id != request.user.pk:
        raise PermissionDenied("only the proposer changes a proposal")
    if not proposal.is_pending:
        messages.error(
            request,
            f"Proposal #{proposal.pk} is {proposal.get_status_display().lower()}: "
            "it can no longer change.",
        )
        return redirect("contributions:proposal_detail", pk=proposal.pk)
    if request.method == "POST":
        return _save(request, proposal.card_set, card=proposal.card, proposal=proposal)
    initial = {
        **_initial(proposal.document),
        "evidence": proposal.evidence,
        "base_revision": proposal.base_revision,
    }
    form = ProposalForm(initial=initial)
    context = _form_context(request, form, proposal.card_set, card=proposal.card, proposal=proposal)
    return render(request, "contributions/propose.html", context)


@login_required
@require_POST
def propose_preview(request: HttpRequest, code: str) -> JsonResponse:
    """The propose form's live preview (the editor's, for a set the user cannot edit):
    errors on their field or line, else the rules text, the face and the validator's
    report. Nothing is stored. Counted per user and address like the other previews."""
    card_set = _proposable_set(code)
    form = ProposalForm(request.POST)
    form.fields["evidence"].required = False  # the preview shows the card, not the evidence
    return counted_preview(request, form, set_code=card_set.code, scope="proposal-preview")


def _shown(value: Any) -> str:
    """A top-level value of a card document, in a table cell."""
    if value is ABSENT:
        return "(not set)"
    if value is None:
        return "unknown"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _rows(rows: list[FieldRow]) -> list[dict[str, Any]]:
    return [
        {
            "key": row.key,
            "label": field_label(row.key),
            "base": _shown(row.base),
            "current": _shown(row.current),
            "proposed": _shown(row.proposed),
            "conflict": row.conflict,
            "card_changed": row.card_changed,
            "proposal_changes": row.proposal_changes,
        }
        for row in rows
    ]


def _detail(
    request: HttpRequest,
    proposal: Proposal,
    *,
    status: int = 200,
    refusal: str = "",
    note_form: ReviewNoteForm | None = None,
    note_action: str = "",
    conflicts: list[FieldRow] | None = None,
) -> HttpResponse:
    review = selectors.proposal_review(proposal=proposal)
    curator = selectors.is_curator(viewer=request.user, card_set=proposal.card_set)
    context = {
        "proposal": proposal,
        "review": review,
        # A curator's own proposal goes to another curator (services refuse it too).
        "is_curator": curator and proposal.proposer_id != request.user.pk,
        "own_as_curator": curator and proposal.proposer_id == request.user.pk,
        "is_proposer": proposal.proposer_id == request.user.pk,
        "refusal": refusal,
        "note_form": note_form,
        "note_action": note_action,
        "conflicts": _rows(conflicts or []),
        "three_way_rows": _rows(review.three_way.changed_rows) if review.three_way else [],
        "proposed_values": [
            (field_label(key), _shown(proposal.document.get(key, ABSENT)))
            for key in review.changed_fields
        ],
        "reviewed_revision": proposal.card.revision if proposal.card is not None else None,
    }
    return render(request, "contributions/proposal_detail.html", context, status=status)


@login_required
def proposal_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The proposal, its evidence, its difference and its review (proposer and curators)."""
    return _detail(request, _proposal(request, pk))


@login_required
@require_POST
def proposal_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = _proposal(request, pk)
    try:
        services.proposal_withdraw(proposal=proposal, actor=request.user)
    except services.ProposalClosed as exc:
        return _detail(request, proposal, status=409, refusal=f"Not withdrawn: {exc}.")
    messages.success(request, f"Proposal #{proposal.pk} withdrawn.")
    return redirect("contributions:proposal_detail", pk=proposal.pk)


@login_required
@require_POST
def proposal_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept, with the card's revision the curator's page showed: a card saved since then
    gets the page again (409) with the newest difference, for a fresh look."""
    proposal = _proposal(request, pk)
    raw = request.POST.get("reviewed_revision", "")
    reviewed = whole_number(raw, low=1, high=MAX_ROW_ID) if raw else None
    if raw and reviewed is None:
        return HttpResponseBadRequest(
            f"reviewed_revision must be a whole number from 1 to {MAX_ROW_ID:,}",
            content_type="text/plain",
        )
    try:
        accepted = services.proposal_accept(
            proposal=proposal, curator=request.user, reviewed_revision=reviewed
        )
    except services.ProposalStale as exc:
        fresh = _proposal(request, pk)
        return _detail(
            request,
            fresh,
            status=409,
            refusal=(
                f"Not accepted: the card changed since you looked (it is now at revision "
                f"{exc.current_revision}). Review the difference below and accept again."
            ),
        )
    except services.ProposalConflict as exc:
        return _detail(
            request, proposal, status=409, refusal=f"Not accepted: {exc}.", conflicts=exc.conflicts
        )
    except services.ProposalClosed as exc:
        return _detail(request, proposal, status=409, refusal=f"Not accepted: {exc}.")
    assert accepted.accepted_revision is not None
    messages.success(
        request,
        f"Accepted: {accepted.name} is now at revision {accepted.accepted_revision.number}.",
    )
    return redirect("contributions:proposal_detail", pk=proposal.pk)


def _note_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    proposal = _proposal(request, pk)
    form = ReviewNoteForm(request.POST)
    if not form.is_valid():
        return _detail(request, proposal, status=400, note_form=form, note_action=action)
    note = form.cleaned_data["note"]
    try:
        if action == "reject":
            services.proposal_reject(proposal=proposal, curator=request.user, reason=note)
            done = "rejected"
        else:
            services.proposal_request_changes(proposal=proposal, curator=request.user, message=note)
            done = "sent back to its proposer for changes"
    except services.ProposalInvalid as exc:
        form.add_error("note", exc.message)
        return _detail(request, proposal, status=400, note_form=form, note_action=action)
    except services.ProposalClosed as exc:
        return _detail(request, proposal, status=409, refusal=f"Not changed: {exc}.")
    messages.success(request, f"Proposal #{proposal.pk} {done}.")
    return redirect("contributions:proposal_detail", pk=proposal.pk)


@login_required
@require_POST
def proposal_reject(request: HttpRequest, pk: int) -> HttpResponse:
    return _note_action(request, pk, "reject")


@login_required
@require_POST
def proposal_request_changes(request: HttpRequest, pk: int) -> HttpResponse:
    return _note_action(request, pk, "changes")


@login_required
def proposal_photo(request: HttpRequest, pk: int) -> FileResponse:
    """The evidence photo, for the proposer and the set's curators only (never cached by
    anyone in between; stored without its metadata)."""
    proposal = _proposal(request, pk)
    if not proposal.photo:
        raise Http404("This proposal has no photo")
    name = proposal.photo.name or ""
    kind = "image/png" if name.endswith(".png") else "image/jpeg"
    response = FileResponse(proposal.photo.open("rb"), content_type=kind)
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
def proposal_face(request: HttpRequest, pk: int) -> HttpResponse:
    """The face of the proposed document, drawn as the card page draws faces."""
    face = selectors.proposal_face(proposal=_proposal(request, pk))
    if face is None:
        raise Http404("The proposed document cannot be drawn")
    response = HttpResponse(face, content_type="image/png")
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def proposal_list(request: HttpRequest) -> HttpResponse:
    """The signed-in user's own proposals and their status."""
    proposals = selectors.user_proposals(user=request.user)
    waiting = (
        selectors.review_queue(viewer=request.user).count()
        if selectors.curated_sets(viewer=request.user).exists()
        else None
    )
    return render(
        request, "contributions/proposal_list.html", {"proposals": proposals, "waiting": waiting}
    )


@login_required
def review_queue(request: HttpRequest) -> HttpResponse:
    """The curators' queue: the proposals of the sets they review, by set and status
    (waiting for review unless asked otherwise), oldest first. Not a curator: 403."""
    sets = list(selectors.curated_sets(viewer=request.user).order_by("name"))
    if not sets:
        raise PermissionDenied("you do not review proposals for any set")
    form = QueueFilterForm(
        request.GET or None,
        sets=[(s.code, s.name) for s in sets],
        statuses=list(ProposalStatus.choices),
        initial={"status": ProposalStatus.OPEN},
    )
    set_code: str | None = None
    status: str | None = ProposalStatus.OPEN
    if request.GET:
        if not form.is_valid():
            context = {"form": form, "rows": [], "sets": sets}
            return render(request, "contributions/review_queue.html", context, status=400)
        set_code = form.cleaned_data["set"] or None
        chosen = form.cleaned_data["status"]
        status = None if chosen in ("", "all") else chosen
    proposals = list(selectors.review_queue(viewer=request.user, set_code=set_code, status=status))
    rows = [
        {
            "proposal": p,
            "stale": p.is_stale,
            "duplicates": selectors.duplicates(proposal=p),
            "existing": selectors.existing_card(proposal=p),
        }
        for p in proposals
    ]
    return render(
        request,
        "contributions/review_queue.html",
        {"form": form, "rows": rows, "sets": sets, "status": status},
    )
