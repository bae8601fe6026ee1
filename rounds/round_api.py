"""API for leagues and rounds (docs/api.md: Rounds and cards). The views call rounds.services.leagues."""

from django.db.models import Count
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.services import is_moderator
from phm.api import Conflict
from phm.api_fields import Choice, Flag, StrictModelSerializer, Text, Whole
from phm.pagination import page_of, page_parameters, with_page_headers
from phm.schema import may_conflict, refine

from . import permissions as round_permissions
from .models import MAX_HAND_SIZE, HandSizeMode, LandRule, League, Round, RoundState
from .selectors import is_following
from .services import effective_banned
from .services import following as league_following
from .services import leagues as league_services
from .services import lifecycle as round_lifecycle


class IsModerator(BasePermission):
    message = "Only moderators can do this."

    def has_permission(self, request, view):
        return is_moderator(request.user)


class LeagueSerializer(StrictModelSerializer):
    moderators = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "number",
            "rounds_planned",
            "tiebreak_rounds_allowed",
            "state",
            "moderators",
            "created_at",
        ]
        read_only_fields = ["id", "state", "moderators", "created_at"]
        extra_kwargs = {
            "number": {
                "min_value": 1,
                "max_value": league_services.MAX_LEAGUE_NUMBER,
                "validators": [],  # the service says which field took the number (the name, or this one)
                "help_text": "Round codes use it (45:01). Given, or taken from a name of the form "
                "“League 45”; any other name has none unless given.",
            },
            "rounds_planned": {"min_value": 1, "max_value": 32767},
            "tiebreak_rounds_allowed": {"min_value": 0, "max_value": league_services.MAX_TIEBREAK_ROUNDS},
        }


def _with_bounds(schema, **bounds):
    """`schema` whose integer properties named in `bounds` get (minimum, maximum)."""
    properties = dict(schema["properties"])
    for name, (lowest, highest) in bounds.items():
        properties[name] = {**properties[name], "minimum": lowest, "maximum": highest}
    return {**schema, "properties": properties}


@refine("RoundInputRequest")
@refine("PatchedRoundInputRequest")
def _round_bounds(schema):
    return _with_bounds(schema, hand_size=(1, MAX_HAND_SIZE))


class RoundSerializer(StrictModelSerializer):
    league_name = Text(source="league.name", read_only=True)
    code = Text(read_only=True)
    state = serializers.SerializerMethodField()
    sanctioned_format = serializers.SerializerMethodField()
    banned = serializers.SerializerMethodField()
    entries = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    imported = serializers.SerializerMethodField(
        help_text="Whether the round was imported from a forum post (its described rules stay editable)."
    )

    class Meta:
        model = Round
        fields = [
            "id",
            "league",
            "league_name",
            "number",
            "code",
            "forum_code",
            *round_lifecycle.AUDITED_ROUND_FIELDS,  # the round's rules, deadline and state
            "banned",
            "entries",
            "catalog_as_of",
            "imported",
            "url",
        ]

    def get_state(self, round_) -> str:
        return round_.state_at(self.context["now"])

    def get_sanctioned_format(self, round_) -> str | None:
        return round_.sanctioned_format or None

    def get_banned(self, round_) -> list[str]:
        entries = effective_banned.effective_banned_entries(round_, self.context.get("standing"))
        return [entry["name"] for entry in entries if not entry.get("lifted")]

    def get_entries(self, round_) -> int:
        count = getattr(round_, "entry_count", None)
        return round_.hands.count() if count is None else count

    def get_imported(self, round_) -> bool:
        return bool(round_.imported_fingerprint)

    def get_url(self, round_) -> str:
        return self.context["request"].build_absolute_uri(round_.get_absolute_url())


