from django.urls import path

from . import views

app_name = "webhooks"

urlpatterns = [
    path("moderate/leagues/<int:league_id>/webhooks/", views.league_webhooks, name="league"),
    path("moderate/webhooks/<int:webhook_id>/test/", views.webhook_test, name="test"),
    path("moderate/webhooks/<int:webhook_id>/delete/", views.webhook_delete, name="delete"),
]
