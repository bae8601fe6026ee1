from django.urls import path

from .api import league, matches, rounds, rows, tables

urlpatterns = [
    path("rounds/<int:round_id>/matches/", matches.RoundMatchesView.as_view(), name="api-round-matches"),
    path("rounds/<int:round_id>/rows/", rows.RoundRowsView.as_view(), name="api-round-rows"),
    path(
        "rounds/<int:round_id>/posted-rows/", rows.RoundPostedRowsView.as_view(), name="api-round-posted-rows"
    ),
    path("rounds/<int:round_id>/finalize/", rounds.RoundFinalizeView.as_view(), name="api-round-finalize"),
    path("rounds/<int:round_id>/reopen/", rounds.RoundReopenView.as_view(), name="api-round-reopen"),
    path("rounds/<int:round_id>/table/", tables.RoundTableView.as_view(), name="api-round-table"),
    path(
        "rounds/<int:round_id>/table/progress/",
        tables.RoundTableProgressView.as_view(),
        name="api-round-table-progress",
    ),
    path("rounds/<int:round_id>/bonus/", rounds.RoundBonusView.as_view(), name="api-round-bonus"),
    path(
        "rounds/<int:round_id>/bonus/<int:award_id>/",
        rounds.RoundBonusAwardView.as_view(),
        name="api-round-bonus-award",
    ),
    path(
        "rounds/<int:round_id>/export/bbcode/",
        rounds.RoundExportView.as_view(),
        {"kind": "bbcode"},
        name="api-round-export-bbcode",
    ),
    path(
        "rounds/<int:round_id>/export/csv/",
        rounds.RoundExportView.as_view(),
        {"kind": "csv"},
        name="api-round-export-csv",
    ),
    path(
        "leagues/<int:league_id>/standings/",
        league.LeagueStandingsView.as_view(),
        name="api-league-standings",
    ),
    path(
        "leagues/<int:league_id>/tiebreak/", league.LeagueTiebreakView.as_view(), name="api-league-tiebreak"
    ),
    path("matches/<int:match_id>/reports/", matches.MatchReportsView.as_view(), name="api-match-reports"),
    path("matches/<int:match_id>/agree/", matches.MatchAgreeView.as_view(), name="api-match-agree"),
    path(
        "matches/<int:match_id>/challenges/",
        matches.MatchChallengesView.as_view(),
        name="api-match-challenges",
    ),
    path("matches/<int:match_id>/result/", matches.MatchResultView.as_view(), name="api-match-result"),
    path(
        "challenges/<int:challenge_id>/resolve/",
        matches.ChallengeResolveView.as_view(),
        name="api-challenge-resolve",
    ),
]
