"""API of the forum archive (docs/api.md): a past round imported from a forum post, and a correction reply
applied to an imported round."""

from django.urls import path

from . import api

urlpatterns = [
    path("archive/preview/", api.ArchivePreviewView.as_view(), name="api-archive-preview"),
    path("archive/import/", api.ArchiveImportView.as_view(), name="api-archive-import"),
    path(
        "rounds/<int:round_id>/corrections/",
        api.RoundCorrectionView.as_view(),
        name="api-round-corrections",
    ),
]
