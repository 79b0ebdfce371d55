"""Writes of proposals: made and edited by their proposer, decided by a curator.

Every refusal raises before anything is written: ProposalInvalid (bad input: 400),
PermissionDenied (not theirs to do: 403), ProposalClosed, ProposalStale and
ProposalConflict (the proposal or the card is not in a state to do it: 409), and
accounts.limits.TooManyRequests (429)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from accounts.limits import rate_limit
from catalog.models import Card, CardRevision, CardSet
from catalog.services import card_slug, card_validate, card_write
from contributions.merging import FieldRow, three_way
from contributions.models import PENDING_STATUSES, Proposal, ProposalStatus
from contributions.photos import PhotoError, evidence_photo
from contributions.selectors import is_curator, proposable_sets
from validator.engine import CardBase, CardDocumentError, DocumentError, dump_card, parse_card

Actor = User | AnonymousUser

MAX_EVIDENCE_CHARS = 2000
MAX_NOTE_CHARS = 2000
# Proposals one user may have waiting at once, and make per hour (any set).
MAX_PENDING_PER_USER = 100
PROPOSALS_PER_HOUR = 30


class ProposalInvalid(Exception):
    """The input cannot make a proposal; `field` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class ProposalClosed(Exception):
    """The proposal has been decided or withdrawn: it cannot change any more."""


class ProposalStale(Exception):
    """The card has been saved since the proposal's base revision (or since the review):
    the curator must review the three-way difference against `current_revision` first."""

    def __init__(self, proposal: Proposal, current_revision: int) -> None:
        super().__init__(
            f"{proposal.name!r} is at revision {current_revision}; the proposal was made "
            f"against revision {proposal.base_revision}. Review the three-way difference "
            f"and accept with reviewed_revision {current_revision}."
        )
        self.proposal = proposal
        self.current_revision = current_revision


class ProposalConflict(Exception):
    """The proposal and a newer revision changed the same fields differently; nothing was
    written. The proposer can update the proposal, or the curator ask for changes."""

    def __init__(self, message: str, conflicts: Sequence[FieldRow] = ()) -> None:
        super().__init__(message)
        self.conflicts = list(conflicts)


def _user(actor: Actor) -> User:
    if not isinstance(actor, User) or not actor.is_authenticated or not actor.is_active:
        raise PermissionDenied("sign in to propose cards")
    return actor


def _reviewer(actor: Actor, proposal: Proposal) -> User:
    """A curator of the proposal's set other than its proposer: nothing is accepted without
    a second pair of eyes, so a curator's own proposals go to another curator (or staff)."""
    user = _user(actor)
    if not is_curator(viewer=user, card_set=proposal.card_set):
        raise PermissionDenied(f"you do not review proposals for {proposal.card_set.name}")
    if proposal.proposer_id == user.pk:
        raise PermissionDenied("another curator reviews your own proposal")
    return user


def _evidence(text: str) -> str:
    evidence = (text or "").strip()
    if not evidence:
        raise ProposalInvalid(
            "evidence", "say where the facts come from (your copy of the card, a rulebook page…)"
        )
    if len(evidence) > MAX_EVIDENCE_CHARS:
        raise ProposalInvalid(
            "evidence", f"at most {MAX_EVIDENCE_CHARS} characters ({len(evidence)} given)"
        )
    return evidence


def _note(text: str, field: str) -> str:
    note = (text or "").strip()
    if not note:
        raise ProposalInvalid(field, "say why, for the proposer")
    if len(note) > MAX_NOTE_CHARS:
        raise ProposalInvalid(field, f"at most {MAX_NOTE_CHARS} characters ({len(note)} given)")
    return note


def _typed(document: Any) -> CardBase:
    if not isinstance(document, dict):
        raise CardDocumentError([DocumentError("", "a card document is a mapping of keys")])
    return parse_card(document)


def _check_set(card_set: CardSet) -> None:
    if not proposable_sets().filter(pk=card_set.pk).exists():
        raise ProposalInvalid(
            "set", "proposals are for the official sets; edit your own sets in the editor"
        )


def _check_name(card_set: CardSet, typed: CardBase, card: Card | None) -> None:
    others = Card.objects.filter(card_set=card_set)
    if card is not None:
        others = others.exclude(pk=card.pk)
    same = (
        others.filter(name__iexact=typed.name).first()
        or others.filter(slug=card_slug(typed.name)).first()
    )
    if same is not None:
        hint = " propose a change to it instead" if card is None else " choose another name"
        raise ProposalInvalid("name", f"the set already has {same.name!r};{hint}")


def _base(card: Card, base_revision: int | None) -> tuple[int, dict[str, Any]]:
    number = card.revision if base_revision is None else base_revision
    revision = CardRevision.objects.filter(card=card, number=number).first()
    if revision is None:
        raise ProposalInvalid(
            "base_revision", f"{card.name!r} has no revision {number} (it is at {card.revision})"
        )
    return number, revision.document


