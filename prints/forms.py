"""The proxy page's form, which also reads the API's JSON body."""

from typing import Any

from django import forms
from django.conf import settings

from prints.jobs import MAX_COPIES, ProxySelection
from prints.sheets import CARD_SIZES, ProxyError, ProxyOptions, parse_size, size_text


def _offset_field(axis: str) -> forms.DecimalField:
    return forms.DecimalField(
        required=False,
        min_value=-10,
        max_value=10,
        decimal_places=2,
        initial=0,
        label=f"Back offset {axis} (mm)",
    )


class ProxyForm(forms.Form):
    """What to print and how. The same form reads the page's query string, its POST and the
    API's JSON body, so every input is checked by one set of rules."""

    sets = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    pack = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label="Or a pack")
    query = forms.CharField(required=False, max_length=1000, label="Or a search query")
    cards = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Or these cards",
        help_text="one card name per line (Name@set-code when several sets have it)",
    )
    paper = forms.ChoiceField(
        required=False,
        choices=[("a4", "A4"), ("letter", "Letter"), ("a3", "A3"), ("custom", "Custom")],
        initial="a4",
    )
    paper_size = forms.CharField(
        required=False, max_length=40, label="Custom paper (mm)", help_text="e.g. 200x280"
    )
    orientation = forms.ChoiceField(
        required=False,
        choices=[("portrait", "Portrait"), ("landscape", "Landscape")],
        initial="portrait",
    )
    card_size = forms.ChoiceField(
        required=False,
        choices=[("munchkin", "Munchkin"), ("poker", "Poker 63 x 88 mm"), ("custom", "Custom")],
        initial="munchkin",
    )
    custom_card_size = forms.CharField(
        required=False, max_length=40, label="Custom card (mm)", help_text="e.g. 57x87"
    )
    bleed = forms.DecimalField(
        required=False, min_value=0, max_value=3, decimal_places=2, initial=0, label="Bleed (mm)"
    )
    gutter = forms.DecimalField(
        required=False, min_value=0, max_value=20, decimal_places=2, initial=0, label="Gutter (mm)"
    )
    margin = forms.DecimalField(
        required=False, min_value=0, max_value=50, decimal_places=2, initial=5, label="Margin (mm)"
    )
    cut_marks = forms.ChoiceField(
        required=False,
        choices=[("margin", "In the margin"), ("lines", "Full lines"), ("none", "None")],
        initial="margin",
    )
    backs = forms.ChoiceField(
        required=False,
        choices=[
            ("none", "No backs"),
            ("pages", "On separate pages"),
            ("duplex-long", "Duplex, long-edge flip"),
            ("duplex-short", "Duplex, short-edge flip"),
        ],
        initial="none",
    )
    offset_x = _offset_field("x")
    offset_y = _offset_field("y")
    instructions = forms.BooleanField(
        required=False, initial=True, label="First page: print at 100%, with a 50 mm ruler"
    )
    alignment_page = forms.BooleanField(
        required=False, label="Alignment test page (to find the back offset)"
    )
    ink_saving = forms.BooleanField(
        required=False,
        label="Ink-saving faces",
        help_text="a thin frame and outlined badges, no filled bands",
    )

    def __init__(
        self,
        *args: Any,
        set_choices: list[tuple[str, str]],
        pack_choices: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        sets = self.fields["sets"]
        assert isinstance(sets, forms.MultipleChoiceField)
        sets.choices = set_choices
        pack = self.fields["pack"]
        assert isinstance(pack, forms.TypedChoiceField)
        pack.choices = [("", "—"), *pack_choices]

    def clean_cards(self) -> str:
        """At most MAX_COPIES lines: each line is one copy, and no PDF holds more."""
        text: str = self.cleaned_data["cards"]
        lines = text.count("\n") + 1
        if lines > MAX_COPIES:
            raise forms.ValidationError(
                f"at most {MAX_COPIES} lines (one card per line, the most one PDF holds); "
                f"this has {lines}"
            )
        return text

    def selection(self) -> ProxySelection:
        data = self.cleaned_data
        names = [line.strip() for line in data["cards"].splitlines() if line.strip()]
        return ProxySelection(
            sets=list(data["sets"]), pack_id=data["pack"], query=data["query"], names=names
        )

    def options(self) -> ProxyOptions:
        """The ProxyOptions; ProxyError for a size that does not read or does not fit."""
        # A field left out (a short permalink, an API call) takes its default.
        data = {
            name: self.fields[name].initial if value in (None, "") else value
            for name, value in self.cleaned_data.items()
        }
        paper_size = None
        if data["paper"] == "custom":
            paper_size = parse_size(data["paper_size"], what="paper size")
            limit = settings.PROXY_PAPER_MAX_MM
            if max(paper_size) > limit:
                raise ProxyError(
                    f"paper size {size_text(paper_size)}: each side may be at most {limit} mm "
                    "on this site (A2 is 420 x 594 mm)"
                )
        if data["card_size"] == "custom":
            card_size = parse_size(data["custom_card_size"], what="card size")
        else:
            card_size = CARD_SIZES[data["card_size"]]
        options = ProxyOptions(
            paper=data["paper"],
            paper_size=paper_size,
            orientation=data["orientation"],
            card_size=card_size,
            bleed=float(data["bleed"]),
            gutter=float(data["gutter"]),
            margin=float(data["margin"]),
            cut_marks=data["cut_marks"],
            backs=data["backs"],
            back_offset=(float(data["offset_x"]), float(data["offset_y"])),
            instructions=data["instructions"],
            alignment_page=data["alignment_page"],
            ink_saving=data["ink_saving"],
        )
        options.check()
        return options
