from django.core.management.base import BaseCommand, CommandError

from archive.transfer import LeagueTransferError, export_league_json

EXIT_UNKNOWN_LEAGUE = 1


class Command(BaseCommand):
    help = """Write one league as a JSON document on standard output, for import_league on another instance:
its rounds and rules, hands with every version, reviews, matches, reports, challenges, bonuses, tallies, the
audit trail, and the users it names (username, e-mail, names, forum name, time zone; never a password).

Exit status: 0 written, 1 no such league."""

    def add_arguments(self, parser):
        parser.add_argument("league_id", metavar="ID", help="The league's id (as in /leagues/<id>/).")

    def handle(self, *args, league_id, **options):
        try:
            text = export_league_json(league_id)
        except LeagueTransferError as error:
            raise CommandError(str(error), returncode=EXIT_UNKNOWN_LEAGUE) from error
        self.stdout.write(text)
