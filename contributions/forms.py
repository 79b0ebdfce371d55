"""Forms of the proposal pages. They parse input only; the rules live in contributions.services
and the engine."""

from __future__ import annotations

from typing import Any

from django import forms

from authoring.forms import CardForm
from contributions.services import MAX_EVIDENCE_CHARS, MAX_NOTE_CHARS


class ProposalForm(CardForm):
    """The card editor's form without the art (a proposal never changes a card's art), with
    the evidence for the facts and an optional photo of the physical card."""

    evidence = forms.CharField(
        max_length=MAX_EVIDENCE_CHARS,
        label="Evidence",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=(
            "Where the facts come from (your copy of the card, a rulebook page…), in your "
            "own words — never copy the card's text."
        ),
    )
    # A FileField, not ImageField: the service opens the image itself and says why it refuses.
    photo = forms.FileField(
        required=False,
        label="Photo of the physical card",
        help_text=(
            "Optional. Seen only by you and the set's curators; location data is removed. "
            "PNG, JPEG or WebP."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["art"]


class ReviewNoteForm(forms.Form):
    """A curator's reason for rejecting, or the changes they ask for."""

    note = forms.CharField(max_length=MAX_NOTE_CHARS, widget=forms.Textarea(attrs={"rows": 3}))


class QueueFilterForm(forms.Form):
    """The review queue's filters; the choices are the curator's sets and the statuses."""

    set = forms.ChoiceField(required=False, label="Set")
    status = forms.ChoiceField(required=False, label="Status")

    def __init__(
        self,
        *args: Any,
        sets: list[tuple[str, str]],
        statuses: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        set_field = self.fields["set"]
        status_field = self.fields["status"]
        assert isinstance(set_field, forms.ChoiceField)
        assert isinstance(status_field, forms.ChoiceField)
        set_field.choices = [("", "All your sets"), *sets]
        status_field.choices = [("all", "Any status"), *statuses]
