"""The pages that teach the query language: the advanced search form and the syntax page."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from catalog import selectors
from catalog.forms_advanced import AdvancedSearchForm
from catalog.search.builder import build_query


def advanced_search(request: HttpRequest) -> HttpResponse:
    """The form, blank; filled in (any field given), the search it writes, at its permalink.

    `?preview=1` answers the query written so far as JSON ({"query", "errors"}), which the
    page's script shows while the form is filled in: the one writer of queries stays here.
    A preview's errors are its answer, not a failed request, so it is always a 200 (a 400
    would be logged as an error in the browser's console at each keystroke)."""
    fields = request.GET.copy()
    preview = fields.pop("preview", None) is not None
    form = AdvancedSearchForm(
        fields or None, sets=selectors.search_set_choices(viewer=request.user)
    )
    query = build_query(form.criteria()) if form.is_bound and form.is_valid() else ""
    if form.is_bound and form.is_valid() and not query:
        form.add_error(None, "Fill in at least one field: an empty search finds nothing.")
    status = 400 if form.is_bound and form.errors else 200
    if preview:
        errors = {name: [str(e) for e in errs] for name, errs in form.errors.items()}
        return JsonResponse({"query": query, "errors": errors})
    if status == 200 and query:
        return redirect(reverse("catalog:card_search") + "?" + urlencode({"q": query}))
    return render(
        request,
        "catalog/advanced_search.html",
        {"form": form, "built": query},
        status=status,
    )


def search_syntax(request: HttpRequest) -> HttpResponse:
    """The syntax page: each keyword, its spellings, an example and the values it takes."""
    return render(
        request,
        "catalog/search_help.html",
        {
            "forms": selectors.QUERY_FORMS,
            "keywords": selectors.syntax_reference(viewer=request.user),
        },
    )
