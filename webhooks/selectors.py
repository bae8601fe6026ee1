"""Read side: a league's webhooks with their last deliveries, in a constant number of queries."""

from django.db.models import OuterRef, Prefetch, Subquery

from rounds.models import League

from .models import Webhook, WebhookDelivery

LAST_DELIVERIES = 10


def webhooks_of_league(league: League, last: int = LAST_DELIVERIES) -> list[Webhook]:
    """The league's webhooks, each with `last_deliveries` (newest first, at most `last`): two queries."""
    latest_ids = (
        WebhookDelivery.objects.filter(webhook=OuterRef("webhook"))
        .order_by("-created_at", "-id")
        .values("id")[:last]
    )
    recent = (
        WebhookDelivery.objects.filter(id__in=Subquery(latest_ids))
        .defer("payload")
        .order_by("-created_at", "-id")
    )
    return list(
        Webhook.objects.filter(league=league)
        .select_related("created_by__profile")
        .prefetch_related(Prefetch("deliveries", queryset=recent, to_attr="last_deliveries"))
    )
