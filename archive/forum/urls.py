"""Archive import of past rounds from forum posts, and correction replies to them."""

from django.urls import path

from . import views

app_name = "archive"

urlpatterns = [
    path("moderate/archive/import/", views.import_round_page, name="import"),
    path(
        "moderate/archive/rounds/<int:round_id>/correction/",
        views.correction_page,
        name="correction",
    ),
]
