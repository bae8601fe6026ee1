import datetime

from django.core.management.base import BaseCommand, CommandError

from rounds.catalog.loader import import_cards, load_snapshot
from rounds.catalog.sources import CardDataError


class Command(BaseCommand):
    help = (
        "Add or update cards from Scryfall bulk data (oracle_cards/default_cards) or MTGJSON "
        "(AtomicCards/AllPrintings), .json or .json.gz, from a file or a URL. Without a source, reloads the "
        "snapshot shipped with the app. Running it twice changes nothing the second time."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", nargs="?", help="Path or http(s) URL of the card data file.")
        parser.add_argument(
            "--as-of",
            type=datetime.date.fromisoformat,
            help="Date of the data (YYYY-MM-DD); default: the file's date, never older than the catalog.",
        )
        parser.add_argument("--no-progress", action="store_true", help="Do not show the progress bar.")

    def handle(self, *args, source=None, as_of=None, no_progress=False, **options):
        progress = not no_progress and options.get("verbosity", 1) > 0
        try:
            if source:
                result = import_cards(source, as_of=as_of, progress=progress)
            else:
                result = load_snapshot(progress=progress)
        except CardDataError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Cards: {result.added} added, {result.changed} changed, {result.unchanged} unchanged "
                f"({result.sets_added} new sets, {result.printings_added} new printings, "
                f"{result.legality_changes} legality changes recorded) "
                f"in {result.seconds:.1f} s. Catalog as of {result.version.as_of}: "
                f"{result.version.card_count} cards."
            )
        )
