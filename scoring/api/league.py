"""API of a league's scoring: its standings, and a tie-break round (rule 5.3a)."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.pagination import page_of, page_parameters, with_page_headers
from phm.schema import may_conflict
from rounds.models import League
from rounds.round_api import RoundInputSerializer, RoundSerializer
from rounds.services.effective_banned import standing_banned_entries

from ..serializers import StandingSerializer
from ..services.league import add_tiebreak_round, managed_league
from ..standings import league_standings

STANDINGS_PAGE, STANDINGS_MAX_PAGE = 500, 2000


class LeagueStandingsView(APIView):
    @extend_schema(
        responses=StandingSerializer(many=True),
        parameters=page_parameters(STANDINGS_PAGE, STANDINGS_MAX_PAGE),
        description="The league's standings by rank, a page at a time (docs/api.md: Pages of a list).",
    )
    def get(self, request, league_id):
        league = League.objects.filter(pk=league_id).first()
        if league is None:
            raise NotFound("No such league.")
        page = page_of(request, default=STANDINGS_PAGE, maximum=STANDINGS_MAX_PAGE)
        rows = league_standings(league).rows
        response = Response(StandingSerializer(page.of(rows), many=True).data)
        return with_page_headers(response, request, page, len(rows))


@may_conflict
class LeagueTiebreakView(APIView):
    """POST /api/leagues/{id}/tiebreak/ (rule 5.3a): the body of POST /api/rounds/ (its `league` aside; every
    field optional: "Tie-break n", 5 cards, a week) → 201 an open round only the players tied for first may
    enter; 409 when nobody is tied (or the league has its winners)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=RoundInputSerializer, responses={201: RoundSerializer})
    def post(self, request, league_id):
        incoming = RoundInputSerializer(data=request.data, partial=True)
        managed_league(request.user, league_id)
        incoming.is_valid(raise_exception=True)
        round_ = add_tiebreak_round(
            actor=request.user, league_id=league_id, rules=incoming.rule_values(), open_now=True
        )
        context = {"request": request, "now": timezone.now(), "standing": standing_banned_entries()}
        return Response(RoundSerializer(round_, context=context).data, status=status.HTTP_201_CREATED)
