from django.urls import path

from . import accepted_cards_api, api, round_api

urlpatterns = [
    path("cards/", api.CardSearchView.as_view(), name="api-cards"),
    path("cards/resolve/", api.CardResolveView.as_view(), name="api-card-resolve"),
    path("banned-lists/", api.BannedListsView.as_view(), name="api-banned-lists"),
    path("leagues/", round_api.LeagueCreateView.as_view(), name="api-league-create"),
    path("leagues/<int:league_id>/", round_api.LeagueDetailView.as_view(), name="api-league-detail"),
    path("leagues/<int:league_id>/follow/", round_api.LeagueFollowView.as_view(), name="api-league-follow"),
    path("rounds/", round_api.RoundListCreateView.as_view(), name="api-rounds"),
    path("rounds/<int:round_id>/", round_api.RoundDetailView.as_view(), name="api-round"),
    path("rounds/<int:round_id>/close/", round_api.RoundCloseView.as_view(), name="api-round-close"),
    path(
        "rounds/<int:round_id>/accepted-cards/",
        accepted_cards_api.RoundAcceptedCardsView.as_view(),
        name="api-round-accepted-cards",
    ),
    path(
        "rounds/<int:round_id>/accepted-cards/<int:card_id>/",
        accepted_cards_api.RoundAcceptedCardView.as_view(),
        name="api-round-accepted-card",
    ),
]
