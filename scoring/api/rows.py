"""API of results given as rows: a player's own row, and the players' rows a moderator imports from forum
posts."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.schema import may_conflict

from ..serializers import (
    PostedRowsInputSerializer,
    PostedRowsResultSerializer,
    RowInputSerializer,
    RowResultSerializer,
)
from ..services.access import revealed_round_table, scoring_round
from ..services.posted_rows import import_posted_rows, posted_rows_round
from ..services.reports import report_row


@may_conflict
class RoundRowsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=RowInputSerializer, responses={201: RowResultSerializer})
    def post(self, request, round_id):
        round_ = scoring_round(round_id)
        incoming = RowInputSerializer(data=request.data)
        revealed_round_table(round_)
        incoming.is_valid(raise_exception=True)
        outcome = report_row(
            player=request.user, round_id=round_.pk, row=incoming.validated_data["row"]
        )
        return Response(RowResultSerializer(outcome).data, status=status.HTTP_201_CREATED)


@may_conflict
class RoundPostedRowsView(APIView):
    """A moderator imports players' rows posted on the forum: each row is its player's report."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PostedRowsInputSerializer,
        responses={200: PostedRowsResultSerializer, 201: PostedRowsResultSerializer},
        description="Preview (dry_run, 200) or import (201) the rows found in the pasted posts. 400 when no "
        "row is found (or, importing, while any problem is left); 403 for anyone but a moderator of the "
        "round's league; 409 when the round is not revealed or is final.",
    )
    def post(self, request, round_id):
        incoming = PostedRowsInputSerializer(data=request.data)
        posted_rows_round(actor=request.user, round_id=round_id)
        incoming.is_valid(raise_exception=True)
        result = import_posted_rows(
            actor=request.user,
            round_id=round_id,
            text=incoming.validated_data["text"],
            dry_run=incoming.validated_data["dry_run"],
        )
        answer = status.HTTP_200_OK if result.dry_run else status.HTTP_201_CREATED
        return Response(PostedRowsResultSerializer(result).data, status=answer)
