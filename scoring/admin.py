"""Read-only views of results for administrators: changes go through the pages and the API, which audit
them."""

from django.contrib import admin

from rounds.admin import ReadOnlyAdmin

from .models import BonusAward, Challenge, Match, MatchReport


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["id", "round", "hand_a", "hand_b", "points_a", "points_b", "status", "updated_at"]
    list_filter = ["status"]
    list_select_related = ["round__league"]


@admin.register(MatchReport)
class MatchReportAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "match",
        "reporter",
        "side",
        "points_a",
        "points_b",
        "version",
        "is_current",
        "created_at",
    ]
    list_select_related = ["reporter"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ["id", "match", "challenger", "state", "created_at", "resolved_at"]
    list_filter = ["state"]
    list_select_related = ["challenger"]


@admin.register(BonusAward)
class BonusAwardAdmin(ReadOnlyAdmin):
    list_display = ["id", "round", "player", "points", "reason", "awarded_by", "created_at"]
    list_select_related = ["round__league", "player", "awarded_by"]
