"""Reads of where a card's facts come from: the players' contributions a curator accepted, as
the card's revisions record them, and a card's provenance with them merged in.

A card's provenance lives in two places. `Card.provenance` is what its set file said (sources,
confidence, uncertain name, and the contributions the file records); the revisions made by
accepting a proposal (`CardRevision.proposed_by` set, `source` "proposal #N") are the
contributions this database has accepted since. `export_set --fixture` writes both, merged, and
`load_catalog` compares a file with the same merge, so an exported file loads back unchanged.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from django.db.models import Q

from catalog.models import CardRevision
from validator.engine import CardProvenance, Contribution, provenance_dump

# What card_write's `source` says for a revision made by accepting proposal N.
PROPOSAL_SOURCE: Final = re.compile(r"^proposal #(\d+)\b")
# A contribution's names must not be empty in a set file; this stands in for an account
# deleted since (the revision's user is then null).
UNKNOWN_USER: Final = "(deleted account)"


def accepted_revisions() -> Q:
    """The revisions that are accepted contributions: a proposer is recorded, or (the
    proposer's account deleted since) the source names the proposal."""
    return Q(proposed_by__isnull=False) | Q(source__startswith="proposal #")


def proposal_number(source: str) -> int | None:
    """The proposal id in a revision's source ("proposal #7" → 7), or None."""
    match = PROPOSAL_SOURCE.match(source)
    return int(match.group(1)) if match else None


def changed_fields(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[str]:
    """The top-level keys of a card document that differ between two revisions, sorted (a
    card's first revision changed every key it has)."""
    if before is None:
        return sorted(after)
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def card_contributions(*, card_ids: Collection[int]) -> dict[int, list[Contribution]]:
    """The accepted contributions of each card, by card id, oldest first: who proposed, who
    accepted and when (UTC date), the proposal's id and the keys it changed. The evidence
    note stays out: on the site only the proposer and the set's curators may read it, and a
    set file is public (the proposal's id leads a curator to it)."""
    if not card_ids:
        return {}
    accepted = list(
        CardRevision.objects.filter(accepted_revisions(), card_id__in=card_ids)
        .select_related("proposed_by", "changed_by")
        .order_by("card_id", "number")
    )
    if not accepted:
        return {}
    previous_numbers = Q()
    for revision in accepted:
        previous_numbers |= Q(card_id=revision.card_id, number=revision.number - 1)
    previous = {
        (card_id, number): document
        for card_id, number, document in CardRevision.objects.filter(previous_numbers).values_list(
            "card_id", "number", "document"
        )
    }
    found: dict[int, list[Contribution]] = {}
    for revision in accepted:
        before = previous.get((revision.card_id, revision.number - 1))
        found.setdefault(revision.card_id, []).append(
            Contribution(
                revision=revision.number,
                proposer=_username(revision.proposed_by),
                curator=_username(revision.changed_by),
                accepted_on=revision.changed_at.astimezone(datetime.UTC).date(),
                proposal=proposal_number(revision.source),
                fields=changed_fields(
                    before if isinstance(before, dict) else None,
                    revision.document if isinstance(revision.document, dict) else {},
                ),
            )
        )
    return found


def _username(user: Any) -> str:
    return str(user.username)[:200] if user is not None else UNKNOWN_USER


def _same(a: Contribution, b: Contribution) -> bool:
    """One contribution recorded twice (in the set file and as a revision). Revision numbers
    alone are not enough: a file exported from another database numbers its own revisions."""
    return (a.revision, a.proposer, a.proposal) == (b.revision, b.proposer, b.proposal)


def provenance_merged(
    provenance: Mapping[str, Any], contributions: Sequence[Contribution]
) -> dict[str, Any]:
    """A card's stored provenance with the contributions of its revisions added, each once,
    ordered by revision number then date: what a set file exported with provenance holds."""
    if not contributions:
        return dict(provenance)
    stored = CardProvenance.model_validate(dict(provenance))
    merged = list(stored.contributions)
    for contribution in contributions:
        if not any(_same(contribution, known) for known in merged):
            merged.append(contribution)
    merged.sort(key=lambda c: (c.revision, c.accepted_on))
    return provenance_dump(stored.model_copy(update={"contributions": merged}))
