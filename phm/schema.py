"""The OpenAPI schema says what the API does (drf-spectacular settings and hooks; docs/api.md, Errors).

Outside tools generate clients and tests from `/api/schema/`, so every status an operation can answer is in it,
and every input it refuses for its shape is described there rather than discovered:

- `document_errors` (a postprocessing hook) adds to each operation the error replies every endpoint shares — a
  400 for bad input (including the control characters the input guard refuses everywhere), 401 for a wrong
  token, 403 where a permission or the CSRF check applies, 404 for an object in the path that does not exist or
  is hidden, 413 for a body over the size limit, 429 past a request limit, 503 while the database is down — and
  the 409 of the operations marked `may_conflict` (the object's state forbids it).
- `describe_text` (the same hook) states the input guard's rule in the schema: no string a request sends, and no
  key of an object it sends, may hold a control character.
"""

from collections.abc import Callable

# Every string a request may send: no C0 control except tab, newline and carriage return, no DEL, no C1
# control (phm.text.FORBIDDEN_CHARACTERS; lone surrogates cannot be written in JSON text at all).
TEXT_PATTERN = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"

ERROR_COMPONENT = "Error"
ERROR_SCHEMA = {
    "type": "object",
    "description": 'An error: `{"detail", "code"}` (docs/api.md, Errors).',
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    "required": ["detail"],
}
FIELD_ERRORS_COMPONENT = "FieldErrors"
FIELD_ERRORS_SCHEMA = {
    "type": "object",
    "description": (
        'Bad input: `{"field": ["what is wrong", ...], ...}` naming each field, or `{"detail", "code"}` for '
        "the request as a whole (a control character, JSON that does not parse or nests too deep)."
    ),
    "additionalProperties": True,
}

ERROR_DESCRIPTIONS = {
    400: "Bad input: the fields named and what is wrong with each.",
    401: "Not logged in, or the token is not valid.",
    403: "Logged in but not allowed (not a moderator of that league, your own interest, a missing CSRF token).",
    404: "No such object, or not visible to you (a hidden hand is a 404, never a 403).",
    409: "The object's state forbids it (deadline passed, round final, open challenges…): the detail says why.",
    413: "The request is larger than the site accepts.",
    429: "Too many requests: Retry-After says how many seconds until the next one is accepted.",
    503: "The database is unavailable: Retry-After says when to try again.",
}
UNSAFE = {"post", "put", "patch", "delete"}
CONFLICT_MARK = "phm_may_conflict"


def may_conflict(method: Callable) -> Callable:
    """Mark an API view method that can answer 409 (the state of what it acts on forbids it): the schema then
    documents the 409 (document_errors)."""
    setattr(method, CONFLICT_MARK, True)
    return method


def match_points_choices():
    """The match points a player can score, as ENUM_NAME_OVERRIDES wants them: several serializers use this
    choice set, and it gets one component name (MatchPointsEnum) instead of one per field name."""
    from scoring.outcomes import POINTS_VALUES

    return [(value, value) for value in POINTS_VALUES]


def _views(generator):
    """{(path, method): view class} of the generated endpoints."""
    return {(path, method.lower()): callback.cls for path, _regex, method, callback in generator.endpoints}


def _requires_permission(view_class):
    from rest_framework.permissions import AllowAny

    return any(permission is not AllowAny for permission in getattr(view_class, "permission_classes", ()))


def _statuses(path, method, operation, view_class):
    statuses = {400, 401, 503}
    if method in UNSAFE or _requires_permission(view_class):
        statuses.add(403)  # a permission, or the CSRF check of a session on a write
    if "{" in path or any(parameter.get("in") == "path" for parameter in operation.get("parameters", ())):
        statuses.add(404)
    if method in UNSAFE:
        statuses |= {413, 429}
    handler = getattr(view_class, method, None)
    if getattr(handler, CONFLICT_MARK, False):
        statuses.add(409)
    return statuses


def _error_reply(status):
    component = FIELD_ERRORS_COMPONENT if status == 400 else ERROR_COMPONENT
    reply = {
        "description": ERROR_DESCRIPTIONS[status],
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}},
    }
    if status in (429, 503):
        reply["headers"] = {
            "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds until a retry is accepted."}
        }
    return reply


def _text_rule(schema, components, seen):
    """Add TEXT_PATTERN to every string of a request schema (and to every key of its objects), in place."""
    if not isinstance(schema, dict):
        return
    reference = schema.get("$ref")
    if reference:
        name = reference.rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            _text_rule(components.get(name), components, seen)
        return
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds and not {"enum", "format", "pattern"} & set(schema):
        schema["pattern"] = TEXT_PATTERN
    if "object" in kinds:
        schema.setdefault("propertyNames", {"pattern": TEXT_PATTERN})
    for key in ("properties", "patternProperties"):
        for child in (schema.get(key) or {}).values():
            _text_rule(child, components, seen)
    for key in ("items", "additionalProperties", "not"):
        _text_rule(schema.get(key), components, seen)
    for key in ("allOf", "anyOf", "oneOf", "prefixItems"):
        for child in schema.get(key) or ():
            _text_rule(child, components, seen)


def document_errors(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOKS: the error replies and the text rule (module docstring)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault(ERROR_COMPONENT, ERROR_SCHEMA)
    components.setdefault(FIELD_ERRORS_COMPONENT, FIELD_ERRORS_SCHEMA)
    views = _views(generator)
    seen = set()
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            responses = operation.setdefault("responses", {})
            for status in sorted(_statuses(path, method, operation, views.get((path, method)))):
                responses.setdefault(str(status), _error_reply(status))
            for parameter in operation.get("parameters", ()):
                _text_rule(parameter.get("schema"), components, seen)
            for media in (operation.get("requestBody") or {}).get("content", {}).values():
                _text_rule(media.get("schema"), components, seen)
    return result
