"""Pages of the rounds app that also show what later apps own (hands, results), without importing them:
rounds sits below submissions and scoring. Those apps register what they add to a page when they start
(their AppConfig.ready); the page asks for it by name."""

from collections import defaultdict

_providers = defaultdict(list)

ROUND_PAGE = "round-detail"  # provider(request, round_, now) -> context
ROUND_MANAGE_PAGE = "round-manage"  # provider(request, round_, now) -> context
CARD_PAGE = "card-detail"  # provider(request, card) -> context
# Links a later app adds to a league on the moderator's dashboard: provider(request, league) -> [link], each
# {"label", "url", "icon"} (a Bootstrap Icons name). No query: the dashboard lists every league.
LEAGUE_MODERATION_LINKS = "league-moderation-links"


def provides(page):
    """Register the decorated function as a context provider of `page`."""

    def register(provider):
        if provider not in _providers[page]:
            _providers[page].append(provider)
        return provider

    return register


def extra_context(page, *args):
    context = {}
    for provider in _providers[page]:
        context.update(provider(*args))
    return context


def extra_links(page, *args):
    """Every provider's list of links for `page`, in the order the apps registered them."""
    return [link for provider in _providers[page] for link in provider(*args)]
