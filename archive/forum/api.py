"""API for importing past rounds from forum posts (docs/api.md): `POST /api/archive/preview/` and
`POST /api/archive/import/`. Both read the same body and call `archive.forum.post_import`, as the import page
does."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.services import is_moderator
from phm.api_fields import Flag, Text, Whole
from phm.schema import may_conflict
from rounds.models import League, Round
from rounds.permissions import can_manage_league
from scoring.services.errors import ScoringConflict, ScoringInputError

from .corrections import apply_correction_post, preview_correction
from .post_import.preview import preview_post
from .post_import.results import ArchiveDuplicate, PostImportRefused
from .post_import.write import import_post

MAX_POST = 1_000_000
MAX_TABLE = 200_000


class ArchiveRoundSerializer(serializers.Serializer):
    """The moderator's corrections: any field given replaces what the post says."""

    code = Text(required=False, allow_blank=True, max_length=20)
    title = Text(required=False, allow_blank=True, max_length=500)
    hand_size = Whole(required=False, allow_null=True)
    land_rule = Text(required=False, allow_blank=True, max_length=40)
    extra_banned = serializers.ListField(child=Text(max_length=200), required=False, max_length=200)
    format_rule = Text(required=False, allow_blank=True, max_length=20_000)
    deadline = Text(required=False, allow_blank=True, allow_null=True, max_length=60)
    deadline_precision = Text(
        required=False,
        allow_blank=True,
        max_length=20,
        help_text='"exact", "approximate" or "unknown": how well the deadline is known. A deadline given '
        "without it is exact.",
    )
    commentary = Text(required=False, allow_blank=True, max_length=20_000)


class ArchiveInputSerializer(serializers.Serializer):
    league = Whole()
    post = Text(max_length=MAX_POST, trim_whitespace=False)
    table = Text(required=False, allow_blank=True, max_length=MAX_TABLE, trim_whitespace=False)
    round = ArchiveRoundSerializer(required=False)
    players = serializers.DictField(
        child=Text(allow_blank=True, allow_null=True, max_length=150),
        required=False,
        help_text='{posted name: username to use, or "" for a new account}',
    )
    counts_in_standings = Flag(required=False, allow_null=True, default=None)

    def service_arguments(self):
        data = self.validated_data
        return {
            "league": data["league"],
            "post": data["post"],
            "table": data.get("table", ""),
            "corrections": dict(data.get("round") or {}),
            "players": dict(data.get("players") or {}),
            "counts_in_standings": data.get("counts_in_standings"),
        }


def _validated(request):
    if not is_moderator(request.user):
        raise PermissionDenied("Only moderators import past rounds.")
    incoming = ArchiveInputSerializer(data=request.data)
    incoming.is_valid(raise_exception=True)
    arguments = incoming.service_arguments()
    league = League.objects.filter(pk=arguments["league"]).first()
    if league is None:
        raise ValidationError({"league": [f"There is no league {arguments['league']}."]})
    if not can_manage_league(request.user, league):
        raise PermissionDenied(f"You do not moderate {league.name}.")
    arguments["league"] = league
    return arguments


class ArchivePreviewView(APIView):
    """Everything the import would do, checked; nothing saved. 200 with `ready` saying whether it would."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ArchiveInputSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request):
        result = preview_post(actor=request.user, **_validated(request))
        return Response(result.as_dict())


@may_conflict
class ArchiveImportView(APIView):
    """201 `{"round": id}` when imported; 400 with the preview and its problems; 409 when already imported."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ArchiveInputSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        arguments = _validated(request)
        try:
            result = import_post(actor=request.user, **arguments)
        except PostImportRefused as refused:
            return Response(refused.result.as_dict(), status=status.HTTP_400_BAD_REQUEST)
        except ArchiveDuplicate as duplicate:
            body = {
                "detail": str(duplicate),
                "code": "duplicate",
                "round": duplicate.round.pk,
                "url": duplicate.round.get_absolute_url(),
            }
            return Response(body, status=status.HTTP_409_CONFLICT)
        except ScoringConflict as conflict:
            return Response({"detail": str(conflict), "code": "conflict"}, status=status.HTTP_409_CONFLICT)
        round_ = result.round
        body = {
            "round": round_.pk,
            "code": round_.code,
            "url": round_.get_absolute_url(),
            "state": round_.state,
            "hands": len(result.entries),
            "counts_in_standings": round_.counts_in_standings,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class CorrectionInputSerializer(serializers.Serializer):
    post = Text(max_length=100_000, trim_whitespace=False)
    dry_run = Flag(required=False, default=False)


@may_conflict
class RoundCorrectionView(APIView):
    """POST /api/rounds/{id}/corrections/: a correction reply applied to an imported round (moderators of its
    league): 200 the preview with `dry_run`, 201 applied; 400 with the problems; 409 for a round played
    here."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=CorrectionInputSerializer, responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT}
    )
    def post(self, request, round_id):
        incoming = CorrectionInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        round_ = Round.objects.select_related("league").filter(pk=round_id).first()
        if round_ is None or not can_manage_league(request.user, round_.league):
            raise NotFound("No such round among those you moderate.")
        post, dry_run = incoming.validated_data["post"], incoming.validated_data["dry_run"]
        try:
            if dry_run:
                return Response(preview_correction(actor=request.user, round_=round_, post=post).as_dict())
            result = apply_correction_post(actor=request.user, round_=round_, post=post)
        except ScoringInputError as error:
            body = preview_correction(actor=request.user, round_=round_, post=post).as_dict()
            body["errors"] = error.errors
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        except ScoringConflict as conflict:  # the sentence alone, without what stands in the way
            return Response({"detail": str(conflict), "code": "conflict"}, status=status.HTTP_409_CONFLICT)
        return Response(result.as_dict(), status=status.HTTP_201_CREATED)
