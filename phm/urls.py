from django.contrib import admin
from django.urls import include, path
from django.views import View
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.api import ObtainToken

from . import health, views
from .input_guard import API_PARSERS


class ApiDocsView(SpectacularSwaggerSplitView):
    """The browsable docs. An HTML page has no API metadata to describe: OPTIONS answers with the methods it
    allows, as Django's own views do (DRF's metadata would look for a template and fail)."""

    def options(self, request, *args, **kwargs):
        return View.options(self, request, *args, **kwargs)


api_patterns = [
    # The token view names its own parsers; it gets the guarded ones (phm.input_guard) like every other, and
    # its password checks are throttled (accounts.throttle).
    path("auth/token/", ObtainToken.as_view(parser_classes=API_PARSERS), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("rounds.api_urls")),
    path("", include("submissions.api_urls")),
    path("", include("scoring.api_urls")),
    path("", include("archive.forum.api_urls")),
    path("", include("webhooks.api_urls")),
    path("", include("outbox.api_urls")),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("", include("outbox.urls")),
    path("api/", include(api_patterns)),
    path("admin/", admin.site.urls),
    # Before rounds.urls: "moderate/rounds/<id>/hands/" (and "…/results/") would otherwise read as a round
    # action named "hands".
    path("", include("submissions.urls")),
    path("", include("scoring.urls")),
    path("", include("stats.urls")),
    path("", include("archive.forum.urls")),
    path("", include("webhooks.urls")),
    path("", include("rounds.urls")),
]

handler400 = "phm.views.bad_request"
handler404 = "phm.views.page_not_found"
handler500 = "phm.views.server_error"
