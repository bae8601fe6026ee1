"""Pages of the rounds app that also show what later apps own (hands, results), without importing them:
rounds sits below submissions and scoring. Those apps register what they add to a page when they start
(their AppConfig.ready); the page asks for it by name. Likewise the URLs of their pages that rounds links to
(provides_url / page_url)."""

from collections import defaultdict
from collections.abc import Callable

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


# Pages later apps own that rounds links to (a league's page, a round's results), by name: the app that owns
# the page registers how to build its URL when it starts (provides_url), rounds asks for it (page_url).
LEAGUE_PAGE_URL = "league"  # fn(league_id) -> the league's page
ROUND_RESULTS_URL = "round-results"  # fn(round_id) -> the round's results page

_url_builders: dict[str, Callable[..., str]] = {}


def provides_url(name: str, fn: Callable[..., str]) -> None:
    """Register `fn` as the builder of the URL called `name`; registering the same one again changes nothing,
    and a second app claiming a name already taken is a mistake."""
    if _url_builders.get(name, fn) is not fn:
        raise ValueError(f"The URL {name!r} is already provided by another app.")
    _url_builders[name] = fn


def page_url(name: str, *args: object) -> str:
    """The URL called `name` for `args`, built by the app that registered it; LookupError when no app did."""
    try:
        builder = _url_builders[name]
    except KeyError:
        raise LookupError(
            f"No app provides the URL {name!r}: is the app that owns that page installed?"
        ) from None
    return builder(*args)
