"""Shapes of the API: what the endpoints answer, and the bodies the writes take."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from catalog.faces import face_key
from catalog.models import MAX_ROW_ID, Card, CardSet, Visibility
from catalog.names import MAX_TYPED_NAME
from validator.engine import CONFIDENCES, FIELD_CONFIDENCES, nearest_word

# A number no id reaches, to find where an id goes in a view's address.
_STAND_IN_NUMBER = 987_654_320


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
            "visibility",
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


class CompletenessOutput(serializers.Serializer[Any]):
    """How complete an official set is (catalog.selectors.Completeness; the
    definitions are in docs/completeness.md)."""

    cards_in_box = serializers.IntegerField(
        allow_null=True, help_text="the cards in the box; null when not known"
    )
    known_cards = serializers.IntegerField(help_text="distinct cards catalogued")
    known_copies = serializers.IntegerField(
        help_text="copies summed over the cards whose copies are known"
    )
    stats_known = serializers.IntegerField(
        help_text="cards whose kind is known and every stat of that kind too"
    )
    full = serializers.IntegerField(help_text="cards whose rules are fully encoded")
    verified = serializers.IntegerField(
        help_text="cards the sources agree on, or with a player's contribution a curator accepted"
    )
    provisional = serializers.IntegerField(
        help_text="cards whose printed name is uncertain (one informal source)"
    )
    copies_unknown = serializers.IntegerField(help_text="cards whose copies are not known")
    unnamed = serializers.IntegerField(
        allow_null=True,
        help_text="cards of the box not named yet (a card of unknown copies counted once); "
        "null when the box's size is not known",
    )


class CardSetDetailOutput(CardSetOutput):
    """One set, with its completeness (the view reads it: `context["completeness"]`), null
    for a custom set (its maker completes it)."""

    completeness = serializers.SerializerMethodField()

    class Meta(CardSetOutput.Meta):
        fields = [*CardSetOutput.Meta.fields, "completeness"]

    @extend_schema_field(CompletenessOutput(allow_null=True))
    def get_completeness(self, obj: CardSet) -> dict[str, Any] | None:
        completeness = self.context.get("completeness")
        return None if completeness is None else dict(CompletenessOutput(completeness).data)


class CardProvenanceOutput(serializers.Serializer[Any]):
    """How sure the catalog is of a card's facts, from its set file's provenance
    (docs/set-files.md); a custom card's are its maker's, so it has none of these."""

    confidence = serializers.ChoiceField(
        choices=CONFIDENCES,
        allow_null=True,
        help_text="how sure the sources are of the card's facts; null when not recorded",
    )
    name_uncertain = serializers.BooleanField(
        help_text="the printed name is known from one informal source and may differ"
    )
    field_confidence = serializers.DictField(
        child=serializers.ChoiceField(choices=FIELD_CONFIDENCES),
        help_text="stats less sure than the rest, each with its own confidence: 'inferred' "
        'is a value guessed from the card\'s name (e.g. {"slot": "inferred"})',
    )


class CardOutput(serializers.ModelSerializer[Card]):
    object = serializers.SerializerMethodField()
    set = serializers.CharField(source="card_set.code")
    effects = serializers.JSONField(source="document")
    validation = serializers.SerializerMethodField()
    image = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    provenance = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "object",
            "id",
            "revision",
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
            "provenance",
        ]

    def get_object(self, obj: Card) -> str:
        return "card"

    @extend_schema_field(CardProvenanceOutput)
    def get_provenance(self, obj: Card) -> dict[str, Any]:
        # Read from the stored mapping as it is (a set file's, written by load_catalog):
        # a page of cards is no place to parse each one's provenance again.
        stored = obj.provenance if isinstance(obj.provenance, dict) else {}
        return {
            "confidence": stored.get("confidence"),
            "name_uncertain": bool(stored.get("name_uncertain")),
            "field_confidence": dict(stored.get("field_confidence") or {}),
        }

    def get_validation(self, obj: Card) -> str:
        checks: dict[str, Any] = self.context.get("checks", {})
        check = checks.get(obj.document_hash)
        return str(check.status) if check is not None else "unchecked"

    def get_image(self, obj: Card) -> str:
        return self._address("prints:card_face", obj.pk, face_key(obj))

    def get_url(self, obj: Card) -> str:
        return self._address("catalog:card_detail", obj.card_set.code, obj.slug)

    def _address(self, view: str, *args: str | int) -> str:
        """The absolute URL of a view. A page of 60 cards asks for 120 of them: each view's
        address is worked out once per request, with stand-ins for its arguments, and filled
        in after (the arguments are ids, face keys, set codes and slugs: nothing to quote)."""
        # Kept on the serializer: a list's one child serializer renders all of its cards.
        templates: dict[str, str] = self.__dict__.setdefault("_address_templates", {})
        template = templates.get(view)
        if template is None:
            stand_ins = [_STAND_IN_NUMBER + n if isinstance(a, int) else f"standin{n}x"
                         for n, a in enumerate(args)]  # fmt: skip
            address = self.context["request"].build_absolute_uri(reverse(view, args=stand_ins))
            for n, stand_in in enumerate(stand_ins):
                address = address.replace(str(stand_in), f"{{{n}}}", 1)
            template = templates[view] = address
        return template.format(*args)


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


class StrictInput(serializers.Serializer[dict[str, Any]]):
    """A request body: a key the endpoint does not take is an error, not silently ignored."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict):
            unknown = {}
            for key in data:
                if key not in self.fields:
                    hint = nearest_word(str(key), self.fields)
                    unknown[str(key)] = [
                        f"unknown key {key!r}"
                        + (
                            f"; did you mean {hint!r}?"
                            if hint
                            else f"; keys: {', '.join(self.fields)}"
                        )
                    ]
            if unknown:
                raise serializers.ValidationError(unknown)
        return dict(super().to_internal_value(data))


