"""The OpenAPI schema says what the API does (drf-spectacular settings and hooks; docs/api.md, Errors).

Outside tools generate clients and tests from `/api/schema/`, so every status an operation can answer is in
it, and every input it refuses for its shape is described there rather than discovered by trying:

- `document_errors` (a postprocessing hook) adds to each operation the error replies every endpoint shares:
  400 for bad input (including the control characters the input guard refuses everywhere), 401 for a wrong
  token, 403 where a permission or the CSRF check applies, 404 for an object in the path that does not exist
  or is hidden, 413 for a body over the size limit, 429 past a request limit, 503 while the database is down,
  and the 409 of the views marked `may_conflict` (the state of what they act on forbids it); a view method
  marked `forbidden_because(reason)` has that reason in its 403's description.
- The same hook states the input guard's rule: no string a request sends, and no key of an object it sends,
  holds a control character; fields a request body does not name are ignored, but under the same rule.
- `refine(component)` registers a function that states what a serializer cannot say by itself (for example
  "`cards` or `list`", or the pairs of match points that exist); the API module owning the component does it.
"""

from collections.abc import Callable

# Every string a request may send: no C0 control except tab, newline and carriage return, no DEL, no C1
# control (phm.text.FORBIDDEN_CHARACTERS; a lone surrogate cannot be sent as UTF-8 at all).
_CONTROLS = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f"
TEXT_PATTERN = f"^[^{_CONTROLS}]*$"
# A text that must not be empty: the API trims the spaces around it first, so it holds something else.
NONBLANK_TEXT_PATTERN = f"^[^{_CONTROLS}]*[^\\s{_CONTROLS}][^{_CONTROLS}]*$"
CLEAN_KEY = {"pattern": TEXT_PATTERN}

ERROR_COMPONENT = "Error"
FIELD_ERRORS_COMPONENT = "FieldErrors"
ANY_VALUE_COMPONENT = "AnyCleanValue"
COMPONENTS = {
    ERROR_COMPONENT: {
        "type": "object",
        "description": 'An error: `{"detail", "code"}` (docs/api.md, Errors).',
        "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
        "required": ["detail"],
    },
    FIELD_ERRORS_COMPONENT: {
        "type": "object",
        "description": (
            'Bad input: `{"field": ["what is wrong", ...], ...}` naming each field, or `{"detail", "code"}` '
            "for the request as a whole (a control character, JSON that does not parse or nests too deep)."
        ),
    },
    # Any JSON value without a control character in its strings or keys: what an unnamed field may hold.
    ANY_VALUE_COMPONENT: {
        "anyOf": [
            {"type": "string", "pattern": TEXT_PATTERN},
            {"type": ["number", "boolean", "null"]},
            {"type": "array", "items": {"$ref": f"#/components/schemas/{ANY_VALUE_COMPONENT}"}},
            {
                "type": "object",
                "propertyNames": CLEAN_KEY,
                "additionalProperties": {"$ref": f"#/components/schemas/{ANY_VALUE_COMPONENT}"},
            },
        ]
    },
}

ERROR_DESCRIPTIONS = {
    400: "Bad input: the fields named and what is wrong with each.",
    401: "Not logged in, or the token is not valid.",
    403: "Logged in but not allowed (not a moderator of that league, your own interest, no CSRF token).",
    404: "No such object, or not visible to you (a hidden hand is a 404, never a 403).",
    409: "The state of what it acts on forbids it (deadline passed, round final, open challenges…).",
    413: "The request is larger than the site accepts.",
    429: "Too many requests: Retry-After says how many seconds until the next one is accepted.",
    503: "The database is unavailable: Retry-After says when to try again.",
}
METHODS = ("get", "post", "put", "patch", "delete")
UNSAFE = {"post", "put", "patch", "delete"}
CONFLICT_MARK = "phm_may_conflict"
FORBIDDEN_MARK = "phm_forbidden_because"
Refinement = Callable[[dict], dict]
_REFINEMENTS: dict[str, list[Refinement]] = {}


def may_conflict(view):
    """Mark an API view method (or a whole view class: every method but GET) as able to answer 409, the state
    of what it acts on forbidding it; the schema then documents the 409."""
    setattr(view, CONFLICT_MARK, True)
    return view


def forbidden_because(reason: str) -> Callable:
    """Mark an API view method whose 403 has a reason of its own besides the usual ones (who may do it): the
    schema's 403 reply then says it."""

    def mark(view):
        setattr(view, FORBIDDEN_MARK, reason)
        return view

    return mark