def _photo(upload: UploadedFile[bytes] | None) -> Any:
    if upload is None:
        return None
    try:
        return evidence_photo(upload)
    except PhotoError as exc:
        raise ProposalInvalid("photo", str(exc)) from exc


def proposal_create(
    *,
    proposer: Actor,
    card_set: CardSet,
    document: Any,
    evidence: str,
    card: Card | None = None,
    base_revision: int | None = None,
    photo: UploadedFile[bytes] | None = None,
    idents: Sequence[str] = (),
) -> Proposal:
    """Propose a new card for an official set (`card` None) or a change to one of its cards,
    made against `base_revision` (default: the card's current revision). The document is
    parsed by the engine (CardDocumentError lists every error with its path) and stored as
    the engine dumps it; the photo is re-encoded without its metadata. `idents` (the
    request's user and address) are counted against the hourly limit."""
    user = _user(proposer)
    _check_set(card_set)
    if card is not None and card.card_set_id != card_set.pk:
        raise ProposalInvalid("card", f"{card.name!r} is not a card of {card_set.name}")
    typed = _typed(document)
    clean_evidence = _evidence(evidence)
    _check_name(card_set, typed, card)
    dumped = dump_card(typed)
    base_number: int | None = None
    base_document: dict[str, Any] | None = None
    if card is not None:
        base_number, base_document = _base(card, base_revision)
        if base_document == dumped:
            raise ProposalInvalid("document", "the proposal changes nothing on the card")
    elif base_revision is not None:
        raise ProposalInvalid("base_revision", "a new card has no base revision")
    pending = Proposal.objects.filter(proposer=user, status__in=PENDING_STATUSES).count()
    if pending >= MAX_PENDING_PER_USER:
        raise ProposalInvalid(
            "proposal",
            f"you have {pending} proposals waiting; withdraw some or wait for reviews",
        )
    clean_photo = _photo(photo)
    rate_limit(
        scope="proposal",
        # dict.fromkeys: the request's idents already hold the user; counted once, not twice.
        idents=list(dict.fromkeys([*idents, f"user:{user.pk}"])),
        limit=PROPOSALS_PER_HOUR,
        per="hour",
        what="proposals",
    )
    proposal = Proposal(
        card_set=card_set,
        card=card,
        name=typed.name,
        document=dumped,
        base_revision=base_number,
        base_document=base_document,
        evidence=clean_evidence,
        proposer=user,
    )
    with transaction.atomic():
        if clean_photo is not None:
            proposal.photo.save(clean_photo.name or "photo.jpg", clean_photo, save=False)
        proposal.save()
    return proposal


def _pending_of(proposal: Proposal, *, lock: bool = True) -> Proposal:
    query = Proposal.objects.select_related("card_set", "card", "proposer")
    if lock:
        query = query.select_for_update(of=("self",))
    fresh = query.get(pk=proposal.pk)
    if fresh.status not in PENDING_STATUSES:
        raise ProposalClosed(f"proposal #{fresh.pk} is {fresh.get_status_display().lower()}")
    return fresh


def proposal_update(
    *,
    proposal: Proposal,
    actor: Actor,
    document: Any,
    evidence: str,
    base_revision: int | None = None,
    photo: UploadedFile[bytes] | None = None,
) -> Proposal:
    """The proposer's new version of a pending proposal (after changes were asked for, or
    to rebase it on the card's newest revision): it is waiting for review again."""
    user = _user(actor)
    if proposal.proposer_id != user.pk:
        raise PermissionDenied("only the proposer changes a proposal")
    typed = _typed(document)
    clean_evidence = _evidence(evidence)
    clean_photo = _photo(photo)
    with transaction.atomic():
        fresh = _pending_of(proposal)
        _check_name(fresh.card_set, typed, fresh.card)
        dumped = dump_card(typed)
        if fresh.card is not None:
            number, base_document = _base(fresh.card, base_revision or fresh.base_revision)
            if base_document == dumped:
                raise ProposalInvalid("document", "the proposal changes nothing on the card")
            fresh.base_revision, fresh.base_document = number, base_document
        fresh.name = typed.name
        fresh.document = dumped
        fresh.evidence = clean_evidence
        fresh.status = ProposalStatus.OPEN
        if clean_photo is not None:
            if fresh.photo:
                fresh.photo.delete(save=False)
            fresh.photo.save(clean_photo.name or "photo.jpg", clean_photo, save=False)
        fresh.save()
    return fresh


def proposal_withdraw(*, proposal: Proposal, actor: Actor) -> Proposal:
    """The proposer takes back a pending proposal (its photo is deleted)."""
    user = _user(actor)
    if proposal.proposer_id != user.pk:
        raise PermissionDenied("only the proposer withdraws a proposal")
    with transaction.atomic():
        fresh = _pending_of(proposal)
        fresh.status = ProposalStatus.WITHDRAWN
        if fresh.photo:
            fresh.photo.delete(save=False)
        fresh.save()
    return fresh


