"""Archive import of past rounds from forum text (issue 7)."""

from django.urls import path

from . import archive_views

app_name = "archive"

urlpatterns = [
    path("moderate/archive/import/", archive_views.import_round_page, name="import"),
]
