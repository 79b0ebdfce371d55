"""The "Your proposals" section of a user's own profile (catalog.profile_sections)."""

from __future__ import annotations

from django.contrib.auth.models import User

from catalog.profile_sections import ProfileSection
from catalog.selectors import Viewer
from contributions.selectors import curated_sets, review_queue, user_proposals

# The newest proposals listed on the profile; the whole list is on /proposals/.
PROFILE_PROPOSALS = 10


def proposals_section(*, owner: User, viewer: Viewer) -> ProfileSection | None:
    """The owner's proposals and, for a curator, the queue's waiting count: shown to the
    owner only (proposals are private to their proposer and the curators)."""
    if not viewer.is_authenticated or viewer.pk != owner.pk:
        return None
    proposals = list(user_proposals(user=owner)[: PROFILE_PROPOSALS + 1])
    waiting = review_queue(viewer=owner).count() if curated_sets(viewer=owner).exists() else None
    if not proposals and waiting is None:
        return None
    return ProfileSection(
        title="Your proposals",
        template="contributions/_profile_section.html",
        context={
            "proposals": proposals[:PROFILE_PROPOSALS],
            "more": len(proposals) > PROFILE_PROPOSALS,
            "waiting": waiting,
        },
    )
