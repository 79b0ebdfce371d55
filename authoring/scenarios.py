"""A card's own scenarios (shared/design/scenario-format.md): stored with the card, run when
they are saved, when the card is saved and on demand, and their last result kept for the pages.

What a card's scenarios may use: every official set and the card's own set as it is saved now.
A scenario that names no `sets` is given all of them (the format would give it its inline
`cards` only); one that names some is given those plus the card's own set, so the card under
test is always there. Names found in several of the sets given need `Name@set-code`, as the
format says. Another author's sets and pack files (`pack:` names a file on the server) are not
available here.

Writes check `catalog.permissions.can_edit_set` and raise PermissionDenied, like the other
authoring services. A scenario whose YAML does not parse (syntax, unknown or missing keys) is
refused on create and update with CardDocumentError (each error with its path and line) and
nothing is stored; one that stops parsing later (the format changed, a set went away) is stored
with the status "error" and those messages when it is run.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404
from django.tasks import task
from django.utils import timezone

from accounts.queues import in_bulk_writes
from authoring.models import CardScenario, ScenarioStatus
from catalog.changes import CatalogChange
from catalog.models import Card, CardSet
from catalog.permissions import can_edit_set
from catalog.selectors import catalog_card_library
from validator.engine import (
    CardDocumentError,
    CardLibrary,
    DocumentError,
    ScenarioDocument,
    ScenarioError,
    forget_library_decks,
    line_for,
    parse_scenario,
    read_yaml,
    run_scenario,
)

logger = logging.getLogger(__name__)

Actor = User | AnonymousUser

MAX_SCENARIOS_PER_CARD = 50
MAX_SCENARIO_CHARS = 20_000
MAX_LOG_LINES = 300

__all__ = [
    "MAX_SCENARIOS_PER_CARD",
    "MAX_SCENARIO_CHARS",
    "ScenarioNameError",
    "card_scenario_library",
    "card_scenarios",
    "scenario_create",
    "scenario_delete",
    "scenario_get",
    "scenario_update",
    "scenarios_rerun",
    "scenarios_run",
    "scenarios_run_after_save",
]


class ScenarioNameError(Exception):
    """A scenario name that cannot be used (empty, too long, or taken on this card)."""

    def __init__(self, message: str) -> None:
        self.field = "name"
        self.message = message
        super().__init__(f"name: {message}")


# --------------------------------------------------------------------------------------------
# Reads
# --------------------------------------------------------------------------------------------


def card_scenarios(*, card: Card) -> list[CardScenario]:
    """The card's scenarios, by name, each with its last result."""
    return list(CardScenario.objects.filter(card=card).select_related("card").order_by("name"))


def scenario_get(*, card: Card, scenario_id: int) -> CardScenario:
    """One scenario of the card, or 404 (a scenario of another card is not found here)."""
    scenario = CardScenario.objects.filter(card=card, pk=scenario_id).select_related("card").first()
    if scenario is None:
        raise Http404("No such scenario")
    return scenario


def card_scenario_library(*, card: Card) -> CardLibrary:
    """The cards a card's scenarios run with: every official set, and the card's own set as it
    is saved now (its deleted cards left out)."""
    codes = {*_official_codes(), card.card_set.code}
    return catalog_card_library(set_codes=sorted(codes))


def _official_codes() -> list[str]:
    return list(CardSet.objects.filter(official=True).values_list("code", flat=True))


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------

Lines = dict[tuple[str | int, ...], int]


def _parse(text: str, *, name: str) -> tuple[ScenarioDocument, Lines]:
    """The scenario document of a YAML text, or ScenarioError naming each error's path and
    line. A text without `name:` takes the scenario's name."""
    if len(text) > MAX_SCENARIO_CHARS:
        raise ScenarioError(
            [DocumentError("", f"a scenario is at most {MAX_SCENARIO_CHARS:,} characters")]
        )
    try:
        parsed = read_yaml(text, "")
    except CardDocumentError as exc:
        raise ScenarioError(exc.errors) from exc
    data: Any = parsed.data
    if not isinstance(data, dict):
        raise ScenarioError(
            [DocumentError("", "a scenario is a mapping of keys: name, players, combat, ...", 1)]
        )
    if "name" not in data:
        data = {"name": name, **data}
    return parse_scenario(data, "", parsed.lines), parsed.lines