class SetCreateInput(StrictInput):
    code = serializers.CharField(
        max_length=60,
        help_text=(
            "lower-case letters, digits and hyphens; the set's code starts with the owner's "
            "scope and a hyphen (e.g. 'alice-'), put in front unless it is there"
        ),
    )
    name = serializers.CharField(max_length=120)
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)
    description = serializers.CharField(
        max_length=10_000, allow_blank=True, required=False, default=""
    )
    cards_in_box = serializers.IntegerField(
        min_value=1, max_value=100_000, required=False, allow_null=True, default=None
    )


class SetUpdateInput(StrictInput):
    """Every key is optional; a key left out leaves that field as it is."""

    name = serializers.CharField(max_length=120, required=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    description = serializers.CharField(max_length=10_000, allow_blank=True, required=False)
    cards_in_box = serializers.IntegerField(min_value=1, max_value=100_000, required=False)


class CardCreateInput(StrictInput):
    set = serializers.CharField(max_length=60, help_text="the code of the set to add it to")
    effects = serializers.DictField(
        child=serializers.JSONField(), help_text="the card's full typed document"
    )


class CardUpdateInput(StrictInput):
    """A whole new document and the revision it is based on: both required, also in PATCH."""

    # drf-spectacular documents every PATCH body as partial (no key required); this one is
    # never partial, so `revision` is documented as required, as it is.
    @property
    def partial(self) -> bool:
        return False

    @partial.setter
    def partial(self, value: bool) -> None:
        pass

    effects = serializers.DictField(
        child=serializers.JSONField(), help_text="the card's new full typed document"
    )
    revision = serializers.IntegerField(
        min_value=1,
        help_text="the revision this edit is based on (the `revision` of the card as read); "
        "if the card has been saved since, the edit is refused with 409",
    )


# --------------------------------------------------------------------------------------------
# Other outputs (for the schema: the views build these as plain dicts)
# --------------------------------------------------------------------------------------------


class ErrorItemOutput(serializers.Serializer[dict[str, Any]]):
    path = serializers.CharField()
    message = serializers.CharField()


def _with_errors(
    fields: dict[str, serializers.Field[Any, Any, Any, Any]],
) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    # `errors` cannot be a declared field: it would hide Serializer.errors.
    fields["errors"] = ErrorItemOutput(many=True)
    return fields


class ErrorOutput(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField(default="error")
    status = serializers.IntegerField()
    code = serializers.CharField()
    details = serializers.CharField()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return _with_errors(super().get_fields())


class ValidationOutput(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField(default="validation")
    name = serializers.CharField()
    kind = serializers.CharField()
    encoding = serializers.CharField()
    status = serializers.ChoiceField(choices=["pass", "warn", "fail"])
    verified = serializers.BooleanField()
    messages = serializers.ListField(child=serializers.CharField())
    text = serializers.ListField(child=serializers.CharField(), help_text="rules text lines")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return _with_errors(super().get_fields())


class ScenarioResultOutput(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField(default="scenario_result")
    name = serializers.CharField()
    passed = serializers.BooleanField()
    values = serializers.DictField(
        child=serializers.JSONField(), help_text="every value the run computed"
    )
    failures = serializers.ListField(child=serializers.CharField())


def list_output(name: str, item: serializers.BaseSerializer[Any]) -> Any:
    """The list object of api.md (one page of results and how to get the next), for the
    schema. Built inline: a declared field called `data` would hide Serializer.data."""
    return inline_serializer(
        name=name,
        fields={
            "object": serializers.CharField(help_text='always "list"'),
            "total": serializers.IntegerField(),
            "has_more": serializers.BooleanField(),
            "next_page": serializers.URLField(allow_null=True),
            "data": item,
            "warnings": serializers.ListField(child=serializers.CharField()),
        },
    )


CardListOutput = list_output("CardList", CardOutput(many=True))
CardSetListOutput = list_output("CardSetList", CardSetOutput(many=True))


# --------------------------------------------------------------------------------------------
# Lookups by name (catalog/api/views_names.py)
# --------------------------------------------------------------------------------------------

# The most identifiers one collection request may hold (as the best-known card API allows).
MAX_COLLECTION = 75


class CardIdentifierInput(serializers.Serializer[dict[str, Any]]):
    """One card of a collection: `{"id": N}`, `{"name": ...}` or `{"name": ..., "set": ...}`."""

    id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ROW_ID)
    name = serializers.CharField(
        required=False, max_length=MAX_TYPED_NAME, trim_whitespace=True, allow_blank=False
    )
    set = serializers.CharField(required=False, max_length=60)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        unknown = (
            [str(key) for key in data if key not in self.fields] if isinstance(data, dict) else []
        )
        if unknown:
            near = nearest_word(unknown[0], list(self.fields))
            hint = f" (did you mean {near!r}?)" if near else ""
            raise serializers.ValidationError({unknown[0]: f"unknown key {unknown[0]!r}{hint}"})
        checked: dict[str, Any] = super().to_internal_value(data)
        return checked

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("id" in attrs) == ("name" in attrs):
            raise serializers.ValidationError("give either `id` or `name` (with `set` or not)")
        if "set" in attrs and "id" in attrs:
            raise serializers.ValidationError("`set` goes with `name`; an id names one card")
        return attrs


class CollectionInput(serializers.Serializer[dict[str, Any]]):
    identifiers: serializers.ListSerializer[dict[str, Any]] = serializers.ListSerializer(
        child=CardIdentifierInput(), max_length=MAX_COLLECTION, allow_empty=False
    )


CardCollectionOutput = inline_serializer(
    name="CardCollection",
    fields={
        "object": serializers.CharField(help_text='always "list"'),
        "total": serializers.IntegerField(),
        "has_more": serializers.BooleanField(),
        "next_page": serializers.URLField(allow_null=True),
        "data": CardOutput(many=True),
        "warnings": serializers.ListField(child=serializers.CharField()),
        "not_found": serializers.ListField(
            child=serializers.DictField(), help_text="the identifiers that matched no card"
        ),
    },
)
CatalogOutput = inline_serializer(
    name="Catalog",
    fields={
        "object": serializers.CharField(help_text='always "catalog"'),
        "total_values": serializers.IntegerField(),
        "data": serializers.ListField(child=serializers.CharField()),
    },
)
