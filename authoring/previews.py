"""The live preview of a card form, counted: the editor's and the propose form's.

Each preview reads a YAML document and runs the card through the engine, so it is engine work
that anyone signed in (or, for proposals, anyone) can ask for on every keystroke. Both count
against the user and the address (accounts.limits); past PREVIEW_PER_MINUTE the answer is a 429
in the preview's own shape, so the page shows it where the card's problems go.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from accounts.limits import TooManyRequests, identities, rate_limit
from authoring.editor import EditorError
from authoring.forms import CardForm, form_preview

# The editor asks 300 ms after the last keystroke: a person typing and pausing stays well
# under one a second.
PREVIEW_PER_MINUTE = 60


def counted_preview(
    request: HttpRequest, form: CardForm, *, set_code: str, scope: str
) -> JsonResponse:
    """The preview of `form` (see authoring.forms.form_preview), or a 429 with Retry-After
    when the user or the address has asked for more than PREVIEW_PER_MINUTE in this minute
    under `scope`; nothing is read or run then."""
    try:
        rate_limit(
            scope=scope,
            idents=identities(request),
            limit=PREVIEW_PER_MINUTE,
            per="minute",
            what="previews",
        )
    except TooManyRequests as exc:
        refused = JsonResponse(
            {"ok": False, "errors": [EditorError("", exc.message).as_dict()]}, status=429
        )
        refused["Retry-After"] = str(exc.retry_after)
        return refused
    return JsonResponse(form_preview(form, set_code=set_code))
