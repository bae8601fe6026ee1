"""Project-level pages: home and error pages."""

import re
import sys
from base64 import b64encode
from hashlib import sha256

from django.http import HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils import timezone

from home.views import my_phm
from rounds import selectors

from .unavailable import RETRY_AFTER_SECONDS, UNAVAILABLE_DETAIL, database_unavailable


def home(request):
    """The marketing page for visitors; My PHM (home.views) for a logged-in person, at the same address."""
    if request.user.is_authenticated:
        return my_phm(request)
    now = timezone.now()
    context = {
        "open_rounds": selectors.open_rounds(now),
        "recent_rounds": selectors.recent_rounds(now),
    }
    return render(request, "home.html", context)


def _wants_json(request):
    return request.path.startswith("/api/") or request.path == "/healthz"


def bad_request(request, exception=None):
    """Django's 400 (a suspicious request: a body over DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields…), in the
    API's format under /api/. A body too large is a 413."""
    from django.core.exceptions import DisallowedHost, RequestDataTooBig

    from .input_guard import TOO_LARGE_DETAIL, size_limit_text

    if isinstance(exception, RequestDataTooBig):
        status, code, detail = 413, "too_large", TOO_LARGE_DETAIL.format(size=size_limit_text())
    elif isinstance(exception, DisallowedHost):
        # Refused by the first middleware that reads the host, before the rest ran (no request.user yet).
        status, code, detail = 400, "bad_host", "This site does not answer to that host name."
    else:
        status, code, detail = 400, "bad_request", "The request was malformed or too large."
    if _wants_json(request):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return render(request, "400.html", {"status": status, "detail": detail}, status=status)


def page_not_found(request, exception=None):
    if _wants_json(request):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return render(request, "404.html", status=404)


def _allow_own_inline_style(response):
    """The 500 and 503 pages carry their CSS inline, on purpose (they must render when static files are the
    problem): the Content-Security-Policy allows exactly that CSS, by its hash, on these responses only."""
    hashes = [
        f"'sha256-{b64encode(sha256(css).digest()).decode()}'"
        for css in re.findall(rb"<style>(.*?)</style>", response.content, re.DOTALL)
    ]
    if hashes:
        response._csp_update = {"style-src": hashes}
    return response


def service_unavailable(request):
    if _wants_json(request):
        response = JsonResponse({"detail": UNAVAILABLE_DETAIL, "code": "unavailable"}, status=503)
    else:
        # Rendered without the request, like the 500 page: the database that context processors need is down.
        response = _allow_own_inline_style(HttpResponse(loader.get_template("503.html").render(), status=503))
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def server_error(request):
    # Django calls this while handling the exception, so it is still there to look at.
    if database_unavailable(sys.exc_info()[1]):
        return service_unavailable(request)
    if _wants_json(request):
        return JsonResponse({"detail": "A server error occurred.", "code": "server_error"}, status=500)
    # Rendered without the request: the failure may be the database that context processors need.
    return _allow_own_inline_style(HttpResponseServerError(loader.get_template("500.html").render()))
