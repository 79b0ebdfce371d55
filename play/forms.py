"""The form that deals a game at /play/new/."""

from __future__ import annotations

from typing import Any

from django import forms

from play.models import ANSWER_SECONDS
from play.services import MAX_SEED
from validator.engine import TABLE_MAX_SEATS, TABLE_MIN_SEATS

SEAT_CHOICES = [("", "Empty"), ("person", "Person"), ("bot", "Bot")]


class NewGameForm(forms.Form):
    sets = forms.MultipleChoiceField(
        label="Sets dealt whole", required=False, widget=forms.CheckboxSelectMultiple
    )
    pack = forms.TypedChoiceField(
        label="Or one of your packs", required=False, coerce=int, empty_value=None
    )
    hot_seat = forms.BooleanField(
        label="Hot seat: the people play on this one device",
        required=False,
        help_text="a cover screen between turns keeps each hand private (two or more people)",
    )
    answer_seconds = forms.TypedChoiceField(
        label="Time to answer a fight",
        choices=[(0, "Until each person passes")]
        + [(s, f"{s} seconds") for s in ANSWER_SECONDS if s],
        coerce=int,
        initial=0,
        required=False,
        empty_value=None,
        help_text="before a fight resolves, everyone else may play into it; with a time, "
        "a person who has not answered by then passes",
    )
    seed = forms.IntegerField(
        label="Seed",
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text="the same seed deals the same game; left empty, one is chosen at random",
    )

    def __init__(
        self,
        data: Any = None,
        *,
        set_choices: list[tuple[str, str]],
        pack_choices: list[tuple[int, str]],
        initial: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(data, initial=initial)
        self.fields["sets"].choices = set_choices  # type: ignore[attr-defined]
        self.fields["pack"].choices = [("", "None"), *pack_choices]  # type: ignore[attr-defined]
        for index in range(TABLE_MAX_SEATS):
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=f"Seat {index + 1}",
                choices=SEAT_CHOICES,
                required=False,
                initial=("person", "bot")[index] if index < 2 else "",
            )

    def seats(self) -> list[str]:
        return [
            self.cleaned_data[f"seat_{i}"]
            for i in range(TABLE_MAX_SEATS)
            if self.cleaned_data.get(f"seat_{i}")
        ]

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{i}"] for i in range(TABLE_MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if bool(cleaned.get("sets")) == (cleaned.get("pack") is not None):
            raise forms.ValidationError("Choose sets or one of your packs (not both).")
        count = len(self.seats())
        if not TABLE_MIN_SEATS <= count <= TABLE_MAX_SEATS:
            raise forms.ValidationError(
                f"A game has {TABLE_MIN_SEATS} to {TABLE_MAX_SEATS} seats; {count} are taken."
            )
        return cleaned
