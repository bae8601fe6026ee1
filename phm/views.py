"""Project-level pages: home and error pages."""

from django.http import HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils import timezone

from rounds import selectors


def home(request):
    now = timezone.now()
    context = {
        "open_rounds": selectors.open_rounds(now),
        "recent_rounds": selectors.recent_rounds(now),
    }
    return render(request, "home.html", context)


def _wants_json(request):
    return request.path.startswith("/api/")


def page_not_found(request, exception=None):
    if _wants_json(request):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return render(request, "404.html", status=404)


def server_error(request):
    if _wants_json(request):
        return JsonResponse({"detail": "A server error occurred.", "code": "server_error"}, status=500)
    # Rendered without the request: the failure may be the database that context processors need.
    return HttpResponseServerError(loader.get_template("500.html").render())
