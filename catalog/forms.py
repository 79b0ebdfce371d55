from django import forms

from catalog.models import Deck


class SetFilterForm(forms.Form):
    """The set page's filters. Unknown values are reported, never treated as "everything"."""

    deck = forms.ChoiceField(choices=[("", "Both decks"), *Deck.choices], required=False)
    kind = forms.ChoiceField(choices=[("", "Every kind")], required=False)

    def __init__(self, *args: object, kinds: list[tuple[str, str, int]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        kind_field = self.fields["kind"]
        assert isinstance(kind_field, forms.ChoiceField)
        kind_field.choices = [("", "Every kind")] + [
            (kind, f"{label} ({count})") for kind, label, count in kinds
        ]
