"""The advanced search form: a field per keyword of the query language, its choices taken
from the language's own table (catalog/search/keywords.py)."""

from __future__ import annotations

from typing import Any

from django import forms

from catalog.search.builder import Criteria
from catalog.search.facets import BAD_STUFF_KINDS
from catalog.search.keywords import (
    DECKS,
    NUMBER_KEYWORDS,
    ORDERS,
    SHORTCUT_LABELS,
    SHORTCUTS,
    SLOTS,
    TAGS,
)
from validator.engine import KINDS, NUMBER_LIMIT

# The effect language keeps every stat within NUMBER_LIMIT; a bound a card cannot pass is a
# typo the form reports rather than a search that quietly finds nothing.
STAT_LIMIT = NUMBER_LIMIT
# The lowest value of each number keyword's stat (only a bonus goes below zero).
STAT_FLOORS = {"lvl": 0, "tr": 0, "bonus": -STAT_LIMIT, "gold": 0}
STAT_LABELS = {"lvl": "Level", "tr": "Treasures", "bonus": "Bonus", "gold": "Gold value"}


def _words(values: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(value, value.replace("_", " ").replace("-", " ").capitalize()) for value in values]


def _text(label: str, help_text: str = "") -> forms.CharField:
    return forms.CharField(label=label, required=False, max_length=200, help_text=help_text)


class AdvancedSearchForm(forms.Form):
    """Every field is optional; the query written from them (`criteria()`, then
    catalog.search.builder.build_query) asks for all of those given."""

    name = _text("Name contains")
    text = _text("Rules text contains")
    kind = forms.ChoiceField(label="Kind", required=False)
    deck = forms.ChoiceField(label="Deck", required=False)
    set_code = forms.ChoiceField(label="Set", required=False)
    tags = forms.MultipleChoiceField(
        label="Tags (all of them)",
        required=False,
        choices=_words(TAGS),
        widget=forms.CheckboxSelectMultiple,
    )
    slot = forms.ChoiceField(
        label="Slot", required=False, choices=[("", "Any slot"), *_words(SLOTS)]
    )
    usable = _text("Usable by", "A race, class... e.g. elf")
    vs = _text("Has a condition on", "A race, class or tag, e.g. warrior")
    bad = forms.ChoiceField(
        label="Bad Stuff",
        required=False,
        choices=[("", "Any Bad Stuff"), *_words(BAD_STUFF_KINDS)],
    )
    is_flags = forms.MultipleChoiceField(
        label="Is",
        required=False,
        choices=[(flag, SHORTCUT_LABELS[flag]) for flag in SHORTCUTS],
        widget=forms.CheckboxSelectMultiple,
    )
    not_flags = forms.MultipleChoiceField(
        label="Is not",
        required=False,
        choices=[(flag, SHORTCUT_LABELS[flag]) for flag in SHORTCUTS],
        widget=forms.CheckboxSelectMultiple,
    )
    author = _text("Author", "The user who made a custom set")
    order = forms.ChoiceField(
        label="Order by",
        required=False,
        choices=[("", "Name (the default)"), *_words(tuple(ORDERS))],
    )
    direction = forms.ChoiceField(
        label="Direction",
        required=False,
        choices=[("asc", "Ascending"), ("desc", "Descending")],
    )

    def __init__(self, *args: Any, sets: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._choose("kind", [("", "Any kind"), *_words(KINDS)])
        self._choose("deck", [("", "Either deck"), *_words(DECKS)])
        self._choose("set_code", [("", "Any set"), *((code, f"{n} ({code})") for code, n in sets)])
        for keyword in NUMBER_KEYWORDS:
            key, floor = keyword.name, STAT_FLOORS[keyword.name]
            for end, word in (("min", "at least"), ("max", "at most")):
                self.fields[f"{key}_{end}"] = forms.IntegerField(
                    label=f"{STAT_LABELS[key]} {word}",
                    required=False,
                    min_value=floor,
                    max_value=STAT_LIMIT,
                )

    def _choose(self, name: str, choices: list[tuple[str, str]]) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

    def range_fields(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        """(label, lowest, highest) of each number keyword, for the template."""
        return [
            (STAT_LABELS[k.name], self[f"{k.name}_min"], self[f"{k.name}_max"])
            for k in NUMBER_KEYWORDS
        ]

    def check_fields(self) -> list[forms.BoundField]:
        """The lists of checkboxes, which the page folds until one is used."""
        return [self["tags"], self["is_flags"], self["not_flags"]]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for keyword in NUMBER_KEYWORDS:
            low, high = data.get(f"{keyword.name}_min"), data.get(f"{keyword.name}_max")
            if low is not None and high is not None and low > high:
                label = STAT_LABELS[keyword.name]
                self.add_error(
                    f"{keyword.name}_max", f"{label}: {high} is below the lowest, {low}."
                )
        both = set(data.get("is_flags", ())) & set(data.get("not_flags", ()))
        if both:
            self.add_error(
                "not_flags", f"Asked both to be and not to be: {', '.join(sorted(both))}."
            )
        return data

    def criteria(self) -> Criteria:
        """The valid form's answers (call after is_valid())."""
        data = self.cleaned_data
        return Criteria(
            name=data["name"],
            text=data["text"],
            kind=data["kind"],
            deck=data["deck"],
            set_code=data["set_code"],
            tags=data["tags"],
            ranges={
                k.name: (data[f"{k.name}_min"], data[f"{k.name}_max"]) for k in NUMBER_KEYWORDS
            },
            slot=data["slot"],
            usable=data["usable"],
            vs=data["vs"],
            bad=data["bad"],
            is_flags=data["is_flags"],
            not_flags=data["not_flags"],
            author=data["author"],
            order=data["order"],
            descending=data["direction"] == "desc",
        )
