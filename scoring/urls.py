from django.urls import path

from . import league_views, moderation_views, views

app_name = "scoring"

urlpatterns = [
    path("rounds/<int:round_id>/results/", views.results, name="results"),
    path("rounds/<int:round_id>/results/matrix/", views.results_matrix, name="results-matrix"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("moderate/rounds/<int:round_id>/results/", moderation_views.moderate_results, name="moderate"),
    path("leagues/", league_views.league_list, name="league-list"),
    path("leagues/<int:league_id>/", league_views.league_detail, name="league"),
    path(
        "leagues/<int:league_id>/export/standings.bbcode",
        league_views.league_export,
        {"kind": "bbcode"},
        name="league-bbcode",
    ),
    path(
        "leagues/<int:league_id>/export/standings.csv",
        league_views.league_export,
        {"kind": "csv"},
        name="league-csv",
    ),
    path("moderate/leagues/<int:league_id>/tiebreak/", league_views.league_tiebreak, name="league-tiebreak"),
    path("moderate/leagues/<int:league_id>/winners/", league_views.league_winners, name="league-winners"),
    path("moderate/leagues/<int:league_id>/settings/", league_views.league_settings, name="league-settings"),
]
