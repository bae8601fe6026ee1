from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.api import obtain_token

from . import health, views

api_patterns = [
    path("auth/token/", obtain_token, name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("rounds.api_urls")),
    path("", include("submissions.api_urls")),
    path("", include("scoring.api_urls")),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("api/", include(api_patterns)),
    path("admin/", admin.site.urls),
    # Before rounds.urls: "moderate/rounds/<id>/hands/" (and "…/results/") would otherwise read as a round
    # action named "hands".
    path("", include("submissions.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.player_urls")),
    path("", include("scoring.archive_urls")),
    path("", include("rounds.urls")),
]

handler404 = "phm.views.page_not_found"
handler500 = "phm.views.server_error"
