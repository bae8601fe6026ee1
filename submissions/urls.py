from django.urls import path, re_path

from . import calendar_views, review_views, views

app_name = "submissions"

urlpatterns = [
    path("rounds/<int:round_id>/my-hand/", views.my_hand, name="my-hand"),
    path("rounds/<int:round_id>/my-hand/suggest/", views.card_suggestions, name="card-suggestions"),
    path("rounds/<int:round_id>/my-hand/check/", views.card_check, name="card-check"),
    path("rounds/<int:round_id>/my-hand/versions/<int:version>/", views.receipt, name="receipt"),
    path("rounds/<int:round_id>/export/hands.bbcode", views.hands_bbcode, name="hands-bbcode"),
    path("hands/verify/", views.verify, name="verify"),
    re_path(
        r"^calendar/(?P<token>[A-Za-z0-9_-]{1,64})\.ics$",
        calendar_views.personal_calendar,
        name="personal-calendar",
    ),
    path("moderate/rounds/<int:round_id>/hands/", review_views.review_hands, name="review"),
    path("moderate/rounds/<int:round_id>/hands/preview/", review_views.declare_not_playing, name="declare"),
    path("moderate/hands/<int:hand_id>/review/", review_views.review_action, name="review-action"),
]
