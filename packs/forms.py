"""The pack builder's and the simulation's forms."""

from django import forms
from django.conf import settings


class PackBuilderForm(forms.Form):
    """The pack builder: which sets, narrowed how. Copies and left-out cards come as
    `copies-<card id>` and `exclude` fields of the preview table."""

    sets = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, label="Sets")
    query = forms.CharField(
        required=False,
        max_length=1000,
        label="Only cards matching",
        help_text="a search query, e.g. -t:curse or lvl<=10 (optional)",
    )
    add_cards = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Add single cards",
        help_text="one per line, as Name@set-code, from any set you can see",
    )
    name = forms.CharField(required=False, max_length=120, label="Pack name")
    include_failing = forms.BooleanField(
        required=False, label="Keep cards that fail validation (left out otherwise)"
    )

    def clean_add_cards(self) -> str:
        """At most PACK_BUILDER_MAX_LINES lines, counted before any is looked up."""
        text: str = self.cleaned_data["add_cards"]
        limit = settings.PACK_BUILDER_MAX_LINES
        lines = text.count("\n") + 1 if text else 0
        if lines > limit:
            raise forms.ValidationError(
                f"at most {limit} lines (one card per line); this has {lines}. "
                "Add whole sets above instead."
            )
        return text

    def __init__(self, *args: object, set_choices: list[tuple[str, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["sets"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = set_choices
