"""Output shapes of the read API (input shapes come with the write endpoints)."""

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from catalog.models import Card, CardSet


class CardSetOutput(serializers.ModelSerializer[CardSet]):
    object = serializers.SerializerMethodField()
    cards = serializers.IntegerField(source="card_count", read_only=True)
    copies = serializers.IntegerField(source="copy_count", read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = CardSet
        fields = [
            "object",
            "code",
            "name",
            "official",
            "year",
            "cards_in_box",
            "cards",
            "copies",
            "description",
            "url",
        ]

    def get_object(self, obj: CardSet) -> str:
        return "set"

    def get_url(self, obj: CardSet) -> str:
        return str(
            self.context["request"].build_absolute_uri(
                reverse("catalog:set_detail", args=[obj.code])
            )
        )


class CardOutput(serializers.ModelSerializer[Card]):
    object = serializers.SerializerMethodField()
    set = serializers.CharField(source="card_set.code")
    effects = serializers.JSONField(source="document")
    validation = serializers.SerializerMethodField()
    image = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "object",
            "id",
            "name",
            "set",
            "deck",
            "kind",
            "copies",
            "level",
            "treasures",
            "levels_gained",
            "bonus",
            "gold",
            "slot",
            "big",
            "tags",
            "text",
            "encoding",
            "validation",
            "effects",
            "image",
            "url",
        ]

    def get_object(self, obj: Card) -> str:
        return "card"

    def get_validation(self, obj: Card) -> str:
        checks: dict[str, Any] = self.context.get("checks", {})
        check = checks.get(obj.document_hash)
        return str(check.status) if check is not None else "unchecked"

    def get_image(self, obj: Card) -> str:
        from catalog.selectors import face_key

        return str(
            self.context["request"].build_absolute_uri(
                reverse("catalog:card_face", args=[obj.pk, face_key(obj)])
            )
        )

    def get_url(self, obj: Card) -> str:
        return str(
            self.context["request"].build_absolute_uri(
                reverse("catalog:card_detail", args=[obj.card_set.code, obj.slug])
            )
        )
