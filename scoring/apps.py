from django.apps import AppConfig
from django.urls import reverse

from audit.labels import register_labels
from rounds import page_extensions

from .audit_labels import AUDIT_LABELS


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self):
        register_labels(AUDIT_LABELS)
        # receivers: tables after reveals, tallies after changes and disqualifications; notifications: the
        # players' messages; correction_notices: the messages when announced results change; round_pages: the
        # viewer's matches on a revealed round's page.
        from . import correction_notices, notifications, receivers, round_pages  # noqa: F401

        # The pages of scoring that rounds links to (a league's page, a round's results), by name.
        page_extensions.provides_url(page_extensions.LEAGUE_PAGE_URL, _league_url)
        page_extensions.provides_url(page_extensions.ROUND_RESULTS_URL, _round_results_url)


def _league_url(league_id):
    return reverse("scoring:league", args=[league_id])


def _round_results_url(round_id):
    return reverse("scoring:results", args=[round_id])
