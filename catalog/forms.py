from django import forms

from catalog.models import Deck
from catalog.selectors import SET_DIRECTIONS, SET_ORDERS, SET_VIEWS

# Far past any set's last page; a larger number is refused as a number, not looked up.
MAX_PAGE = 10_000


def _one_of(values: tuple[str, ...] | list[str], what: str) -> dict[str, str]:
    """A refusal that says which values are accepted."""
    accepted = ", ".join(values)
    return {"invalid_choice": f"“%(value)s” is not {what}; use one of: {accepted}."}


class ResultsViewForm(forms.Form):
    """How a list of cards is shown: the view and the page. Unknown values are reported
    (status 400), never silently replaced."""

    view = forms.ChoiceField(
        choices=[(v, v) for v in SET_VIEWS],
        required=False,
        error_messages=_one_of(SET_VIEWS, "a view"),
    )
    page = forms.IntegerField(
        min_value=1,
        max_value=MAX_PAGE,
        required=False,
        error_messages={
            "invalid": "“%(value)s” is not a page number; pages are numbered from 1.",
            "min_value": "pages are numbered from 1.",
            "max_value": f"no list here has more than {MAX_PAGE:,} pages.",
        },
    )

    def clean_view(self) -> str:
        return str(self.cleaned_data["view"] or "grid")

    def clean_page(self) -> int:
        page = self.cleaned_data["page"]
        return 1 if page is None else int(page)


class SetFilterForm(ResultsViewForm):
    """The set page's filters, order and view. Unknown values are reported, never treated
    as "everything"."""

    deck = forms.ChoiceField(choices=[("", "Both decks"), *Deck.choices], required=False)
    kind = forms.ChoiceField(choices=[("", "Every kind")], required=False)
    order = forms.ChoiceField(
        choices=[(o, o.capitalize()) for o in SET_ORDERS],
        required=False,
        label="Sort by",
        error_messages=_one_of(list(SET_ORDERS), "an order"),
    )
    dir = forms.ChoiceField(
        choices=[("asc", "Ascending"), ("desc", "Descending")],
        required=False,
        label="Direction",
        error_messages=_one_of(SET_DIRECTIONS, "a direction"),
    )

    field_order = ["deck", "kind", "order", "dir", "view", "page"]

    def __init__(self, *args: object, kinds: list[tuple[str, str, int]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        kind_field = self.fields["kind"]
        assert isinstance(kind_field, forms.ChoiceField)
        kind_field.choices = [("", "Every kind")] + [
            (kind, f"{label} ({count})") for kind, label, count in kinds
        ]
        accepted = [kind for kind, _, _ in kinds]
        kind_field.error_messages.update(_one_of(accepted, "a kind of card in this set"))
        self.fields["view"].widget = forms.HiddenInput()
        self.fields["page"].widget = forms.HiddenInput()

    def clean_order(self) -> str:
        return str(self.cleaned_data["order"] or "number")

    def clean_dir(self) -> str:
        return str(self.cleaned_data["dir"] or "asc")
