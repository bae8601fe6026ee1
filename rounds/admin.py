from django.contrib import admin

from .models import League, Round


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "rounds_planned", "created_at"]
    search_fields = ["name"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["title", "league", "number", "hand_size", "state", "deadline"]
    list_filter = ["state", "league"]
    search_fields = ["title"]
