"""API for a person's notifications and preferences (docs/api.md). Only ever the caller's own."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.api_fields import Flag, Id, Text, Whole
from phm.pagination import page_of, page_parameters, with_page_headers
from phm.query import flag_parameter
from phm.schema import refine

from . import inbox, preferences, unread
from .kinds import KINDS

DEFAULT_LIMIT, MAX_LIMIT = 50, 200


class NotificationSerializer(serializers.Serializer):
    id = Whole()
    kind = Text()
    text = Text()
    url = Text()
    created = serializers.DateTimeField(source="created_at")
    read = serializers.SerializerMethodField()

    def get_read(self, notification) -> bool:
        return notification.read_at is not None


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(child=Id(), required=False, max_length=500)
    all = Flag(required=False, default=False)

    def validate(self, data):
        if not data.get("all") and not data.get("ids"):
            raise serializers.ValidationError({"ids": ['Send {"ids": [...]} or {"all": true}.']})
        return data


@refine("MarkReadRequest")
def _ids_or_all(schema):
    """Some ids, or everything."""
    some = {"properties": {"ids": {"minItems": 1}}, "required": ["ids"]}
    return {**schema, "anyOf": [some, {"properties": {"all": {"const": True}}, "required": ["all"]}]}


LIST_REPLY = inline_serializer(
    "NotificationList",
    {"unread": Whole(), "results": NotificationSerializer(many=True)},
)


class NotificationsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=LIST_REPLY,
        parameters=[
            *page_parameters(DEFAULT_LIMIT, MAX_LIMIT),
            OpenApiParameter("unread", bool, description="Only unread ones (`true`); `false`, or none: all."),
        ],
    )
    def get(self, request):
        """Your notifications, newest first, and how many are unread; a page at a time (docs/api.md: Pages
        of a list): `X-Total-Count` counts the notifications listed (only the unread ones with `unread`)."""
        page = page_of(request, default=DEFAULT_LIMIT, maximum=MAX_LIMIT)
        notifications = inbox.for_user(request.user)
        if flag_parameter(request, "unread"):
            notifications = notifications.filter(read_at__isnull=True)
        results = NotificationSerializer(page.of(notifications), many=True).data
        response = Response({"unread": unread.count(request.user.pk), "results": results})
        return with_page_headers(response, request, page, notifications.count())


class MarkReadView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=MarkReadSerializer,
        responses=inline_serializer("MarkReadReply", {"marked": Whole(), "unread": Whole()}),
    )
    def post(self, request):
        """Mark some of your notifications (`ids`) or all of them (`all`) read."""
        body = MarkReadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        marked = inbox.mark_read(
            request.user, ids=body.validated_data.get("ids"), everything=body.validated_data["all"]
        )
        return Response({"marked": marked, "unread": unread.count(request.user.pk)})


def _preferences_reply(user):
    """The choices of the kinds `user` chooses among (a moderator's kinds for moderators only), the digest."""
    return {**preferences.shown_choices(user), "digest": preferences.digest_enabled(user)}


class KindChoiceSerializer(serializers.Serializer):
    email = Flag()
    site = Flag()


def _kind_choice(kind):
    """One kind's field (a field of its own per kind: a shared one would be listed once)."""
    if kind.for_moderators:
        return KindChoiceSerializer(
            required=False,
            help_text=f"{kind.label}: a moderator's kind, in the reply to moderators only; a player who "
            "sends it gets a 403.",
        )
    return KindChoiceSerializer(help_text=kind.label)


PREFERENCES = inline_serializer(
    "NotificationPreferences",
    {"digest": Flag(), **{kind.key: _kind_choice(kind) for kind in KINDS}},
)


@refine("NotificationPreferencesRequest")
def _some_known_kinds(schema):
    """A change names at least one kind of the catalogue (or `digest`), each with `email` and/or `site`."""

    def choice(kind):
        site = {"type": "boolean"} if kind.site else {"const": False}  # e-mail only: never on the site
        return {
            "type": "object",
            "properties": {"email": {"type": "boolean"}, "site": site},
            "additionalProperties": False,
        }

    properties = {"digest": {"type": "boolean"}, **{kind.key: choice(kind) for kind in KINDS}}
    return {
        **schema,
        "properties": properties,
        "required": [],
        "minProperties": 1,
        "additionalProperties": False,
    }


class PreferencesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PREFERENCES)
    def get(self, request):
        """Per kind of notification, whether it reaches you by e-mail and on the site; the daily digest. The
        moderators' kinds (`moderation.dispute`, `moderation.challenge`) are listed for moderators only."""
        return Response(_preferences_reply(request.user))

    @extend_schema(request=PREFERENCES, responses=PREFERENCES)
    def put(self, request):
        """Change some choices (the kinds you send; the others stay) and/or `digest`. The moderators' kinds
        (`moderation.dispute`, `moderation.challenge`) are theirs alone: a player who sends one gets a 403."""
        if not isinstance(request.data, dict) or not request.data:
            raise ApiValidationError(
                {"preferences": ['Send an object such as {"round.opened": {"email": false}}.']}
            )
        data = dict(request.data)
        digest = data.pop("digest", None)
        if "digest" in request.data and not isinstance(digest, bool):
            raise ApiValidationError({"digest": ["Send true or false."]})
        try:
            preferences.update(request.user, data, digest=digest)
        except preferences.PreferenceError as error:
            raise ApiValidationError(error.errors) from error
        return Response(_preferences_reply(request.user))
