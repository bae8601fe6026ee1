"""API of a round's results table: the table itself, and the progress of its background build."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import table_reply
from ..serializers import TableRowSerializer
from ..services.access import scoring_round
from ..services.table_build import table_or_progress


class RoundTableView(APIView):
    @extend_schema(responses=TableRowSerializer(many=True))
    def get(self, request, round_id):
        """The same bytes for everyone once the round is revealed (404 before): cached, compressed and
        revalidated by its ETag (scoring.table_reply)."""
        return table_reply.respond(request, scoring_round(round_id))


class RoundTableProgressView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, round_id):
        """`{"ready", "built", "total", "percent"}`: whether the match table exists, or how many of its
        matches a background build has made (it is queued if it was not); 404 before the reveal."""
        round_ = scoring_round(round_id)
        progress = table_or_progress(round_)
        if progress is None:
            raise NotFound("The results of this round are not open yet: its hands are not revealed.")
        return Response(
            {
                "ready": progress.ready,
                "built": progress.built,
                "total": progress.total,
                "percent": progress.percent,
            }
        )
