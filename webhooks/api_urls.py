from django.urls import path

from . import api

urlpatterns = [
    path("leagues/<int:league_id>/webhooks/", api.LeagueWebhooksView.as_view(), name="api-league-webhooks"),
    path("webhooks/<int:webhook_id>/", api.WebhookView.as_view(), name="api-webhook"),
    path("webhooks/<int:webhook_id>/test/", api.WebhookTestView.as_view(), name="api-webhook-test"),
]
