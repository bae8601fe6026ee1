"""API of a league's webhooks (docs/api.md): list and add (`/api/leagues/{id}/webhooks/`), remove
(`/api/webhooks/{id}/`), send a test message (`/api/webhooks/{id}/test/`). Moderators of the league only."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.api_fields import Choice, Flag, Text, Whole
from phm.schema import may_conflict, refine

from . import selectors, services
from .models import EVENTS, Webhook


class DeliverySerializer(serializers.Serializer):
    id = Whole()
    event = Text()
    state = Choice(choices=["pending", "sent", "failed"])
    status_code = Whole(source="last_status_code", allow_null=True)
    attempts = Whole()
    error = Text(
        source="last_error",
        help_text=(
            'Empty, or "delivery failed (HTTP <status>)", "delivery failed (timeout)", "delivery failed '
            '(refused)" (unreachable, whatever the reason), "The webhook is switched off."'
        ),
    )
    created_at = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    sent_at = serializers.DateTimeField(allow_null=True)


class WebhookSerializer(serializers.Serializer):
    id = Whole()
    league = Whole(source="league_id")
    kind = Choice(choices=Webhook.Kind.values)
    url = Text(
        source="url_display", help_text="Its last path segment shortened (a Discord URL ends with its token)."
    )
    events = serializers.ListField(child=Choice(choices=EVENTS))
    secret_hint = Text(help_text="The secret's last four characters (JSON webhooks).")
    active = Flag()
    created_by = Text(source="created_by.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    deliveries = DeliverySerializer(
        source="last_deliveries", many=True, help_text="The last 10 deliveries, newest first."
    )


class WebhookCreatedSerializer(WebhookSerializer):
    url = Text()
    secret = Text(
        help_text="The HMAC key of X-PHM-Signature, in full: shown in this answer only. Empty for Discord."
    )


class WebhookInputSerializer(serializers.Serializer):
    url = Text(max_length=2000, trim_whitespace=True)
    kind = Choice(choices=Webhook.Kind.values)
    events = serializers.ListField(child=Text(max_length=30), max_length=10)
    secret = Text(
        required=False, allow_blank=True, max_length=200, help_text="JSON webhooks; generated when left out."
    )


@refine("WebhookInputRequest")
def _known_events(schema):
    """At least one event, each one the site sends."""
    events = {**schema["properties"]["events"], "minItems": 1, "items": {"enum": list(EVENTS)}}
    return {**schema, "properties": {**schema["properties"], "events": events}}


@may_conflict
class LeagueWebhooksView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A league's webhooks",
        description="Each with its last 10 deliveries (event, state, status code, attempts, times).",
        responses=WebhookSerializer(many=True),
    )
    def get(self, request, league_id):
        league = services.league_for(request.user, league_id)
        return Response(WebhookSerializer(selectors.webhooks_of_league(league), many=True).data)

    @extend_schema(
        summary="Add a webhook to a league",
        description=(
            "Discord webhook URL or a generic JSON receiver (https; http only to 127.0.0.1/localhost when "
            "DEBUG is on). A JSON webhook's secret is generated when not given and is returned in full only "
            "in this answer."
        ),
        request=WebhookInputSerializer,
        responses={201: WebhookCreatedSerializer},
    )
    def post(self, request, league_id):
        league = services.league_for(request.user, league_id)
        incoming = WebhookInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        webhook, secret = services.create_webhook(
            actor=request.user, league=league, **incoming.validated_data
        )
        webhook.last_deliveries = []
        data = WebhookCreatedSerializer(webhook).data
        data["secret"] = secret
        return Response(data, status=status.HTTP_201_CREATED)


@may_conflict
class WebhookView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Remove a webhook", responses={204: None})
    def delete(self, request, webhook_id):
        services.delete_webhook(actor=request.user, webhook_id=webhook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


@may_conflict
class WebhookTestView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Send a test message to a webhook",
        request=None,
        responses={202: DeliverySerializer},
    )
    def post(self, request, webhook_id):
        delivery = services.send_test(actor=request.user, webhook_id=webhook_id)
        delivery.refresh_from_db()  # sent already when the tasks run in this process
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