def _check_sources(document: ScenarioDocument, lines: Lines, available: list[str]) -> None:
    """Refuse what a card's scenario may not use: a pack file, or a set that is neither
    official nor the card's own."""
    errors: list[DocumentError] = []
    if document.pack is not None:
        errors.append(
            DocumentError(
                "pack",
                "pack files are not available to a card's scenarios; name `sets` or give "
                "inline `cards`",
                line_for(["pack"], lines),
            )
        )
    for index, code in enumerate(document.sets):
        if code not in available:
            errors.append(
                DocumentError(
                    f"sets[{index}]",
                    f"unknown set {code!r}: a card's scenarios may use the official sets and "
                    "the card's own set",
                    line_for(["sets", index], lines),
                )
            )
    if errors:
        raise ScenarioError(errors)


def _with_sets(document: ScenarioDocument, own_set: str, available: list[str]) -> ScenarioDocument:
    """The document with the sets it runs with: all of them when it names none, else those it
    names and the card's own set."""
    if not document.sets:
        return document.model_copy(update={"sets": list(available)})
    if own_set in document.sets:
        return document
    return document.model_copy(update={"sets": [*document.sets, own_set]})


def _validate(*, card: Card, name: str, text: str) -> tuple[str, str]:
    """The cleaned name and text, or ScenarioNameError / CardDocumentError."""
    name = name.strip()
    if not name:
        raise ScenarioNameError("give the scenario a name")
    if len(name) > 120:
        raise ScenarioNameError("at most 120 characters")
    try:
        document, lines = _parse(text, name=name)
        available = [*_official_codes(), card.card_set.code]
        _check_sources(document, lines, available)
    except ScenarioError as exc:
        raise CardDocumentError(exc.errors) from exc
    return name, text


def _require_edit(actor: Actor, card: Card) -> User | None:
    if not can_edit_set(actor, card.card_set):
        raise PermissionDenied(f"you may not change the scenarios of {card.name!r}")
    return actor if isinstance(actor, User) else None


def _check_name_free(card: Card, name: str, exclude: CardScenario | None) -> None:
    others = CardScenario.objects.filter(card=card, name__iexact=name)
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    if others.exists():
        raise ScenarioNameError(f"the card already has a scenario named {name!r}")


# --------------------------------------------------------------------------------------------
# Writes
# --------------------------------------------------------------------------------------------


def scenario_create(*, card: Card, actor: Actor, name: str, text: str) -> CardScenario:
    """Attach a new scenario to a card and run it at once.

    Raises PermissionDenied unless the actor may edit the card's set, ScenarioNameError for an
    empty or taken name, and CardDocumentError (every error with its path and line) when the
    YAML does not parse or uses a pack file or a set it may not; nothing is stored then."""
    user = _require_edit(actor, card)
    name, text = _validate(card=card, name=name, text=text)
    if CardScenario.objects.filter(card=card).count() >= MAX_SCENARIOS_PER_CARD:
        raise ScenarioNameError(f"a card has at most {MAX_SCENARIOS_PER_CARD} scenarios")
    _check_name_free(card, name, exclude=None)
    try:
        with transaction.atomic():
            scenario = CardScenario.objects.create(card=card, name=name, text=text, created_by=user)
    except IntegrityError as exc:  # the same name saved at the same moment by another request
        raise ScenarioNameError(f"the card already has a scenario named {name!r}") from exc
    _run_all([scenario], card)
    return scenario


def scenario_update(*, scenario: CardScenario, actor: Actor, name: str, text: str) -> CardScenario:
    """Change a scenario's name and YAML, and run it again. Raises like scenario_create; a
    refused change leaves the stored scenario and its last result as they were."""
    card = scenario.card
    _require_edit(actor, card)
    name, text = _validate(card=card, name=name, text=text)
    _check_name_free(card, name, exclude=scenario)
    scenario.name = name
    scenario.text = text
    try:
        with transaction.atomic():
            scenario.save(update_fields=["name", "text", "updated_at"])
    except IntegrityError as exc:
        scenario.refresh_from_db()
        raise ScenarioNameError(f"the card already has a scenario named {name!r}") from exc
    _run_all([scenario], card)
    return scenario


def scenario_delete(*, scenario: CardScenario, actor: Actor) -> None:
    """Remove a scenario from its card (for good: it is the author's own test, not the card)."""
    _require_edit(actor, scenario.card)
    scenario.delete()


