from django.contrib import admin

from catalog.models import Card, CardRevision, CardSet


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin[CardSet]):
    list_display = ("code", "name", "official", "cards_in_box", "year", "curators")
    search_fields = ("code", "name")
    # The sources come from the set file (load_catalog); curators are chosen here.
    readonly_fields = ("sources",)


class CardRevisionInline(admin.TabularInline[CardRevision, Card]):
    model = CardRevision
    extra = 0
    readonly_fields = (
        "document_hash",
        "changed_by",
        "changed_at",
        "source",
        "proposed_by",
        "evidence",
        "document",
    )
    can_delete = False


@admin.register(Card)
class CardAdmin(admin.ModelAdmin[Card]):
    # Cards are edited through their typed document (load_catalog, and the authoring pages),
    # so the admin shows them read-only rather than letting columns drift from the document.
    list_display = ("name", "card_set", "deck", "kind", "level", "bonus", "gold", "encoding")
    list_filter = ("card_set", "deck", "kind", "encoding", "big")
    search_fields = ("name",)
    readonly_fields = [f.name for f in Card._meta.fields]
    inlines = [CardRevisionInline]

    def has_add_permission(self, request: object) -> bool:
        return False
