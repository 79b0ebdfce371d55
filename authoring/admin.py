from django.contrib import admin

from authoring.models import CardScenario


@admin.register(CardScenario)
class CardScenarioAdmin(admin.ModelAdmin[CardScenario]):
    # Results are written by the runner (authoring.scenarios), never typed in by hand.
    list_display = ("name", "card", "last_status", "last_run_at", "created_by")
    list_filter = ("last_status",)
    search_fields = ("name", "card__name", "card__card_set__code")
    raw_id_fields = ("card", "created_by")
    readonly_fields = (
        "last_status",
        "last_messages",
        "last_values",
        "last_run_at",
        "last_card_revision",
        "created_at",
        "updated_at",
    )
