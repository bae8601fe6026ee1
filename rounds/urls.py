from django.urls import path

from . import views

app_name = "rounds"

urlpatterns = [
    path("cards/", views.card_search, name="card-search"),
    path("cards/autocomplete/", views.card_autocomplete, name="card-autocomplete"),
    path("cards/check/", views.card_check, name="card-check"),
    path("cards/<slug:slug>/", views.card_detail, name="card-detail"),
    path("banned-lists/", views.banned_lists, name="banned-lists"),
]
