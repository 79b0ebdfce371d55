import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.selectors import catalog_cards
from validator.checks import SUMMARY_KEYS, CardReport, check_language, coverage
from validator.services import cards_validate

STATUS_WORD = {"pass": "PASS", "warn": "WARN", "fail": "FAIL"}


class Command(BaseCommand):
    help = (
        "Exercise every catalog card's encoded effect in the rules engine and report: a line per "
        "card and a coverage table per set and kind, then the checks of the effect language on "
        "synthetic cards. Exits non-zero when any card or language check fails. "
        "Unchanged cards reuse their stored report."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--set", dest="set_code", help="only this set")
        parser.add_argument("--card", help="only cards with this name (any case)")
        parser.add_argument("--json", action="store_true", help="one JSON object")
        parser.add_argument("--markdown", action="store_true", help="Markdown tables")
        parser.add_argument("--force", action="store_true", help="check again even if unchanged")

    def handle(self, *args: Any, **options: Any) -> None:
        set_codes = [options["set_code"]] if options["set_code"] else None
        cards = catalog_cards(set_codes=set_codes)
        if options["card"]:
            wanted = options["card"].casefold()
            cards = [
                (code, doc) for code, doc in cards if str(doc.get("name", "")).casefold() == wanted
            ]
        if not cards:
            raise CommandError(
                "no cards match (is the catalog loaded? `python manage.py load_catalog`)"
            )
        # Whole games need whole sets, even when only some cards are being checked.
        deck = catalog_cards(set_codes=sorted({code for code, _ in cards}))
        reports = cards_validate(cards=cards, deck=deck, force=options["force"])
        table = coverage(reports)
        # The effect language on synthetic cards: what no catalog card shows (a second or two).
        language = check_language()
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "summary": table["summary"],
                        "sets": table["sets"],
                        "cards": [r.as_json() for r in reports],
                        "language": [r.as_json() for r in language],
                    },
                    sort_keys=True,
                )
            )
        elif options["markdown"]:
            self._markdown(reports, table)
            self._markdown_language(language)
        else:
            self._text_language(language)  # before the cards, so the coverage table ends it
            self._text(reports, table)
        failing = table["summary"]["failing"]
        language_failing = sum(r.status == "fail" for r in language)
        if failing or language_failing:
            raise CommandError(
                f"{failing} card(s) fail, {language_failing} check(s) of the effect language fail"
            )

    def _text_language(self, language: list[CardReport]) -> None:
        self.stdout.write("The effect language on synthetic cards:")
        for report in language:
            self.stdout.write(f"{STATUS_WORD[report.status]} {report.set_code} / {report.name}")
            for message in report.messages:
                self.stdout.write(f"    {message}")
        self.stdout.write("")

    def _markdown_language(self, language: list[CardReport]) -> None:
        self.stdout.write("\n## The effect language on synthetic cards\n")
        self.stdout.write("| check | status | scenarios | messages |")
        self.stdout.write("|---|---|---:|---|")
        for r in language:
            messages = "<br>".join(m.replace("|", "\\|") for m in r.messages)
            self.stdout.write(f"| {r.name} | {r.status} | {r.scenarios_run} | {messages} |")

    def _text(self, reports: list[CardReport], table: dict[str, Any]) -> None:
        for report in reports:
            line = f"{STATUS_WORD[report.status]} {report.set_code} / {report.name}"
            if report.verified:
                line += " (verified)"
            self.stdout.write(line)
            for message in report.messages:
                self.stdout.write(f"    {message}")
        self.stdout.write("")
        header = f"{'set / kind':<40}" + "".join(f"{k:>10}" for k in SUMMARY_KEYS)
        self.stdout.write(header)
        for code, row in table["sets"].items():
            self.stdout.write(f"{code:<40}" + "".join(f"{row[k]:>10}" for k in SUMMARY_KEYS))
            for kind, kind_row in row["kinds"].items():
                self.stdout.write(
                    f"  {kind:<38}" + "".join(f"{kind_row[k]:>10}" for k in SUMMARY_KEYS)
                )
        total = table["summary"]
        self.stdout.write(f"{'all':<40}" + "".join(f"{total[k]:>10}" for k in SUMMARY_KEYS))

    def _markdown(self, reports: list[CardReport], table: dict[str, Any]) -> None:
        write = self.stdout.write
        for code, row in table["sets"].items():
            write(f"## {code}\n")
            write("| kind | " + " | ".join(SUMMARY_KEYS) + " |")
            write("|---|" + "---:|" * len(SUMMARY_KEYS))
            for kind, kind_row in row["kinds"].items():
                write(f"| {kind} | " + " | ".join(str(kind_row[k]) for k in SUMMARY_KEYS) + " |")
            write("| **all** | " + " | ".join(f"**{row[k]}**" for k in SUMMARY_KEYS) + " |\n")
        write("## Cards\n")
        write("| set | card | encoding | status | messages |")
        write("|---|---|---|---|---|")
        for r in reports:
            messages = "<br>".join(m.replace("|", "\\|") for m in r.messages)
            write(f"| {r.set_code} | {r.name} | {r.encoding} | {r.status} | {messages} |")
