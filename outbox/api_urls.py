from django.urls import path

from . import api

urlpatterns = [
    path("notifications/", api.NotificationsView.as_view(), name="api-notifications"),
    path("notifications/read/", api.MarkReadView.as_view(), name="api-notifications-read"),
    path("notification-preferences/", api.PreferencesView.as_view(), name="api-notification-preferences"),
]
