from argparse import Namespace
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from validator.mutants.cli import DESCRIPTION, UsageError, add_arguments, run


class Command(BaseCommand):
    help = DESCRIPTION

    def add_arguments(self, parser: CommandParser) -> None:
        add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            status = run(Namespace(**options))
        except UsageError as exc:
            raise CommandError(str(exc)) from exc
        if status:
            raise CommandError(f"the mutation run did not meet its bar (exit {status})")
