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

import io
import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from rest_framework import exceptions, parsers

from .text import forbidden_character, invalid_characters_message

# Deeper JSON than any endpoint takes (a hand is an object holding a list: depth 2) is refused before it is
# decoded: Python's decoder recurses once per level, and 50,000 `[` end in a RecursionError.
MAX_JSON_DEPTH = 32

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

# A JSON string (escapes included) and, once strings are gone, everything that is not a bracket.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(rb"[^\[\]{}]+")


def json_too_deep(raw, limit=MAX_JSON_DEPTH):
    """Whether the JSON text `raw` (bytes) nests arrays and objects deeper than `limit`, found without
    decoding it (so without recursing): brackets inside strings do not count."""
    depth = 0
    for byte in _NOT_A_BRACKET.sub(b"", _JSON_STRING.sub(b"", raw)):
        if byte in b"[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _bad_value(data):
    """(field path, character) of the first string (key or value) in parsed JSON holding a refused
    character. Iterative; the depth is already bounded."""
    stack = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            char = forbidden_character(value)
            if char:
                return path, char
        elif isinstance(value, dict):
            for key, item in value.items():
                char = forbidden_character(key)
                if char:
                    return key, char
                stack.append((f"{path}.{key}" if path else key, item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{index}]", item) for index, item in enumerate(value))
    return None


def _read_bounded(stream):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    raw = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(raw) > limit:
        raise PayloadTooLarge()
    return raw


class GuardedJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = _read_bounded(stream)
        if json_too_deep(raw):
            raise exceptions.ParseError(
                f"JSON parse error - nested more than {MAX_JSON_DEPTH} levels deep.", code="too_deep"
            )
        data = super().parse(io.BytesIO(raw), media_type, parser_context)
        bad = _bad_value(data)
        if bad is not None:
            raise InvalidCharacters(invalid_characters_message(*bad))
        return data


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