class RoundInputSerializer(serializers.Serializer):
    """Types only; the rules (names, formats, deadline) are checked by the round services."""

    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    title = Text(max_length=200)
    hand_size = Whole()
    hand_size_mode = Choice(choices=HandSizeMode.values, default=HandSizeMode.EXACTLY)
    land_rule = Choice(choices=LandRule.values, default=LandRule.NONE)
    life_rule = Flag(default=False)
    backbuild = Flag(default=False)
    backbuild_hands = Text(default="", allow_blank=True)
    sanctioned_format = Text(default=None, allow_null=True, allow_blank=True, max_length=20)
    allowed_sets = serializers.ListField(child=Text(max_length=10), default=list)
    extra_banned = serializers.ListField(child=Text(max_length=255), default=list)
    card_rules = serializers.JSONField(
        default=list,
        help_text='[{"query": "t:dragon t:creature", "at_least"?, "at_most"?, "message"?}]: card filters '
        "a hand must satisfy; without counts every card must match. Fixed once the round is open.",
    )
    unbanned = serializers.ListField(child=Text(max_length=255), default=list)
    variant_order = serializers.ListField(child=Text(max_length=40), default=list)
    decisions = serializers.ListField(child=serializers.DictField(), default=list, max_length=50)
    format_rule = Text(default="", allow_blank=True)
    bonus_rule = Text(default="", allow_blank=True)
    commentary = Text(default="", allow_blank=True)
    counts_in_standings = Flag(
        required=False,
        help_text="Only for a round imported from the forum: false makes it archive-only (listed, not "
        "counted in the standings).",
    )
    deadline = serializers.DateTimeField()

    def rule_values(self):
        values = dict(self.validated_data)
        values.pop("league", None)
        if "sanctioned_format" in values:
            values["sanctioned_format"] = values["sanctioned_format"] or ""
        return values


def _serialize(request, rounds, many=False):
    context = {
        "request": request,
        "now": timezone.now(),
        "standing": effective_banned.standing_banned_entries(),
    }
    return RoundSerializer(rounds, many=many, context=context).data


def _visible_rounds(user, *, counted=True):
    """The rounds `user` may see, latest deadline first (with their entries counted unless `counted` is
    false: for counting the rounds themselves)."""
    rounds = Round.objects.all()
    if counted:
        rounds = rounds.select_related("league").annotate(entry_count=Count("hands"))
        rounds = rounds.order_by("-deadline", "pk")
    if not is_moderator(user):
        return rounds.exclude(state=RoundState.DRAFT)
    visible_drafts = [league.pk for league in round_permissions.leagues_managed_by(user)]
    return rounds.exclude(state=RoundState.DRAFT, league__in=League.objects.exclude(pk__in=visible_drafts))


def round_for(request, round_id):
    round_ = _visible_rounds(request.user).filter(pk=round_id).first()
    if round_ is None:
        raise NotFound("No such round.")
    return round_


def require_manager(request, league):
    if not round_permissions.can_manage_league(request.user, league):
        raise PermissionDenied("You do not moderate this league.")


ROUNDS_PAGE, ROUNDS_MAX_PAGE = 100, 500


@may_conflict
class RoundListCreateView(APIView):
    @extend_schema(
        responses=RoundSerializer(many=True),
        parameters=page_parameters(ROUNDS_PAGE, ROUNDS_MAX_PAGE),
        description="Every round you may see, latest deadline first, a page at a time (docs/api.md: Pages of "
        "a list).",
    )
    def get(self, request):
        page = page_of(request, default=ROUNDS_PAGE, maximum=ROUNDS_MAX_PAGE)
        rounds = page.of(_visible_rounds(request.user))
        response = Response(_serialize(request, rounds, many=True))
        total = _visible_rounds(request.user, counted=False).count()
        return with_page_headers(response, request, page, total)

    @extend_schema(request=RoundInputSerializer, responses={201: RoundSerializer})
    def post(self, request):
        if not is_moderator(request.user):
            raise PermissionDenied("Only moderators can open rounds.")
        incoming = RoundInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        league = incoming.validated_data["league"]
        require_manager(request, league)
        round_ = round_lifecycle.create_round(
            actor=request.user, league=league, now=timezone.now(), open_now=True, **incoming.rule_values()
        )
        return Response(_serialize(request, round_for(request, round_.pk)), status=status.HTTP_201_CREATED)


