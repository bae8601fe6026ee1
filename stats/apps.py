from django.apps import AppConfig


class StatsConfig(AppConfig):
    """The public history pages: a player's page, the most played cards (site-wide and per league) and a
    card's metagame on its page. Above scoring, whose results they read."""

    name = "stats"

    def ready(self):
        # card_pages: a card's metagame on the rounds app's card page.
        from . import card_pages  # noqa: F401
