"""Forms of the authoring pages. They parse input only; the rules live in services and the
engine."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile

from authoring.controls import controls_data, controls_value
from authoring.editor import MAX_CARD_YAML_CHARS, STAT_FIELDS, EditorError, StatField, preview
from catalog.images import PictureError, picture_checked
from catalog.models import CardSet, Visibility
from validator.engine import KINDS

RESERVED_CODES = ("new", "import")


class SetForm(forms.ModelForm[CardSet]):
    class Meta:
        model = CardSet
        fields = ["code", "name", "visibility", "description", "cards_in_box"]
        labels = {"cards_in_box": "Cards in the box"}
        help_texts = {
            "code": (
                "Lower-case letters, digits and hyphens; the set's address. It starts with your "
                "name and a hyphen (put in front for you). Cannot change."
            ),
            "cards_in_box": "How many cards the finished box holds (copies counted).",
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["visibility"].initial = Visibility.PRIVATE
        if self.instance.pk:
            del self.fields["code"]

    def clean_code(self) -> str:
        code = str(self.cleaned_data["code"]).lower()
        if code in RESERVED_CODES:
            raise forms.ValidationError(f"{code!r} is kept for the site's own pages")
        return code

    def validate_unique(self) -> None:
        pass  # the service reports a taken code, even one taken by a deleted set


def _stat_form_field(stat: StatField) -> forms.Field:
    attrs = {"data-kinds": " ".join(stat.kinds), "class": "stat"}
    if stat.type == "int":
        return forms.IntegerField(
            required=False, label=stat.label, widget=forms.NumberInput(attrs=attrs)
        )
    if stat.type == "bool":
        return forms.BooleanField(
            required=False, label=stat.label, widget=forms.CheckboxInput(attrs=attrs)
        )
    return forms.ChoiceField(
        required=False,
        label=stat.label,
        choices=[("", "—"), *((c, c.replace("_", " ")) for c in stat.choices)],
        widget=forms.Select(attrs=attrs),
    )


class CardForm(forms.Form):
    """The card's identity and stats as fields, the rest of its document as YAML."""

    base_revision = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(max_length=80)
    kind = forms.ChoiceField(choices=[(k, k.replace("_", " ")) for k in KINDS])
    deck = forms.ChoiceField(
        choices=[("door", "Door"), ("treasure", "Treasure"), ("", "neither / not known")],
        required=False,
    )
    copies = forms.IntegerField(
        required=False, min_value=1, max_value=99, help_text="blank: not known"
    )
    document_yaml = forms.CharField(
        required=False,
        max_length=MAX_CARD_YAML_CHARS,
        label="Everything else (YAML)",
        # wrap=off: one text line per YAML line, so the line numbers beside it stay true.
        widget=forms.Textarea(
            attrs={"rows": 18, "spellcheck": "false", "class": "code", "wrap": "off"}
        ),
        help_text="tags, effects, bad_stuff, abilities, notes, encoding… in the effect language.",
    )
    # A FileField, not ImageField: check_art opens the image itself, so each refusal says why.
    art = forms.FileField(required=False, help_text="optional; PNG, JPEG or WebP")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for stat in STAT_FIELDS:
            self.fields[stat.name] = _stat_form_field(stat)

    def values(self) -> dict[str, Any]:
        """The form's part of the card document (keys left blank are left out)."""
        data = self.cleaned_data
        kind = data.get("kind")
        values: dict[str, Any] = {"name": data.get("name", ""), "kind": kind}
        values["deck"] = data.get("deck") or None
        values["copies"] = data.get("copies")
        for stat in STAT_FIELDS:
            if kind not in stat.kinds:
                continue
            value = data.get(stat.name)
            if stat.type == "bool":
                if value:
                    values[stat.name] = True
            elif value not in (None, ""):
                values[stat.name] = value
        return values

    def clean_art(self) -> UploadedFile[bytes] | None:
        upload: UploadedFile[bytes] | None = self.cleaned_data.get("art")
        if upload:
            check_art(upload)
        return upload


def check_art(upload: UploadedFile[bytes]) -> None:
    """Card art: limited in bytes, pixels and format, checked without decoding its pixels
    (catalog.images); the service that keeps it draws it again without its metadata."""
    try:
        picture_checked(upload, noun="art")
    except PictureError as exc:
        raise forms.ValidationError(str(exc)) from exc


def form_preview(form: CardForm, *, set_code: str) -> dict[str, Any]:
    """The live preview of a bound card form, as the editor's script reads it: the form's
    field errors, or the card's rules text, face and validator report. Stores nothing."""
    # With the answer goes the YAML's mapping ("yaml_data"), for the controls to follow edits
    # made in the YAML; the YAML is read once (by the preview, or here when the form's own
    # fields are wrong and it passed the form's bound on its length).
    if not form.is_valid():
        errors = [
            EditorError(name, str(message), field=name)
            for name, field_errors in form.errors.items()
            for message in field_errors
        ]
        text = form.cleaned_data.get("document_yaml")
        yaml_data = controls_data(text) if text is not None else None
        return {"ok": False, "errors": [e.as_dict() for e in errors], "yaml_data": yaml_data}
    result = preview(form.values(), form.cleaned_data["document_yaml"], set_code=set_code)
    return result.as_dict() | {"yaml_data": controls_value(result.rest)}
