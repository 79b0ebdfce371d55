"""Shapes of the proposals API: the bodies its writes take and the objects it answers with.

A proposal object is only ever sent to its proposer or a curator of its set (anyone else
gets a 404 before any of this runs); even so, lists carry no evidence, and only the detail
carries the photo's address and the review."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.urls import reverse
from rest_framework import serializers

from catalog.api.serializers import ErrorItemOutput, StrictInput, list_output
from catalog.models import MAX_ROW_ID
from contributions.merging import ABSENT, FieldRow
from contributions.models import Proposal
from contributions.selectors import STATUSES, ProposalReview
from contributions.services import MAX_EVIDENCE_CHARS, MAX_NOTE_CHARS
from validator.engine import CardDocumentError, ReadLimits, read_json

# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


class DocumentField(serializers.JSONField):
    """A card document: a JSON object, or (in a multipart request, beside a photo) the same
    object written as a JSON string, read by the engine's bounded reader."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            try:
                data = read_json(data, "effects", ReadLimits(max_bytes=settings.API_MAX_BODY_BYTES))
            except CardDocumentError as exc:
                raise serializers.ValidationError(exc.errors[0].message) from exc
        if not isinstance(data, dict):
            raise serializers.ValidationError("a card document is a JSON object of keys")
        return data


class ProposalCreateInput(StrictInput):
    card = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROW_ID,
        allow_null=True,
        required=False,
        default=None,
        help_text="the id of the set's card to change; null (or left out) for a new card",
    )
    effects = DocumentField(
        help_text="the proposed card's full typed document (the editor's document); in a "
        "multipart request, that document as a JSON string"
    )
    base_revision = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROW_ID,
        allow_null=True,
        required=False,
        default=None,
        help_text="the card's revision the change was made against (default: its current "
        "one); null for a new card",
    )
    # Its length is the service's to check (it counts after trimming, and says how long).
    evidence = serializers.CharField(
        allow_blank=True,
        help_text="where the facts come from, in your own words (your copy of the card, a "
        f"rulebook page…); at most {MAX_EVIDENCE_CHARS} characters",
    )
    photo = serializers.FileField(
        required=False,
        allow_null=True,
        default=None,
        help_text="multipart only: a photo of the physical card (JPEG, PNG or WebP, as card "
        "art); kept without its metadata and shown only to you and the set's curators",
    )


class ProposalUpdateInput(StrictInput):
    """The proposer's new version: a whole document and evidence, also in PATCH."""

    # drf-spectacular documents every PATCH body as partial; this one never is.
    @property
    def partial(self) -> bool:
        return False

    @partial.setter
    def partial(self, value: bool) -> None:
        pass

    effects = DocumentField(
        help_text="the proposed card's new full document (a JSON string in multipart)"
    )
    evidence = serializers.CharField(allow_blank=True, help_text="where the facts come from")
    base_revision = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROW_ID,
        allow_null=True,
        required=False,
        default=None,
        help_text="rebase a change on this revision of the card (default: the proposal's own)",
    )
    photo = serializers.FileField(
        required=False,
        allow_null=True,
        default=None,
        help_text="multipart only: a new photo, replacing the old one (left out: kept)",
    )


class AcceptInput(StrictInput):
    reviewed_revision = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROW_ID,
        allow_null=True,
        required=False,
        default=None,
        help_text="the card's current revision, whose three-way difference with the proposal "
        "you reviewed; required when the proposal is stale",
    )


class RejectInput(StrictInput):
    reason = serializers.CharField(
        allow_blank=True, help_text=f"why, for the proposer (at most {MAX_NOTE_CHARS} characters)"
    )


class RequestChangesInput(StrictInput):
    message = serializers.CharField(
        allow_blank=True,
        help_text=f"what to change, for the proposer (at most {MAX_NOTE_CHARS} characters)",
    )


# --------------------------------------------------------------------------------------------
# Outputs
# --------------------------------------------------------------------------------------------


def _absolute(context: Mapping[str, Any], name: str, *args: Any) -> str:
    return str(context["request"].build_absolute_uri(reverse(name, args=args)))


class ProposalSummaryOutput(serializers.ModelSerializer[Proposal]):
    """A proposal in a list: what it is and where it stands."""

    object = serializers.SerializerMethodField()
    set = serializers.CharField(source="card_set.code")
    card = serializers.SerializerMethodField()
    new_card = serializers.BooleanField(source="is_new_card")
    proposer = serializers.CharField(source="proposer.username")
    # Not a ChoiceField: its enum would collide in the schema with the validation's `status`.
    status = serializers.CharField(help_text=f"one of {', '.join(STATUSES)}")
    stale = serializers.BooleanField(source="is_stale")
    has_photo = serializers.SerializerMethodField()
    accepted_revision = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Proposal
        fields = [
            "object",
            "id",
            "set",
            "card",
            "new_card",
            "name",
            "proposer",
            "status",
            "base_revision",
            "stale",
            "has_photo",
            "review_note",
            "reviewed_at",
            "accepted_revision",
            "created_at",
            "updated_at",
            "url",
        ]

    def get_object(self, obj: Proposal) -> str:
        return "proposal"

    def get_card(self, obj: Proposal) -> int | None:
        """The card changed, or the card an accepted new-card proposal made."""
        if obj.card_id is not None:
            return obj.card_id
        revision = obj.accepted_revision
        return revision.card_id if revision is not None else None

    def get_has_photo(self, obj: Proposal) -> bool:
        return bool(obj.photo)

    def get_accepted_revision(self, obj: Proposal) -> int | None:
        """The number of the card's revision accepting the proposal made."""
        revision = obj.accepted_revision
        return revision.number if revision is not None else None

    def get_url(self, obj: Proposal) -> str:
        return _absolute(self.context, "contributions:proposal_detail", obj.pk)


