from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.management.base import BaseCommand, CommandError, CommandParser

from authoring.transfer import set_import
from catalog.models import CardSet, Visibility
from catalog.services import SetError, StaleRevisionError
from validator.engine import CardDocumentError


class Command(BaseCommand):
    help = (
        "Import a YAML set file as USERNAME: a new custom set, or with --into CODE an upsert "
        "of its cards (by name) into that set. The file is checked whole first; any error "
        "writes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the set file")
        parser.add_argument("--owner", required=True, help="the user who imports it")
        parser.add_argument("--into", metavar="CODE", help="an existing set to import into")
        parser.add_argument(
            "--visibility",
            choices=Visibility.values,
            default=Visibility.PRIVATE,
            help="of a new set (default: private)",
        )
        parser.add_argument("--verbose-cards", action="store_true", help="list each card")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        owner = User.objects.filter(username=options["owner"]).first()
        if owner is None:
            raise CommandError(f"no user named {options['owner']!r}")
        into = None
        if options["into"]:
            into = CardSet.objects.filter(code=options["into"]).first()
            if into is None:
                raise CommandError(f"no set with the code {options['into']!r}")
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path}: cannot read: {exc}") from exc
        try:
            report = set_import(
                owner=owner,
                text=text,
                source=str(path),
                into=into,
                visibility=options["visibility"],
            )
        except CardDocumentError as exc:
            for line in exc.lines():
                self.stderr.write(line)
            count = len(exc.errors)
            raise CommandError(
                f"{count} error{'s' if count != 1 else ''}; nothing was written"
            ) from exc
        except SetError as exc:
            raise CommandError(f"{path}: {exc.field}: {exc.message}") from exc
        except (PermissionDenied, StaleRevisionError) as exc:
            raise CommandError(f"{path}: {exc}; nothing was written") from exc
        verb = "created" if report.set_created else "updated"
        self.stdout.write(f"{report.summary()} (set {verb})")
        if options["verbose_cards"]:
            for name in report.created:
                self.stdout.write(f"  + {name}")
            for name in report.updated:
                self.stdout.write(f"  ~ {name}")
