"""API of a round's matches and of one match: its reports, challenges and result, and a challenge's
resolution."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.pagination import page_parameters
from phm.schema import forbidden_because, may_conflict

from .. import matches_reply
from ..serializers import (
    AgreeInputSerializer,
    ChallengeSerializer,
    MatchSerializer,
    ReportSerializer,
    ResolveInputSerializer,
    ResultInputSerializer,
)
from ..services.access import scoring_round, visible_match
from ..services.decisions import challenge_match, resolve_challenge, set_result
from ..services.reports import agree_with_opponent, report_match


class RoundMatchesView(APIView):
    @extend_schema(
        responses=MatchSerializer(many=True),
        parameters=page_parameters(matches_reply.DEFAULT_LIMIT, matches_reply.MAX_LIMIT),
        description="The round's matches in table order, a page at a time (docs/api.md: Pages of a list); "
        "the same bytes for everyone once the round is revealed (404 before), revalidated by their ETag.",
    )
    def get(self, request, round_id):
        return matches_reply.respond(request, scoring_round(round_id))


@may_conflict
class MatchReportsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReportSerializer, responses={201: ReportSerializer})
    def post(self, request, match_id):
        incoming = ReportSerializer(data=request.data)
        visible_match(match_id)
        incoming.is_valid(raise_exception=True)
        report = report_match(reporter=request.user, match_id=match_id, **incoming.validated_data)
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)


@may_conflict
class MatchAgreeView(APIView):
    """A player of the match agrees with the opponent's current report: the same result becomes theirs."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=AgreeInputSerializer,
        responses={201: ReportSerializer},
        description="Your report with your opponent's result (rule 6.3). 403 for anyone but the match's two "
        "players; 409 when the opponent has not reported, when their report is not the one given as "
        "`report`, or when the round is final.",
    )
    def post(self, request, match_id):
        incoming = AgreeInputSerializer(data=request.data)
        visible_match(match_id)
        incoming.is_valid(raise_exception=True)
        report = agree_with_opponent(
            player=request.user, match_id=match_id, report_id=incoming.validated_data["report"]
        )
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)


@may_conflict
class MatchChallengesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ChallengeSerializer,
        responses={201: ChallengeSerializer},
        description="Challenge the match's result with a reason (rule 6.3c), until the round is final: the "
        "league's players (a hand in any of its rounds) and its moderators may; anyone else gets a 403 "
        "saying so (they may still verify the result, 6.3a, by reporting it).",
    )
    @forbidden_because(
        "Only the league's players (a hand in any of its rounds) and its moderators may challenge."
    )
    def post(self, request, match_id):
        incoming = ChallengeSerializer(data=request.data)
        visible_match(match_id)
        incoming.is_valid(raise_exception=True)
        challenge = challenge_match(
            challenger=request.user, match_id=match_id, reason=incoming.validated_data["reason"]
        )
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


@may_conflict
class ChallengeResolveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ResolveInputSerializer, responses=ChallengeSerializer)
    def post(self, request, challenge_id):
        incoming = ResolveInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        challenge = resolve_challenge(
            actor=request.user, challenge_id=challenge_id, **incoming.validated_data
        )
        return Response(ChallengeSerializer(challenge).data)


@may_conflict
class MatchResultView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ResultInputSerializer, responses=MatchSerializer)
    def put(self, request, match_id):
        incoming = ResultInputSerializer(data=request.data)
        visible_match(match_id)
        incoming.is_valid(raise_exception=True)
        match = set_result(actor=request.user, match_id=match_id, **incoming.validated_data)
        return Response(MatchSerializer(match).data)
