"""Player pages and the metagame. Included before rounds.urls, so `cards/most-played/` is this page
and not a card with that slug."""

from django.urls import path

from . import player_views

app_name = "players"

urlpatterns = [
    path("players/<str:username>/", player_views.player_detail, name="player"),
    path("cards/most-played/", player_views.most_played, name="most-played"),
    path("leagues/<int:league_id>/most-played/", player_views.league_most_played, name="league-most-played"),
]
