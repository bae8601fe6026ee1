"""API of a round's scoring: finalize and reopen it, award and withdraw bonus League points, download its
results (BBCode post, CSV table)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.downloads import BBCODE, CSV, download, round_filename
from phm.schema import may_conflict

from .. import export_reply, selectors
from ..serializers import (
    BonusInputSerializer,
    BonusSerializer,
    BonusWithdrawalInputSerializer,
    FinalizeInputSerializer,
    ReopenInputSerializer,
    TableRowSerializer,
)
from ..services.access import scoring_round
from ..services.bonus import award_bonus, withdraw_bonus
from ..services.finalization import finalize_round, reopen_round


@may_conflict
class RoundFinalizeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=FinalizeInputSerializer, responses=TableRowSerializer(many=True))
    def post(self, request, round_id):
        incoming = FinalizeInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        round_ = finalize_round(actor=request.user, round_id=round_id, **incoming.validated_data)
        table = selectors.results_table(round_, viewer=request.user, cells=False)
        return Response(TableRowSerializer(table.by_rank, many=True).data)


@may_conflict
class RoundReopenView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReopenInputSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, round_id):
        incoming = ReopenInputSerializer(data=request.data)
        scoring_round(round_id)
        incoming.is_valid(raise_exception=True)
        round_ = reopen_round(actor=request.user, round_id=round_id, **incoming.validated_data)
        return Response({"id": round_.pk, "state": round_.state})


@may_conflict
class RoundBonusView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=BonusInputSerializer, responses={201: BonusSerializer})
    def post(self, request, round_id):
        incoming = BonusInputSerializer(data=request.data)
        scoring_round(round_id)
        incoming.is_valid(raise_exception=True)
        award = award_bonus(
            actor=request.user,
            round_id=round_id,
            player_username=incoming.validated_data["player"],
            points=incoming.validated_data["points"],
            reason=incoming.validated_data["reason"],
        )
        return Response(BonusSerializer(award).data, status=status.HTTP_201_CREATED)


@may_conflict
class RoundBonusAwardView(APIView):
    """One bonus award of a round: DELETE withdraws it (with a reason); the award stays on record."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "reason",
                {"type": "string", "minLength": 1, "maxLength": 2000},
                required=True,
                description='Why the bonus is withdrawn (or `{"reason"}` as the body).',
            )
        ],
        responses={200: BonusSerializer},
    )
    def delete(self, request, round_id, award_id):
        # A DELETE with a body is not sent by every client: the reason may come as ?reason= too.
        given = request.data if request.data else {"reason": request.query_params.get("reason", "")}
        incoming = BonusWithdrawalInputSerializer(data=given)
        scoring_round(round_id)
        incoming.is_valid(raise_exception=True)
        award = withdraw_bonus(
            actor=request.user,
            round_id=round_id,
            award_id=award_id,
            reason=incoming.validated_data["reason"],
        )
        return Response(BonusSerializer(award).data)


class RoundExportView(APIView):
    """The results post (BBCode) or the table (CSV), as plain downloads: the same for everyone once the round
    is revealed (404 before), built once per state of the round (scoring.export_reply)."""

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, (200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, round_id, kind):
        round_ = scoring_round(round_id)
        text = export_reply.export_text(round_, kind)
        if kind == "csv":
            return download(text, round_filename(round_, "results", "csv"), CSV)
        return download(text, round_filename(round_, "results", "bbcode"), BBCODE)
