from django.urls import path

from . import api

urlpatterns = [
    path("rounds/<int:round_id>/matches/", api.RoundMatchesView.as_view(), name="api-round-matches"),
    path("rounds/<int:round_id>/rows/", api.RoundRowsView.as_view(), name="api-round-rows"),
    path(
        "rounds/<int:round_id>/posted-rows/", api.RoundPostedRowsView.as_view(), name="api-round-posted-rows"
    ),
    path("rounds/<int:round_id>/finalize/", api.RoundFinalizeView.as_view(), name="api-round-finalize"),
    path("rounds/<int:round_id>/reopen/", api.RoundReopenView.as_view(), name="api-round-reopen"),
    path("rounds/<int:round_id>/table/", api.RoundTableView.as_view(), name="api-round-table"),
    path(
        "rounds/<int:round_id>/table/progress/",
        api.RoundTableProgressView.as_view(),
        name="api-round-table-progress",
    ),
    path("rounds/<int:round_id>/bonus/", api.RoundBonusView.as_view(), name="api-round-bonus"),
    path(
        "rounds/<int:round_id>/bonus/<int:award_id>/",
        api.RoundBonusAwardView.as_view(),
        name="api-round-bonus-award",
    ),
    path(
        "rounds/<int:round_id>/export/bbcode/",
        api.RoundExportView.as_view(),
        {"kind": "bbcode"},
        name="api-round-export-bbcode",
    ),
    path(
        "rounds/<int:round_id>/export/csv/",
        api.RoundExportView.as_view(),
        {"kind": "csv"},
        name="api-round-export-csv",
    ),
    path(
        "leagues/<int:league_id>/standings/", api.LeagueStandingsView.as_view(), name="api-league-standings"
    ),
    path("leagues/<int:league_id>/tiebreak/", api.LeagueTiebreakView.as_view(), name="api-league-tiebreak"),
    path("matches/<int:match_id>/reports/", api.MatchReportsView.as_view(), name="api-match-reports"),
    path(
        "matches/<int:match_id>/challenges/", api.MatchChallengesView.as_view(), name="api-match-challenges"
    ),
    path("matches/<int:match_id>/result/", api.MatchResultView.as_view(), name="api-match-result"),
    path(
        "challenges/<int:challenge_id>/resolve/",
        api.ChallengeResolveView.as_view(),
        name="api-challenge-resolve",
    ),
]
