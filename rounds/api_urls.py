from django.urls import path

from . import api

urlpatterns = [
    path("cards/", api.CardSearchView.as_view(), name="api-cards"),
    path("cards/resolve/", api.CardResolveView.as_view(), name="api-card-resolve"),
    path("banned-lists/", api.BannedListsView.as_view(), name="api-banned-lists"),
]
