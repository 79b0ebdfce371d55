"""The scenarios page of a card: every scenario with its last result, and (for whoever may edit
the card's set) forms to add, change, delete and run them. The work is in authoring.scenarios."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from authoring import scenarios as services
from authoring.models import CardScenario
from catalog.models import Card
from catalog.permissions import can_edit_set
from catalog.selectors import CardDetail, card_detail
from validator.engine import CardDocumentError

EXAMPLE = """\
name: A Level 5 player beats it
players:
  - name: Aric
    level: 5
combat:
  fighter: Aric
  monsters: [CARD]
steps:
  - {resolve: true}
expect:
  outcome: won
"""


class ScenarioForm(forms.Form):
    name = forms.CharField(max_length=120, label="Name")
    text = forms.CharField(
        label="Scenario (YAML)",
        max_length=services.MAX_SCENARIO_CHARS,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "class": "scenario-yaml"}),
        help_text="The format of the scenario files: players, combat, steps and expect. With no "
        "sets: the official sets and this card's set. Names in several sets need Name@set-code.",
    )


def _detail(request: HttpRequest, code: str, slug: str) -> CardDetail:
    detail = card_detail(set_code=code, slug=slug, viewer=request.user)
    if detail is None:
        raise Http404("No such card")
    return detail


def _page(
    request: HttpRequest,
    detail: CardDetail,
    *,
    add_form: ScenarioForm | None = None,
    editing: CardScenario | None = None,
    edit_form: ScenarioForm | None = None,
    status: int = 200,
) -> HttpResponse:
    card = detail.card
    can_edit = can_edit_set(request.user, card.card_set)
    if can_edit and add_form is None:
        add_form = ScenarioForm(initial={"text": EXAMPLE.replace("CARD", card.name)})
    context: dict[str, Any] = {
        "card": card,
        "detail": detail,
        "scenarios": services.card_scenarios(card=card),
        "can_edit": can_edit,
        "add_form": add_form if can_edit else None,
        "editing": editing,
        "edit_form": edit_form,
    }
    return render(request, "authoring/scenarios.html", context, status=status)


def _save_errors(form: ScenarioForm, exc: Exception) -> None:
    if isinstance(exc, CardDocumentError):
        for error in exc.errors:
            form.add_error("text", str(error))
    elif isinstance(exc, services.ScenarioNameError):
        form.add_error("name", exc.message)


def _to_page(card: Card) -> HttpResponse:
    return redirect("authoring:scenarios", code=card.card_set.code, slug=card.slug)


def scenarios(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    return _page(request, _detail(request, code, slug))


@login_required
@require_http_methods(["GET", "POST"])
def scenario_add(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    detail = _detail(request, code, slug)
    card = detail.card
    if not can_edit_set(request.user, card.card_set):
        raise PermissionDenied("you may not change this card's scenarios")
    form = ScenarioForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            scenario = services.scenario_create(
                card=card,
                actor=request.user,
                name=form.cleaned_data["name"],
                text=form.cleaned_data["text"],
            )
        except (CardDocumentError, services.ScenarioNameError) as exc:
            _save_errors(form, exc)
        else:
            messages.success(request, f"Scenario {scenario.name!r} saved and run.")
            return _to_page(card)
    return _page(request, detail, add_form=form, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def scenario_edit(request: HttpRequest, code: str, slug: str, scenario_id: int) -> HttpResponse:
    detail = _detail(request, code, slug)
    card = detail.card
    scenario = services.scenario_get(card=card, scenario_id=scenario_id)
    if not can_edit_set(request.user, card.card_set):
        raise PermissionDenied("you may not change this card's scenarios")
    form = ScenarioForm(
        request.POST or None, initial={"name": scenario.name, "text": scenario.text}
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.scenario_update(
                scenario=scenario,
                actor=request.user,
                name=form.cleaned_data["name"],
                text=form.cleaned_data["text"],
            )
        except (CardDocumentError, services.ScenarioNameError) as exc:
            _save_errors(form, exc)
        else:
            messages.success(request, f"Scenario {scenario.name!r} saved and run.")
            return _to_page(card)
    return _page(
        request, detail, editing=scenario, edit_form=form, status=400 if form.errors else 200
    )


@require_POST
@login_required
def scenario_delete(request: HttpRequest, code: str, slug: str, scenario_id: int) -> HttpResponse:
    card = _detail(request, code, slug).card
    scenario = services.scenario_get(card=card, scenario_id=scenario_id)
    services.scenario_delete(scenario=scenario, actor=request.user)
    messages.success(request, f"Scenario {scenario.name!r} deleted.")
    return _to_page(card)


@require_POST
@login_required
def scenarios_run(request: HttpRequest, code: str, slug: str) -> HttpResponse:
    card = _detail(request, code, slug).card
    ran = services.scenarios_run(card=card, actor=request.user)
    passed = sum(1 for s in ran if s.last_status == "pass")
    messages.success(
        request, f"Ran {len(ran)} scenario{'s' if len(ran) != 1 else ''}: {passed} passed."
    )
    return _to_page(card)