def _decide(proposal: Proposal, curator: User, status: ProposalStatus, note: str = "") -> Proposal:
    proposal.status = status
    proposal.reviewed_by = curator
    proposal.reviewed_at = timezone.now()
    proposal.review_note = note
    proposal.save()
    return proposal


def proposal_reject(*, proposal: Proposal, curator: Actor, reason: str) -> Proposal:
    """Turn a pending proposal down, saying why (the proposer sees the reason)."""
    user = _reviewer(curator, proposal)
    text = _note(reason, "reason")
    with transaction.atomic():
        return _decide(_pending_of(proposal), user, ProposalStatus.REJECTED, text)


def proposal_request_changes(*, proposal: Proposal, curator: Actor, message: str) -> Proposal:
    """Ask the proposer to change a pending proposal; it waits for their new version."""
    user = _reviewer(curator, proposal)
    text = _note(message, "message")
    with transaction.atomic():
        fresh = _pending_of(proposal)
        if fresh.status != ProposalStatus.OPEN:
            raise ProposalClosed(f"proposal #{fresh.pk} is already waiting for changes")
        return _decide(fresh, user, ProposalStatus.CHANGES_REQUESTED, text)


def proposal_accept(
    *, proposal: Proposal, curator: Actor, reviewed_revision: int | None = None
) -> Proposal:
    """Make an open proposal the card's newest revision, recording the proposer, the
    curator (the revision's author) and the evidence.

    A proposal whose card has been saved since its base revision is stale: it is accepted
    only with `reviewed_revision` equal to the card's current revision (the curator has
    reviewed the three-way difference against it), and then only what the proposal changed
    is applied to the current document; a field both changed differently is a
    ProposalConflict and nothing is written. A newer revision is never overwritten."""
    user = _reviewer(curator, proposal)
    with transaction.atomic():
        fresh = _pending_of(proposal)
        if fresh.status != ProposalStatus.OPEN:
            raise ProposalClosed(
                f"proposal #{fresh.pk} is waiting for the proposer's changes, not for review"
            )
        source = f"proposal #{fresh.pk}"
        if fresh.card_id is None:
            row = _accept_new(fresh, user, source)
        else:
            row = _accept_change(fresh, user, source, reviewed_revision)
        fresh.accepted_revision = CardRevision.objects.get(card=row, number=row.revision)
        _decide(fresh, user, ProposalStatus.ACCEPTED)
    card_validate(row)
    return fresh


def _accept_new(proposal: Proposal, curator: User, source: str) -> Card:
    typed = _typed(proposal.document)
    existing = Card.objects.filter(card_set=proposal.card_set, name__iexact=typed.name).first()
    if existing is not None or (
        Card.objects.filter(card_set=proposal.card_set, slug=card_slug(typed.name)).exists()
    ):
        raise ProposalConflict(
            f"the set now has a card named {typed.name!r}: this proposal duplicates it; "
            "reject it, or ask the proposer to propose a change to that card"
        )
    return card_write(
        card_set=proposal.card_set,
        typed=typed,
        actor=curator,
        source=source,
        proposed_by=proposal.proposer,
        evidence=proposal.evidence,
    )


def _accept_change(
    proposal: Proposal, curator: User, source: str, reviewed_revision: int | None
) -> Card:
    assert proposal.card_id is not None
    card = Card.objects.select_for_update().filter(pk=proposal.card_id).first()
    if card is None:
        raise ProposalConflict(f"{proposal.name!r} has been deleted from the set")
    if reviewed_revision is not None and reviewed_revision != card.revision:
        raise ProposalStale(proposal, card.revision)
    document = proposal.document
    if card.revision != proposal.base_revision:
        if reviewed_revision is None:
            raise ProposalStale(proposal, card.revision)
        base = proposal.base_document or {}
        merge = three_way(base, card.document, proposal.document)
        if merge.merged is None:
            keys = ", ".join(row.key for row in merge.conflicts)
            raise ProposalConflict(
                f"revision {card.revision} changed {keys} differently from the proposal; "
                "ask the proposer to update it",
                merge.conflicts,
            )
        document = merge.merged
    try:
        typed = _typed(document)
    except CardDocumentError as exc:
        raise ProposalConflict(
            "the proposal applied to the current revision does not parse: "
            + "; ".join(str(e) for e in exc.errors)
        ) from exc
    _check_name(card.card_set, typed, card)
    return card_write(
        row=card,
        card_set=card.card_set,
        typed=typed,
        actor=curator,
        source=source,
        base_revision=card.revision,
        proposed_by=proposal.proposer,
        evidence=proposal.evidence,
    )
