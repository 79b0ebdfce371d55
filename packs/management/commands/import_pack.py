from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from packs.selectors import PackBuildError
from packs.services import pack_import
from validator.engine import CardDocumentError


class Command(BaseCommand):
    help = (
        "Load every set of a pack file into the database, all or nothing. Without --owner the "
        "sets keep their official flag; with it they become that user's private sets."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--owner", help="username that will own the imported sets")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        owner = None
        if options["owner"]:
            owner = User.objects.filter(username=options["owner"]).first()
            if owner is None:
                raise CommandError(f"no user {options['owner']!r}")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path}: cannot read: {exc}") from exc
        try:
            created = pack_import(actor=owner, text=text, source=str(path))
        except CardDocumentError as exc:  # PackError too: each line names path (and line)
            raise CommandError("nothing imported:\n" + "\n".join(exc.lines())) from exc
        except PackBuildError as exc:
            raise CommandError(
                "nothing imported:\n" + "\n".join(f"{path}: {p}: {m}" for p, m in exc.errors)
            ) from exc
        for card_set in created:
            self.stdout.write(f"{card_set.code}: {card_set.cards.count()} cards")