def scenarios_run(*, card: Card, actor: Actor | None = None) -> list[CardScenario]:
    """Run every scenario of the card against the card as saved now and store each result
    (status, failures or errors, computed values, time, card revision).

    With an actor (a page, the API), the actor must be able to edit the card's set, or
    PermissionDenied is raised: a run writes. Without one (the run-on-save hook, scripts) no
    check is made."""
    if actor is not None:
        _require_edit(actor, card)
    scenarios = card_scenarios(card=card)
    _run_all(scenarios, card)
    return scenarios


def scenarios_run_after_save(change: CatalogChange) -> None:
    """The receiver of catalog changes (catalog/changes.py), so every writer of a card (the
    editor, the API, an import, a load, an accepted proposal, a revert) reruns its scenarios:
    once the save is committed, the scenarios of each card it saved run against the revision
    just saved and their results are stored.

    One card saved by one person (the editor, the API) has them run at once, so the page
    answering the save shows their results; more cards, or cards saved as bulk work (an
    import: accounts.queues.bulk_writes), are bulk work and queued. It checks no permission
    (the save did) and never raises for a scenario: one that cannot run is stored with the
    status "error". A change saving no card with scenarios costs one query."""
    if not change.cards_saved:
        return
    card_ids = sorted(
        set(
            CardScenario.objects.filter(card_id__in=change.cards_saved).values_list(
                "card_id", flat=True
            )
        )
    )
    if not card_ids:
        return
    if len(card_ids) == 1 and not in_bulk_writes():
        scenarios_rerun(card_ids=card_ids)
        return
    try:
        rerun_saved_cards_scenarios.enqueue(card_ids)
    except Exception:  # their last results stay, each naming the revision it ran against
        logger.exception("queueing the scenarios of cards %s failed", card_ids)


def scenarios_rerun(*, card_ids: list[int]) -> int:
    """Run every scenario of these cards (those still live) against the cards as saved now,
    storing each result; returns how many cards were run."""
    cards = list(Card.objects.select_related("card_set").filter(pk__in=card_ids).order_by("pk"))
    for card in cards:
        _run_all(card_scenarios(card=card), card)
    return len(cards)


@task()
def rerun_saved_cards_scenarios(card_ids: list[int]) -> int:
    """The background task: run the scenarios of these saved cards (`scenarios_rerun`)."""
    return scenarios_rerun(card_ids=card_ids)


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------


def _run_all(scenarios: list[CardScenario], card: Card) -> None:
    if not scenarios:
        return
    card.refresh_from_db(fields=["revision"])
    library = card_scenario_library(card=card)
    available = list(dict.fromkeys([*_official_codes(), card.card_set.code]))
    now = timezone.now()
    try:
        results = [_run_one(scenario, card, library, available) for scenario in scenarios]
    finally:
        forget_library_decks(library)
    for scenario, (status, messages, values) in zip(scenarios, results, strict=True):
        scenario.last_status = status
        scenario.last_messages = messages
        scenario.last_values = values
        scenario.last_run_at = now
        scenario.last_card_revision = card.revision
        scenario.save(
            update_fields=[
                "last_status",
                "last_messages",
                "last_values",
                "last_run_at",
                "last_card_revision",
            ]
        )


def _run_one(
    scenario: CardScenario, card: Card, library: CardLibrary, available: list[str]
) -> tuple[str, list[str], dict[str, Any]]:
    """(status, messages, values) of one run; never raises for the scenario's sake."""
    try:
        document, lines = _parse(scenario.text, name=scenario.name)
        _check_sources(document, lines, available)
        document = _with_sets(document, card.card_set.code, available)
        result = run_scenario(document, lines=lines, library=library)
    except ScenarioError as exc:
        return ScenarioStatus.ERROR, [str(e) for e in exc.errors], {}
    except Exception as exc:  # an engine bug must not break the card's save
        logger.exception("scenario %s of card %s crashed the engine", scenario.pk, card.pk)
        return ScenarioStatus.ERROR, [f"the rules engine stopped: {type(exc).__name__}: {exc}"], {}
    values = dict(result.values)
    if isinstance(values.get("log"), list):
        values["log"] = [str(line) for line in values["log"][-MAX_LOG_LINES:]]
    status = ScenarioStatus.PASS if result.passed else ScenarioStatus.FAIL
    return status, list(result.failures), values
