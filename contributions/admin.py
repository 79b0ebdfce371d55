from django.contrib import admin
from django.http import HttpRequest

from contributions.models import Proposal


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin[Proposal]):
    """Read-only: proposals move only through the review services (accept, reject, ask for
    changes), which keep the card's revisions and provenance straight."""

    list_display = ["id", "name", "card_set", "proposer", "status", "created_at"]
    list_filter = ["status", "card_set"]
    search_fields = ["name", "proposer__username"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Proposal | None = None) -> bool:
        return False
