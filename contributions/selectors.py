"""Reads of proposals, and who may see and review them.

A proposal exists only for its proposer and the curators of its set (staff, or the members
of the set's curator group): for anyone else every read returns None, and the page a 404."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from authoring.selectors import DiffLine, document_diff
from catalog.models import Card, CardSet
from catalog.provenance import changed_fields
from catalog.selectors import Viewer
from contributions.merging import ThreeWay, three_way
from contributions.models import PENDING_STATUSES, Proposal, ProposalStatus
from prints.faces import render_face
from validator.checks import check_card
from validator.engine import CardBase, CardDocumentError, parse_card, render_lines

STATUSES: tuple[str, ...] = tuple(ProposalStatus.values)


def proposable_sets() -> QuerySet[CardSet]:
    """The sets players may propose cards for: the official ones, live and public."""
    return CardSet.objects.filter(official=True, visibility="public")


def curated_sets(*, viewer: Viewer) -> QuerySet[CardSet]:
    """The official sets the viewer reviews proposals for: all of them for staff, those
    whose curator group they belong to otherwise, none for anyone else."""
    if not viewer.is_authenticated or not viewer.is_active:
        return CardSet.objects.none()
    sets = proposable_sets()
    if viewer.is_staff:
        return sets
    return sets.filter(curators__isnull=False, curators__in=viewer.groups.all())


def is_curator(*, viewer: Viewer, card_set: CardSet) -> bool:
    """Whether the viewer reviews the set's proposals."""
    if not viewer.is_authenticated or not viewer.is_active:
        return False
    if viewer.is_staff:
        return bool(card_set.official)
    return (
        bool(card_set.official)
        and card_set.curators_id is not None
        and viewer.groups.filter(pk=card_set.curators_id).exists()
    )


def _visible(viewer: Viewer) -> QuerySet[Proposal]:
    if not viewer.is_authenticated:
        return Proposal.objects.none()
    mine = Q(proposer_id=viewer.pk)
    return Proposal.objects.filter(mine | Q(card_set__in=curated_sets(viewer=viewer)))


def proposal_get(*, proposal_id: int, viewer: Viewer) -> Proposal | None:
    """A proposal its proposer or a curator of its set asks for, else None."""
    return (
        _visible(viewer)
        .select_related("card_set", "card", "proposer", "reviewed_by", "accepted_revision")
        .filter(pk=proposal_id)
        .first()
    )


def proposal_list(
    *, viewer: Viewer, set_code: str | None = None, status: str | None = None
) -> QuerySet[Proposal]:
    """The viewer's own proposals and, for a curator, every proposal of the sets they
    review; newest first. `status` None means any status."""
    proposals = _visible(viewer).select_related("card_set", "card", "proposer")
    if set_code:
        proposals = proposals.filter(card_set__code=set_code)
    if status:
        proposals = proposals.filter(status=status)
    return proposals.order_by("-created_at", "-id")


def review_queue(
    *, viewer: Viewer, set_code: str | None = None, status: str | None = ProposalStatus.OPEN
) -> QuerySet[Proposal]:
    """The proposals a curator works through: of the sets they review only, oldest first."""
    proposals = Proposal.objects.filter(card_set__in=curated_sets(viewer=viewer))
    if set_code:
        proposals = proposals.filter(card_set__code=set_code)
    if status:
        proposals = proposals.filter(status=status)
    return proposals.select_related("card_set", "card", "proposer").order_by("created_at", "id")


def user_proposals(*, user: Viewer) -> QuerySet[Proposal]:
    """A user's own proposals, newest first (for their profile)."""
    if not user.is_authenticated:
        return Proposal.objects.none()
    return (
        Proposal.objects.filter(proposer_id=user.pk)
        .select_related("card_set", "card")
        .order_by("-created_at", "-id")
    )


def duplicates(*, proposal: Proposal) -> list[Proposal]:
    """Other pending proposals of a new card of the same name in the same set."""
    if not proposal.is_new_card:
        return []
    return list(
        Proposal.objects.filter(
            card_set_id=proposal.card_set_id,
            card__isnull=True,
            name__iexact=proposal.name,
            status__in=PENDING_STATUSES,
        )
        .exclude(pk=proposal.pk)
        .order_by("created_at", "id")
    )


def existing_card(*, proposal: Proposal) -> Card | None:
    """For a new card, a live card of the set that now has its name (accepting would fail)."""
    if not proposal.is_new_card:
        return None
    return Card.objects.filter(card_set_id=proposal.card_set_id, name__iexact=proposal.name).first()


@dataclass(frozen=True)
class ProposalReview:
    """What the proposal page and the review show: the difference against the card, the
    three-way difference when the card has moved on, the validator's report, the rules
    text of the proposed document (its face: proposal_face), and the flags a curator should
    see."""

    proposal: Proposal
    current: dict[str, Any] | None
    diff: list[DiffLine]
    changed_fields: list[str]
    stale: bool
    three_way: ThreeWay | None
    status: str
    messages: list[str]
    text: list[str]
    # The proposed card as the engine reads it (None: stored by an older language version).
    typed: CardBase | None
    duplicates: list[Proposal] = field(default_factory=list)
    existing: Card | None = None


def proposal_face(*, proposal: Proposal) -> bytes | None:
    """The face of the proposed document (PNG), or None when the engine cannot read it.
    Apart from the review: the page links the face, so it is drawn once, when fetched."""
    try:
        typed = parse_card(proposal.document)
    except CardDocumentError:
        return None
    return render_face(typed, proposal.card_set.code).png


def proposal_review(*, proposal: Proposal) -> ProposalReview:
    """Everything a proposer or curator reviews of one proposal (nothing is written)."""
    card = proposal.card
    current = card.document if card is not None else None
    base = proposal.base_document if proposal.base_document is not None else current
    stale = proposal.is_stale
    merge = (
        three_way(base, current, proposal.document)
        if stale and base is not None and current is not None
        else None
    )
    status, messages, text = "", [], []
    typed: CardBase | None = None
    try:
        typed = parse_card(proposal.document)
    except CardDocumentError as exc:  # a document stored by an older language version
        status, messages = "error", [str(e) for e in exc.errors]
    else:
        report = check_card(typed, proposal.card_set.code)
        status, messages = report.status, list(report.messages)
        text = render_lines(typed)
    return ProposalReview(
        proposal=proposal,
        current=current,
        # What the proposal changes: against the revision it was made from (the card as it
        # is now, unless the card has moved on; the three-way table then shows both).
        diff=document_diff(base, proposal.document),
        changed_fields=changed_fields(base, proposal.document),
        stale=stale,
        three_way=merge,
        status=status,
        messages=messages,
        text=text,
        typed=typed,
        duplicates=duplicates(proposal=proposal),
        existing=existing_card(proposal=proposal),
    )
