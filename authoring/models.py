"""What the authoring side stores beyond the catalog: the scenarios card authors attach to
their cards (shared/design/scenario-format.md), with the result of their last run."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from catalog.models import Card


class ScenarioStatus(models.TextChoices):
    UNRUN = "unrun", "Not run yet"
    PASS = "pass", "Passes"
    FAIL = "fail", "Fails"
    ERROR = "error", "Cannot run"


class CardScenario(models.Model):
    """A card author's own test case: a scenario in YAML, run against the card as saved."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="scenarios")
    name = models.CharField(max_length=120)
    text = models.TextField(help_text="The scenario, in YAML.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="card_scenarios",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # The last run: its status, the failures or errors, and every value the runner computed.
    last_status = models.CharField(
        max_length=10, choices=ScenarioStatus.choices, default=ScenarioStatus.UNRUN
    )
    last_messages = models.JSONField(default=list, blank=True)
    last_values = models.JSONField(default=dict, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    # The card's revision the last run played (a later save makes the result stale).
    last_card_revision = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["card", "name"]
        constraints = [
            models.UniqueConstraint(fields=["card", "name"], name="cardscenario_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_id})"

    @property
    def first_message(self) -> str:
        return str(self.last_messages[0]) if self.last_messages else ""

    @property
    def is_stale(self) -> bool:
        """Whether the card has been saved since the last run."""
        return self.last_card_revision is not None and self.last_card_revision != (
            self.card.revision
        )

    def value_rows(self) -> list[tuple[str, str]]:
        """The computed values of the last run as (label, text) rows, the log left out."""
        return [
            (key.replace("_", " "), _value_text(value))
            for key, value in self.last_values.items()
            if key != "log"
        ]

    def log_lines(self) -> list[str]:
        log = self.last_values.get("log", [])
        return [str(line) for line in log] if isinstance(log, list) else []


def _value_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value_text(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(_value_text(v) for v in value) or "none"
    return str(value)
