from django.urls import path

from . import feeds, follow_views, moderation_views, preview_views, round_views, views

app_name = "rounds"

urlpatterns = [
    path("cards/", views.card_search, name="card-search"),
    path("cards/autocomplete/", views.card_autocomplete, name="card-autocomplete"),
    path("cards/check/", views.card_check, name="card-check"),
    path("cards/<slug:slug>/", views.card_detail, name="card-detail"),
    path("cards/<slug:slug>/preview/", preview_views.card_preview, name="card-preview"),
    path("banned-lists/", views.banned_lists, name="banned-lists"),
    path("rounds/", round_views.round_list, name="round-list"),
    path("rounds/<int:round_id>/", round_views.round_detail, name="round-detail"),
    path(
        "rounds/<int:round_id>/export/announcement.bbcode",
        round_views.round_announcement,
        name="round-announcement",
    ),
    path("rules/", round_views.rules, name="rules"),
    path("leagues/<int:league_id>/feed.atom", feeds.league_feed, name="league-feed"),
    path("leagues/<int:league_id>/deadlines.ics", feeds.league_calendar, name="league-calendar"),
    path("leagues/<int:league_id>/follow/", follow_views.league_follow, name="league-follow"),
    path("leagues/<int:league_id>/unfollow/", follow_views.league_unfollow, name="league-unfollow"),
    path("moderate/", moderation_views.dashboard, name="moderate"),
    path("moderate/leagues/new/", moderation_views.league_create, name="moderate-league-create"),
    path("moderate/rounds/new/", moderation_views.round_create, name="moderate-round-create"),
    path("moderate/rounds/<int:round_id>/", moderation_views.round_manage, name="moderate-round"),
    path("moderate/rounds/<int:round_id>/edit/", moderation_views.round_edit, name="moderate-round-edit"),
    path(
        "moderate/rounds/<int:round_id>/accepted-cards/",
        moderation_views.accepted_card_add,
        name="moderate-accepted-card-add",
    ),
    path(
        "moderate/rounds/<int:round_id>/accepted-cards/<int:card_id>/withdraw/",
        moderation_views.accepted_card_withdraw,
        name="moderate-accepted-card-withdraw",
    ),
    path(
        "moderate/rounds/<int:round_id>/<slug:action>/",
        moderation_views.round_action,
        name="moderate-round-action",
    ),
]