def refine(component: str) -> Callable[[Refinement], Refinement]:
    """Register `function(schema) -> schema` for the request component `component` (drf-spectacular's name,
    e.g. "ReportRequest"): it states what the serializer cannot."""

    def register(function: Refinement) -> Refinement:
        _REFINEMENTS.setdefault(component, []).append(function)
        return function

    return register


def one_of_pairs(pairs, first="points_a", second="points_b"):
    """The JSON Schema of an object whose two fields hold one of `pairs` together."""
    return [
        {"properties": {first: {"const": one}, second: {"const": other}}, "required": [first, second]}
        for one, other in pairs
    ]


def _requires_permission(view_class):
    from rest_framework.permissions import AllowAny

    return any(permission is not AllowAny for permission in getattr(view_class, "permission_classes", ()))


def _may_conflict(view_class, method):
    handler = getattr(view_class, method, None)
    marked_class = getattr(view_class, CONFLICT_MARK, False) and method != "get"
    return marked_class or getattr(handler, CONFLICT_MARK, False)


def _statuses(path, method, view_class):
    statuses = {400, 401, 503}
    if method in UNSAFE or _requires_permission(view_class):
        statuses.add(403)  # a permission, or the CSRF check of a session on a write
    if "{" in path:
        statuses.add(404)
    if method in UNSAFE:
        statuses |= {413, 429}
    if _may_conflict(view_class, method):
        statuses.add(409)
    return statuses


def _error_reply(status):
    component = FIELD_ERRORS_COMPONENT if status == 400 else ERROR_COMPONENT
    reply = {
        "description": ERROR_DESCRIPTIONS[status],
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}},
    }
    if status in (429, 503):
        retry = {"schema": {"type": "integer"}, "description": "Seconds until a retry is accepted."}
        reply["headers"] = {"Retry-After": retry}
    return reply


def _text_rule(schema, components, seen, *, body=False):
    """Add the text rule to a request schema in place: TEXT_PATTERN on every string, on every key of its
    objects, and on whatever the fields a body does not name hold (`body`: a request body's objects)."""
    if not isinstance(schema, dict):
        return
    reference = schema.get("$ref")
    if reference:
        name = reference.rsplit("/", 1)[-1]
        if name not in seen and name in components:
            seen.add(name)
            _text_rule(components[name], components, seen, body=body)
        return
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds and not {"enum", "format", "pattern", "const"} & set(schema):
        schema["pattern"] = NONBLANK_TEXT_PATTERN if schema.get("minLength", 0) >= 1 else TEXT_PATTERN
    if "object" in kinds or "properties" in schema:
        schema.setdefault("propertyNames", CLEAN_KEY)
        if body:
            schema.setdefault("additionalProperties", {"$ref": f"#/components/schemas/{ANY_VALUE_COMPONENT}"})
    for child in (schema.get("properties") or {}).values():
        _text_rule(child, components, seen, body=body)
    for key in ("items", "additionalProperties"):
        _text_rule(schema.get(key), components, seen, body=body)
    for key in ("allOf", "anyOf", "oneOf"):
        for child in schema.get(key) or ():
            _text_rule(child, components, seen, body=body)


def _states_required(schema, components):
    if "$ref" in schema:
        schema = components.get(schema["$ref"].rsplit("/", 1)[-1], {})
    return bool(schema.get("required") or schema.get("anyOf") or schema.get("oneOf"))


def document_errors(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOKS: the refinements, the error replies and the text rule (above)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    for name, functions in _REFINEMENTS.items():
        if name in components:
            for function in functions:
                components[name] = function(components[name])
    for name, component in COMPONENTS.items():
        components.setdefault(name, component)
    views = {(path, method.lower()): callback.cls for path, _regex, method, callback in generator.endpoints}
    seen = set()
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            view_class = views.get((path, method))
            for status in sorted(_statuses(path, method, view_class)):
                responses.setdefault(str(status), _error_reply(status))
            reason = getattr(getattr(view_class, method, None), FORBIDDEN_MARK, None)
            if reason and "403" in responses:
                responses["403"]["description"] = f"{reason} {ERROR_DESCRIPTIONS[403]}"
            for parameter in operation.get("parameters", ()):
                _text_rule(parameter.get("schema"), components, seen)
            body = operation.get("requestBody") or {}
            for media in body.get("content", {}).values():
                _text_rule(media.get("schema"), components, seen, body=True)
                if _states_required(media.get("schema", {}), components):
                    body["required"] = True
    return result
