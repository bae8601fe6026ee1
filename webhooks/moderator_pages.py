"""The link to a league's webhooks on the moderator's dashboard (rounds.page_extensions)."""

from django.urls import reverse

from rounds.page_extensions import LEAGUE_MODERATION_LINKS, provides


@provides(LEAGUE_MODERATION_LINKS)
def webhooks_link(request, league):
    return [{"label": "Webhooks", "url": reverse("webhooks:league", args=[league.pk]), "icon": "broadcast"}]
