"""One guard for hostile input, in front of every view.

- `InputGuardMiddleware`: refuses a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE (413), a path with a control
  character (404: no page has one), and control characters (phm.text.FORBIDDEN_CHARACTERS) in every query
  parameter and every field of an HTML form (400, with the field named). It also marks every API reply
  `Cache-Control: no-store, private` (see `_private`), except the few public replies that say so
  themselves (`mark_public`).
- The API's bodies are parsed by `GuardedJSONParser`, `GuardedFormParser` and `GuardedMultiPartParser`
  (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]): the same characters are refused in every key and string
  value, the JSON nesting depth is bounded before anything recurses, and the body size is bounded again
  (a chunked body has no Content-Length for the middleware to see).

API errors are `{"detail", "code"}` like every other (phm.api); pages answer with a page saying what to fix.
"""

import codecs
import gc
import io

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from rest_framework import exceptions, parsers
from rest_framework.utils import json

# Deeper JSON than MAX_JSON_DEPTH is refused before it is decoded (phm.json_scan, in linear time): Python's
# decoder recurses once per level, and 50,000 `[` end in a RecursionError.
from .json_scan import MAX_JSON_DEPTH, bad_value, json_too_deep, may_hold_refused
from .text import forbidden_character, invalid_characters_message

TOO_LARGE_DETAIL = "The request is too large: at most {size} are accepted."


def size_limit_text():
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return f"{limit // 1024:,} KB" if limit < 1024 * 1024 else f"{limit / (1024 * 1024):g} MB"


def is_api(request):
    return request.path.startswith("/api/")


class InvalidCharacters(exceptions.APIException):
    status_code = 400
    default_detail = "The request contains a control character, which is not allowed."
    default_code = "invalid_characters"


class PayloadTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = "The request is too large."
    default_code = "too_large"

    def __init__(self):
        super().__init__(TOO_LARGE_DETAIL.format(size=size_limit_text()))


def _first_bad_field(items):
    """(field, character) of the first key or value holding a refused character; None when all are clean."""
    for key, values in items:
        char = forbidden_character(key)
        if char:
            return key, char
        for value in values:
            if isinstance(value, str):
                char = forbidden_character(value)
                if char:
                    return key, char
    return None


def _error(request, status, detail, code, template="400.html"):
    if is_api(request):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return render(request, template, {"status": status, "detail": detail}, status=status)


def _private(response):
    """Every API reply is `no-store, private`. Most of them depend on who asks (a player's own hand, what a
    reviewing moderator sees, drafts only managers see, 403 versus 200), and a rule per endpoint would be
    one more thing to get wrong when an endpoint changes; the public ones (card search, banned lists) are
    small and cheap to compute again. A view opts a reply out only with `mark_public`."""
    if getattr(response, PUBLIC_REPLY, False):
        return response
    patch_cache_control(response, no_store=True, private=True)
    return response


PUBLIC_REPLY = "phm_public_reply"


def mark_public(response):
    """Keep this reply's own Cache-Control: for a reply that is the same for everyone and holds no secret
    (the revealed round's table, scoring.table_reply), sent with a validator so caches revalidate it."""
    setattr(response, PUBLIC_REPLY, True)
    return response


class InputGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refusal = self._refusal(request)
        response = refusal or self.get_response(request)
        return _private(response) if is_api(request) else response

    def _refusal(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            return _error(request, 413, TOO_LARGE_DETAIL.format(size=size_limit_text()), "too_large")
        if forbidden_character(request.path):
            if is_api(request):
                return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
            return render(request, "404.html", status=404)
        bad = _first_bad_field(request.GET.lists())
        if bad is None and not is_api(request) and request.method == "POST":
            # The API's bodies are checked by its parsers (below), in its own error format.
            try:
                bad = _first_bad_field(request.POST.lists())
            except RequestDataTooBig:
                return _error(request, 413, TOO_LARGE_DETAIL.format(size=size_limit_text()), "too_large")
        if bad is not None:
            return _error(request, 400, invalid_characters_message(*bad), "invalid_characters")
        return None


# API parsers ------------------------------------------------------------------------------------------------


def _read_bounded(stream):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    raw = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(raw) > limit:
        raise PayloadTooLarge()
    return raw


def _too_deep():
    return exceptions.ParseError(
        f"JSON parse error - nested more than {MAX_JSON_DEPTH} levels deep.", code="too_deep"
    )


class GuardedJSONParser(parsers.JSONParser):
    """DRF's JSON parser with every step linear in the size of the body (phm.json_scan): the depth is
    measured on the body's UTF-8 bytes before it is decoded, and the decoded data is walked for refused
    characters only when its text may hold one."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = _read_bounded(stream)
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = raw.decode(encoding)
            if codecs.lookup(encoding).name != "utf-8":
                raw = text.encode()  # the depth is measured on UTF-8 (in UTF-16 a bracket is two bytes)
            if json_too_deep(raw):
                raise _too_deep()
            data = _decoded(text, json.strict_constant if self.strict else None)
        except RecursionError:  # cannot happen after the measure above; a 400 all the same if it did
            raise _too_deep() from None
        except ValueError as error:  # as DRF says it, UnicodeDecodeError included
            raise exceptions.ParseError(f"JSON parse error - {error}") from None
        if may_hold_refused(text):
            bad = bad_value(data)
            if bad is not None:
                raise InvalidCharacters(invalid_characters_message(*bad))
        return data


def _decoded(text, parse_constant):
    """`json.loads` with the cyclic garbage collector paused: decoded JSON holds no reference cycle, and the
    collections its new containers set off would only traverse them again and again (a megabyte of `[],`
    decodes 8 times slower with it on, bench/json_guard.py)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return json.loads(text, parse_constant=parse_constant)
    finally:
        if paused:
            gc.enable()


class GuardedFormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(io.BytesIO(_read_bounded(stream)), media_type, parser_context)
        bad = _first_bad_field(data.lists())
        if bad is not None:
            raise InvalidCharacters(invalid_characters_message(*bad))
        return data


class GuardedMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        bad = _first_bad_field(parsed.data.lists())
        if bad is not None:
            raise InvalidCharacters(invalid_characters_message(*bad))
        return parsed


API_PARSERS = [GuardedJSONParser, GuardedFormParser, GuardedMultiPartParser]
