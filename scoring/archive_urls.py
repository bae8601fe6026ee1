"""Archive import of past rounds from forum posts, and correction replies to them."""

from django.urls import path

from . import archive_views

app_name = "archive"

urlpatterns = [
    path("moderate/archive/import/", archive_views.import_round_page, name="import"),
    path(
        "moderate/archive/rounds/<int:round_id>/correction/",
        archive_views.correction_page,
        name="correction",
    ),
]
