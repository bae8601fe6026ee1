from django.apps import AppConfig


class StatsConfig(AppConfig):
    """The public history pages: a player's page, the most played cards (site-wide and per league) and a
    card's metagame on its page. Above scoring, whose results they read."""

    name = "stats"

    def ready(self):
        from rounds.catalog.popularity import register_play_counter

        # card_pages: a card's metagame on the rounds app's card page.
        from . import card_pages  # noqa: F401
        from .metagame import hands_per_card

        # Autocomplete offers first the cards played in the most revealed hands.
        register_play_counter(hands_per_card)