class ProposalOutput(ProposalSummaryOutput):
    """One proposal, as its proposer and the set's curators read it: with its evidence and
    the proposed document."""

    effects = serializers.JSONField(source="document")

    class Meta(ProposalSummaryOutput.Meta):
        fields = [*ProposalSummaryOutput.Meta.fields, "evidence", "effects"]


class DiffLineOutput(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["add", "del", "ctx", "hunk"])
    text = serializers.CharField()


def _value(value: Any) -> Any:
    return None if value is ABSENT else value


class FieldRowOutput(serializers.Serializer[Any]):
    """One top-level key of the card's document at the proposal's base revision, now, and in
    the proposal (null with `in_*` false where a document does not have the key)."""

    key = serializers.CharField()
    base = serializers.SerializerMethodField()
    current = serializers.SerializerMethodField()
    proposed = serializers.SerializerMethodField()
    in_base = serializers.SerializerMethodField()
    in_current = serializers.SerializerMethodField()
    in_proposed = serializers.SerializerMethodField()
    conflict = serializers.BooleanField()

    def get_base(self, row: FieldRow) -> Any:
        return _value(row.base)

    def get_current(self, row: FieldRow) -> Any:
        return _value(row.current)

    def get_proposed(self, row: FieldRow) -> Any:
        return _value(row.proposed)

    def get_in_base(self, row: FieldRow) -> bool:
        return row.base is not ABSENT

    def get_in_current(self, row: FieldRow) -> bool:
        return row.current is not ABSENT

    def get_in_proposed(self, row: FieldRow) -> bool:
        return row.proposed is not ABSENT


class ReviewOutput(serializers.Serializer[ProposalReview]):
    """What a review looks at: the difference against the card as it is, the three-way
    difference once the card has moved on, the validator's report and rules text, and the
    flags (duplicate new-card proposals, a card that now has the name)."""

    current_revision = serializers.SerializerMethodField()
    diff = DiffLineOutput(many=True)
    changed_fields = serializers.ListField(child=serializers.CharField())
    stale = serializers.BooleanField()
    three_way = serializers.SerializerMethodField()
    validation = serializers.CharField(source="status")
    messages = serializers.ListField(child=serializers.CharField())
    text = serializers.ListField(child=serializers.CharField(), help_text="rules text lines")
    duplicates = serializers.SerializerMethodField()
    existing_card = serializers.SerializerMethodField()

    def get_current_revision(self, review: ProposalReview) -> int | None:
        card = review.proposal.card
        return card.revision if card is not None else None

    def get_three_way(self, review: ProposalReview) -> list[dict[str, Any]] | None:
        """Every key that differs in any of the three documents, when the proposal is stale."""
        if review.three_way is None:
            return None
        return list(FieldRowOutput(review.three_way.changed_rows, many=True).data)

    def get_duplicates(self, review: ProposalReview) -> list[int]:
        """Other pending proposals of a new card of the same name."""
        return [proposal.pk for proposal in review.duplicates]

    def get_existing_card(self, review: ProposalReview) -> int | None:
        """For a new card, the id of a card of the set that now has its name."""
        return review.existing.pk if review.existing is not None else None


class ProposalDetailOutput(ProposalOutput):
    """One proposal with its review and the address of its photo (null without one)."""

    photo = serializers.SerializerMethodField()
    face = serializers.SerializerMethodField()
    review = serializers.SerializerMethodField()

    class Meta(ProposalOutput.Meta):
        fields = [*ProposalOutput.Meta.fields, "photo", "face", "review"]

    def get_photo(self, obj: Proposal) -> str | None:
        if not obj.photo:
            return None
        return _absolute(self.context, "contributions:proposal_photo", obj.pk)

    def get_face(self, obj: Proposal) -> str | None:
        """The proposed document's face, drawn as the card page draws a card's (null when the
        engine can no longer read the document)."""
        if self.context["review"].typed is None:
            return None
        return _absolute(self.context, "contributions:proposal_face", obj.pk)

    def get_review(self, obj: Proposal) -> dict[str, Any]:
        return dict(ReviewOutput(self.context["review"]).data)


ProposalListOutput = list_output("ProposalList", ProposalSummaryOutput(many=True))


class ProposalErrorItemOutput(ErrorItemOutput):
    """An error of a refused decision (409): a conflicting field carries its three values, a
    stale proposal the revision to review."""

    base = serializers.JSONField(required=False)
    current = serializers.JSONField(required=False)
    proposed = serializers.JSONField(required=False)
    current_revision = serializers.IntegerField(required=False)


class ProposalErrorOutput(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField(default="error")
    status = serializers.IntegerField()
    code = serializers.ChoiceField(choices=["stale", "conflict", "closed"])
    details = serializers.CharField()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["errors"] = ProposalErrorItemOutput(many=True)
        return fields
