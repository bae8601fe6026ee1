"""Send the outbox's due messages now: for installations without a worker (the embedded default),
from cron."""

from django.core.management.base import BaseCommand

from outbox import services


class Command(BaseCommand):
    help = (
        "Sends every outbox message that is due (pending and past its retry time), then reports the counts."
    )

    def handle(self, *args, **options):
        counts = services.deliver_due()
        self.stdout.write(", ".join(f"{outcome}: {count}" for outcome, count in counts.items()))
