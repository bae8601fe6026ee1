from django.urls import path

from . import api

urlpatterns = [
    path("rounds/<int:round_id>/my-hand/", api.MyHandView.as_view(), name="api-my-hand"),
    path("rounds/<int:round_id>/hands/", api.RoundHandsView.as_view(), name="api-round-hands"),
    path("rounds/<int:round_id>/preview/", api.RoundPreviewView.as_view(), name="api-round-preview"),
    path("hands/<int:hand_id>/review/", api.HandReviewView.as_view(), name="api-hand-review"),
]
