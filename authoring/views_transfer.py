"""Pages to export a set as a YAML file and to import one (authoring.transfer does the work)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods, require_safe

from accounts.limits import TooManyRequests, identities, rate_limit
from authoring.transfer import set_import as import_service
from catalog import selectors
from catalog.exports import exporter_get
from catalog.models import CardSet, Visibility
from catalog.permissions import is_public
from catalog.selectors import set_file
from catalog.services import SetError, StaleRevisionError
from validator.engine import CardDocumentError

MAX_IMPORT_BYTES = 2 * 1024 * 1024
MAX_IMPORT_LABEL = "2 MB"


def _current_user(request: HttpRequest) -> User:
    """The signed-in user, in views behind login_required."""
    user = request.user
    assert isinstance(user, User)
    return user


@require_safe
def set_export(request: HttpRequest, code: str) -> HttpResponse:
    """The set as a YAML file, for anyone who may see the set (404 otherwise)."""
    card_set = selectors.set_get(code=code, viewer=request.user)
    if card_set is None:
        raise Http404(f"No set with code {code!r}")
    exporter = exporter_get("set-yaml")
    filename, content_type, content = exporter.render(set_file=set_file(card_set=card_set))
    response = HttpResponse(content, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    if not is_public(card_set):
        patch_cache_control(response, private=True)
    return response


class SetImportForm(forms.Form):
    """A set file, uploaded or pasted, and where it goes."""

    file = forms.FileField(
        required=False,
        label="Set file",
        help_text=f"A YAML set file, as the export gives (at most {MAX_IMPORT_LABEL}).",
    )
    text = forms.CharField(
        required=False,
        strip=False,
        label="Or paste the file",
        widget=forms.Textarea(attrs={"rows": 16, "cols": 80, "spellcheck": "false"}),
    )
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        initial=Visibility.PRIVATE,
        help_text="Who may see the new set (an import into an existing set keeps its own).",
    )
    into = forms.ModelChoiceField(
        queryset=CardSet.objects.none(),
        required=False,
        to_field_name="code",
        label="Into",
        empty_label="A new set, from the file's set: facts",
        help_text="Or one of your sets: cards are matched by name, and the set's other cards "
        "are kept.",
    )

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        into = self.fields["into"]
        assert isinstance(into, forms.ModelChoiceField)
        into.queryset = CardSet.objects.filter(owner=owner).order_by("name")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        pasted = cleaned.get("text") or ""
        if upload and pasted.strip():
            raise forms.ValidationError("Choose a file or paste the text, not both.")
        if upload:
            if upload.size is not None and upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    f"The file is {upload.size / 1024 / 1024:.1f} MB; an import may be at "
                    f"most {MAX_IMPORT_LABEL}. Split the set into several files."
                )
            raw = upload.read(MAX_IMPORT_BYTES + 1)
            if len(raw) > MAX_IMPORT_BYTES:
                raise forms.ValidationError(f"An import may be at most {MAX_IMPORT_LABEL}.")
            try:
                cleaned["yaml_text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError(
                    "The file is not UTF-8 text; save it as UTF-8 and try again."
                ) from exc
            cleaned["source"] = upload.name or "upload"
        elif pasted.strip():
            if len(pasted.encode("utf-8")) > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    f"The pasted text is longer than {MAX_IMPORT_LABEL}, the most an import "
                    "may be. Split the set into several files."
                )
            cleaned["yaml_text"] = pasted
            cleaned["source"] = "pasted text"
        else:
            raise forms.ValidationError("Choose a set file or paste its text.")
        return cleaned


def _import_refused(request: HttpRequest, exc: TooManyRequests) -> HttpResponse:
    """The import page again, empty, saying why and for how long (429, Retry-After)."""
    form = SetImportForm(owner=_current_user(request))
    context = {"form": form, "errors": [], "max_label": MAX_IMPORT_LABEL, "refusal": exc.message}
    response = render(request, "authoring/set_import.html", context, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def set_import(request: HttpRequest) -> HttpResponse:
    """Import a set file: a new set, or an upsert into one of the user's sets. Any error
    re-shows the form with every error (line, path, message); nothing is written then."""
    user = _current_user(request)
    posted = request.method == "POST"
    form = SetImportForm(
        request.POST if posted else None, request.FILES if posted else None, owner=user
    )
    errors: list[str] = []
    if posted:
        try:
            # Counted before the file is read: each import reads and checks a whole set.
            rate_limit(
                scope="set-import",
                idents=identities(request),
                limit=settings.SET_IMPORTS_PER_HOUR,
                per="hour",
                what="imports",
            )
        except TooManyRequests as exc:
            return _import_refused(request, exc)
    if posted and form.is_valid():
        data = form.cleaned_data
        try:
            report = import_service(
                owner=user,
                text=data["yaml_text"],
                source=data["source"],
                into=data["into"],
                visibility=data["visibility"],
            )
        except CardDocumentError as exc:
            errors = [str(error) for error in exc.errors]
        except SetError as exc:
            form.add_error(None, f"{exc.field}: {exc.message}")
        except StaleRevisionError as exc:
            form.add_error(None, f"{exc}. Nothing was imported; try again.")
        else:
            verb = "Imported" if report.set_created else "Imported into"
            messages.success(
                request,
                f"{verb} {report.card_set.name}: {len(report.created)} created, "
                f"{len(report.updated)} updated, {len(report.unchanged)} unchanged.",
            )
            return redirect("catalog:set_detail", code=report.card_set.code)
    return render(
        request,
        "authoring/set_import.html",
        {"form": form, "errors": errors, "max_label": MAX_IMPORT_LABEL},
        status=400 if errors or form.errors else 200,
    )
