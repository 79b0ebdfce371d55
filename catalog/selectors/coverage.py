"""A set's coverage table: how its cards fare in the validator's stored reports, in all and
by kind. Reads Card and the reports (validator.selectors.checks_for; a report of other code is
no verdict: its card counts as being checked again, `rechecking`)."""

from __future__ import annotations

from catalog.models import Card, CardSet
from catalog.selectors.labels import kind_label
from validator.checks import SUMMARY_KEYS, CardReport, coverage
from validator.selectors import checks_for, stale_checks_for


def set_coverage(*, card_set: CardSet) -> dict[str, object]:
    """The set's coverage table from the stored reports: totals and one row per kind.
    Cards not checked yet count in `cards` and their encoding, not as verified: `unchecked`
    counts those never checked, `rechecking` those checked by other code only."""
    cards = list(Card.objects.filter(card_set=card_set))
    checks = checks_for(document_hashes=[c.document_hash for c in cards])
    unreported = {c.document_hash for c in cards} - checks.keys()
    stale = stale_checks_for(document_hashes=unreported) if unreported else {}
    never = unreported - stale.keys()
    reports = [
        CardReport(
            set_code=card_set.code,
            name=c.name,
            kind=c.kind,
            encoding=c.encoding,
            status=checks[c.document_hash].status if c.document_hash in checks else "unchecked",
            verified=c.document_hash in checks and checks[c.document_hash].verified,
        )
        for c in cards
    ]
    table = coverage(reports)
    row = table["sets"].get(card_set.code, {**table["summary"], "kinds": {}})
    return {
        "keys": SUMMARY_KEYS,
        "total": [row[k] for k in SUMMARY_KEYS],
        "kinds": [
            (kind_label(k), [v[key] for key in SUMMARY_KEYS]) for k, v in row["kinds"].items()
        ],
        "unchecked": sum(1 for c in cards if c.document_hash in never),
        "rechecking": sum(1 for c in cards if c.document_hash in stale),
    }
