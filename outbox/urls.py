from django.urls import path

from . import views

app_name = "outbox"

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/read/", views.mark_read, name="mark-read"),
    path("notifications/<int:notification_id>/", views.open_notification, name="open"),
    path("notifications/preferences/", views.preference_page, name="preferences"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
