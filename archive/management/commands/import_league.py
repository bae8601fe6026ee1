import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from archive.transfer import TransferConflict, TransferFormatError, import_league_json

EXIT_CONFLICT, EXIT_UNREADABLE = 1, 2


class Command(BaseCommand):
    help = """Import a league written by export_league, in one transaction: nothing is written unless all is.

Users are matched by username; the missing ones are created without a usable password (they set one with
"forgot password", or an administrator runs changepassword). Timestamps, round numbers, the audit trail and
the hands' commitments are kept.

Exit status: 0 imported, 1 refused (a league of that name or number exists here), 2 unreadable or malformed
file."""

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help='The export, or "-" for standard input.')
        parser.add_argument(
            "--rename",
            metavar="NEW_NAME",
            help="Import the league under this name (its number is taken from it) instead of the file's.",
        )

    def handle(self, *args, file, rename=None, **options):
        text = _read_text(file)
        try:
            result = import_league_json(text, rename=rename)
        except TransferFormatError as error:
            raise CommandError(f"Nothing imported: {error}", returncode=EXIT_UNREADABLE) from error
        except TransferConflict as error:
            raise CommandError(f"Nothing imported: {error}", returncode=EXIT_CONFLICT) from error
        league = result.league
        self.stdout.write(f"Imported “{league.name}” as league {league.pk}.")
        written = ", ".join(f"{what} {count}" for what, count in result.counts.items() if count)
        self.stdout.write(f"Written: {written}.")
        if result.users_created:
            self.stdout.write(f"New users (no password yet): {', '.join(result.users_created)}.")
        if result.users_matched:
            self.stdout.write(f"Existing users: {', '.join(result.users_matched)}.")
        for warning in result.warnings:
            self.stderr.write(f"Warning: {warning}")


def _read_text(file):
    source = "standard input" if file == "-" else f'"{file}"'
    try:
        return sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CommandError(
            f"Cannot read {source}: it is not UTF-8 text.", returncode=EXIT_UNREADABLE
        ) from error
    except OSError as error:
        reason = error.strerror or str(error)
        raise CommandError(f"Cannot read {source}: {reason}.", returncode=EXIT_UNREADABLE) from error