@may_conflict
class RoundDetailView(APIView):
    @extend_schema(responses=RoundSerializer)
    def get(self, request, round_id):
        return Response(_serialize(request, round_for(request, round_id)))

    @extend_schema(request=RoundInputSerializer(partial=True), responses=RoundSerializer)
    def patch(self, request, round_id):
        round_ = round_for(request, round_id)
        require_manager(request, round_.league)
        incoming = RoundInputSerializer(data=request.data, partial=True)
        incoming.is_valid(raise_exception=True)
        if "league" in incoming.validated_data and incoming.validated_data["league"] != round_.league:
            raise Conflict("A round cannot move to another league.")
        round_lifecycle.update_round(
            actor=request.user, round_id=round_.pk, now=timezone.now(), changes=incoming.rule_values()
        )
        return Response(_serialize(request, round_for(request, round_id)))


@may_conflict
class RoundCloseView(APIView):
    @extend_schema(request=None, responses=RoundSerializer)
    def post(self, request, round_id):
        round_ = round_for(request, round_id)
        require_manager(request, round_.league)
        round_lifecycle.close_round_now(actor=request.user, round_id=round_.pk, now=timezone.now())
        return Response(_serialize(request, round_for(request, round_id)))


class LeagueCreateView(generics.GenericAPIView):
    serializer_class = LeagueSerializer
    permission_classes = [IsModerator]

    @extend_schema(request=LeagueSerializer, responses={201: LeagueSerializer})
    def post(self, request):
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        league = league_services.create_league(
            actor=request.user,
            name=incoming.validated_data["name"],
            number=incoming.validated_data.get("number"),
            rounds_planned=incoming.validated_data.get("rounds_planned", 4),
            tiebreak_rounds_allowed=incoming.validated_data.get("tiebreak_rounds_allowed", 1),
        )
        return Response(self.get_serializer(league).data, status=status.HTTP_201_CREATED)


class LeagueChangeSerializer(serializers.Serializer):
    tiebreak_rounds_allowed = Whole(
        min_value=0,
        max_value=league_services.MAX_TIEBREAK_ROUNDS,
        help_text="Rule 5.3a: still level for first after this many tie-break rounds, players are joint "
        "winners.",
    )


@may_conflict
class LeagueDetailView(APIView):
    """GET /api/leagues/{id}/ (anyone) · PATCH (a moderator of the league): its settings."""

    @extend_schema(responses=LeagueSerializer)
    def get(self, request, league_id):
        league = League.objects.filter(pk=league_id).first()
        if league is None:
            raise NotFound("No such league.")
        return Response(LeagueSerializer(league).data)

    @extend_schema(request=LeagueChangeSerializer, responses=LeagueSerializer)
    def patch(self, request, league_id):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        league = League.objects.filter(pk=league_id).first()
        if league is None:
            raise NotFound("No such league.")
        require_manager(request, league)
        incoming = LeagueChangeSerializer(data=request.data, partial=True)
        incoming.is_valid(raise_exception=True)
        league = league_services.update_league(
            actor=request.user, league_id=league.pk, **incoming.validated_data
        )
        return Response(LeagueSerializer(league).data)


class FollowSerializer(serializers.Serializer):
    following = Flag()


class LeagueFollowView(APIView):
    """GET/POST/DELETE /api/leagues/{id}/follow/: whether the caller follows the league; follow; stop."""

    permission_classes = [IsAuthenticated]

    def _answer(self, league):
        return Response({"following": is_following(self.request.user, league)})

    @extend_schema(responses=FollowSerializer)
    def get(self, request, league_id):
        league = League.objects.filter(pk=league_id).first()
        if league is None:
            raise NotFound("No such league.")
        return self._answer(league)

    @extend_schema(request=None, responses=FollowSerializer)
    def post(self, request, league_id):
        return self._change(league_following.follow_league, league_id)

    @extend_schema(request=None, responses={200: FollowSerializer})
    def delete(self, request, league_id):
        return self._change(league_following.unfollow_league, league_id)

    def _change(self, operation, league_id):
        try:
            league = operation(self.request.user, league_id)
        except League.DoesNotExist:
            raise NotFound("No such league.") from None
        return self._answer(league)
