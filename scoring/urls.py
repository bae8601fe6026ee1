from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path("rounds/<int:round_id>/results/", views.results, name="results"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("moderate/rounds/<int:round_id>/results/", views.moderate_results, name="moderate"),
]
