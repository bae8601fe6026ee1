"""API for matches and results (docs/api.md: Matches and results). Every view calls scoring.services; the
mapping of service errors to statuses is in one place (`_answer`)."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.api_fields import Choice, Flag, Text, Whole
from phm.downloads import BBCODE, CSV, download, round_filename
from phm.pagination import page_of, page_parameters, with_page_headers
from phm.schema import may_conflict, one_of_pairs, refine
from rounds.models import League
from rounds.round_api import RoundInputSerializer, RoundSerializer
from rounds.services.leagues import standing_banned_entries

from . import export_reply, matches_reply, selectors, table_reply
from .outcomes import OPPONENT_POINTS, POINTS_VALUES
from .services.access import revealed_round_table, scoring_round, visible_match
from .services.bonus import MAX_BONUS, award_bonus, withdraw_bonus
from .services.decisions import DECISIONS, challenge_match, resolve_challenge, set_result
from .services.errors import SCORING_ERRORS, ScoringForbidden, ScoringInputError, ScoringNotFound
from .services.finalization import finalize_round, reopen_round
from .services.league import add_tiebreak_round, managed_league
from .services.posted_rows import import_posted_rows, posted_rows_round
from .services.reports import report_match, report_row
from .services.table_build import table_or_progress
from .standings import league_standings


def _answer(error):
    """The API's answer to a service error: 404, 400 with field reasons, 403, or 409 with what stands in the
    way."""
    if isinstance(error, ScoringNotFound):
        raise NotFound(str(error)) from error
    if isinstance(error, ScoringInputError):
        raise ApiValidationError(error.errors) from error
    if isinstance(error, ScoringForbidden):
        raise PermissionDenied(str(error)) from error
    body = {"detail": str(error), "code": "conflict"}
    if error.items:
        body["items"] = error.items
    return Response(body, status=status.HTTP_409_CONFLICT)


def _round(round_id):
    try:
        return scoring_round(round_id)
    except ScoringNotFound as error:
        raise NotFound(str(error)) from error


# Serializers
# ----------------------------------------------------------------------------------------------------


class MatchSerializer(serializers.Serializer):
    id = Whole()
    a = Whole(source="hand_a.number", help_text="Entry number of the lower-numbered hand.")
    b = Whole(source="hand_b.number")
    player_a = Text(source="hand_a.player.username")
    player_b = Text(source="hand_b.player.username")
    points_a = Whole(allow_null=True)
    points_b = Whole(allow_null=True)
    status = Text()
    decided_note = Text()


class ReportSerializer(serializers.Serializer):
    id = Whole(read_only=True)
    match = Whole(source="match_id", read_only=True)
    reporter = Text(source="reporter.username", read_only=True)
    side = Text(read_only=True, help_text='"a", "b", or "other" for a verification (6.3a).')
    points_a = Choice(choices=POINTS_VALUES)
    points_b = Choice(choices=POINTS_VALUES)
    comment = Text(required=False, allow_blank=True, default="", max_length=2000)
    version = Whole(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)


class RowInputSerializer(serializers.Serializer):
    row = Text(max_length=2000, help_text='Your row, e.g. "3 | 6 0 X 2 4 | PT | Points".')


class RowResultSerializer(serializers.Serializer):
    reports = ReportSerializer(many=True)
    skipped = serializers.ListField(child=Text())


class PostedRowsInputSerializer(serializers.Serializer):
    text = Text(
        max_length=100_000,
        trim_whitespace=False,
        help_text="One or many forum posts as pasted, with players' rows in them (BBCode, prose are fine).",
    )
    dry_run = Flag(
        required=False, default=False, help_text="Only preview: what would be imported, nothing saved."
    )


class PostedRowSerializer(serializers.Serializer):
    number = Whole(help_text="The hand's number: whose row it is.")
    player = Text()
    reports = Whole(help_text="The row's known cells, each one report of its player.")
    note = Text(help_text="The player's note, kept as each report's comment.")


class PostedRowsResultSerializer(serializers.Serializer):
    rows = PostedRowSerializer(many=True)
    skipped = serializers.ListField(child=Text(), help_text="Lines that are not rows.")
    problems = serializers.ListField(child=Text())
    warnings = serializers.ListField(child=Text())


class ChallengeSerializer(serializers.Serializer):
    id = Whole(read_only=True)
    match = Whole(source="match_id", read_only=True)
    challenger = Text(source="challenger.username", read_only=True)
    reason = Text(max_length=2000)
    state = Text(read_only=True)
    note = Text(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    resolved_at = serializers.DateTimeField(read_only=True, allow_null=True)


class ResolveInputSerializer(serializers.Serializer):
    decision = Choice(choices=DECISIONS)
    points_a = Choice(choices=POINTS_VALUES, required=False, allow_null=True, default=None)
    points_b = Choice(choices=POINTS_VALUES, required=False, allow_null=True, default=None)
    note = Text(required=False, allow_blank=True, default="", max_length=2000)


class ResultInputSerializer(serializers.Serializer):
    points_a = Choice(choices=POINTS_VALUES)
    points_b = Choice(choices=POINTS_VALUES)
    note = Text(required=False, allow_blank=True, default="", max_length=2000)


PAIRS = [(points, OPPONENT_POINTS[points]) for points in POINTS_VALUES]


@refine("ReportRequest")
@refine("ResultInputRequest")
def _a_possible_result(schema):
    """Only the five results a match can have (6-0, 4-1, 2-2, 1-4, 0-6), not any two scores."""
    return {**schema, "oneOf": one_of_pairs(PAIRS)}


@refine("ResolveInputRequest")
def _upheld_with_a_result_or_rejected_with_a_note(schema):
    upheld = {
        "properties": {"decision": {"const": "upheld"}},
        "required": ["decision", "points_a", "points_b"],
        "oneOf": one_of_pairs(PAIRS),
    }
    rejected = {
        "properties": {"decision": {"const": "rejected"}, "note": {"minLength": 1, "pattern": "\\S"}},
        "required": ["decision", "note"],
    }
    return {**schema, "oneOf": [upheld, rejected]}


@refine("BonusInputRequest")
def _a_bonus_in_range(schema):
    points = {**schema["properties"]["points"], "minimum": 1, "maximum": MAX_BONUS}
    return {**schema, "properties": {**schema["properties"], "points": points}}


class FinalizeInputSerializer(serializers.Serializer):
    force = Flag(required=False, default=False)


class ReopenInputSerializer(serializers.Serializer):
    reason = Text(max_length=2000)


class BonusInputSerializer(serializers.Serializer):
    player = Text(
        max_length=150,
        help_text="The player's username; their forum name (any case) is accepted when it names one person.",
    )
    points = Whole()
    reason = Text(max_length=2000)


class BonusSerializer(serializers.Serializer):
    id = Whole()
    round = Whole(source="round_id")
    player = Text(source="player.username")
    points = Whole()
    reason = Text()
    awarded_by = Text(source="awarded_by.username")
    created_at = serializers.DateTimeField()
    withdrawn = Flag(help_text="A withdrawn award stays on record but counts nowhere.")
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    withdrawn_by = Text(source="withdrawn_by.username", allow_null=True, default=None)
    withdrawal_reason = Text()


class BonusWithdrawalInputSerializer(serializers.Serializer):
    reason = Text(max_length=2000)


class StandingSerializer(serializers.Serializer):
    rank = Whole()
    player = Text(source="player.username")
    player_name = Text(source="name")
    league_points = Whole(help_text="The total, bonus included.")
    bonus_points = Whole()
    rounds = serializers.SerializerMethodField(help_text="Round id -> League points (0: not played).")
    played = serializers.SerializerMethodField()
    tiebreak_points = Whole(
        allow_null=True,
        help_text="League points in the final tie-break rounds (5.3a), summed; null when the player has "
        "none. The tie-break rounds rank the players tied for first, in order: the first decides, then "
        "the next.",
    )
    winner = Flag(
        help_text="The league's winner, or one of its joint winners: declared by a moderator, or given by "
        "the standings (sole leader, leader after the tie-break rounds, or still level after the last "
        "allowed)."
    )

    def get_rounds(self, row) -> dict[str, int]:
        return {str(round_id): points for round_id, points in row.rounds.items()}

    def get_played(self, row) -> list[int]:
        return sorted(row.played)


class TableRowSerializer(serializers.Serializer):
    number = Whole()
    player = Text(source="hand.player.username")
    player_name = Text(source="player")
    hand_name = Text()
    cells = serializers.SerializerMethodField()
    points = Whole()
    league_points = Whole(
        help_text="The round's League points (rule 5.2), before bonus; the standings' total adds bonus."
    )
    bonus_points = Whole(help_text="Bonus League points awarded in this round (6.2, 7.7).")
    rank = Whole()

    def get_cells(self, row) -> dict[str, int | None]:
        return row.points_by_opponent


# Views
# ----------------------------------------------------------------------------------------------------------


class RoundMatchesView(APIView):
    @extend_schema(
        responses=MatchSerializer(many=True),
        parameters=page_parameters(matches_reply.DEFAULT_LIMIT, matches_reply.MAX_LIMIT),
        description="The round's matches in table order, a page at a time (docs/api.md: Pages of a list); "
        "the same bytes for everyone once the round is revealed (404 before), revalidated by their ETag.",
    )
    def get(self, request, round_id):
        round_ = _round(round_id)
        try:
            return matches_reply.respond(request, round_)
        except SCORING_ERRORS as error:
            return _answer(error)


@may_conflict
class MatchReportsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReportSerializer, responses={201: ReportSerializer})
    def post(self, request, match_id):
        incoming = ReportSerializer(data=request.data)
        try:
            visible_match(match_id)
            incoming.is_valid(raise_exception=True)
            report = report_match(
                reporter=request.user, match_id=match_id, **incoming.validated_data
            )
        except SCORING_ERRORS as error:
            return _answer(error)
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)


@may_conflict
class RoundRowsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=RowInputSerializer, responses={201: RowResultSerializer})
    def post(self, request, round_id):
        round_ = _round(round_id)
        incoming = RowInputSerializer(data=request.data)
        try:
            revealed_round_table(round_)
            incoming.is_valid(raise_exception=True)
            outcome = report_row(
                player=request.user, round_id=round_.pk, row=incoming.validated_data["row"]
            )
        except SCORING_ERRORS as error:
            return _answer(error)
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
        try:
            posted_rows_round(actor=request.user, round_id=round_id)
            incoming.is_valid(raise_exception=True)
            result = import_posted_rows(
                actor=request.user,
                round_id=round_id,
                text=incoming.validated_data["text"],
                dry_run=incoming.validated_data["dry_run"],
            )
        except SCORING_ERRORS as error:
            return _answer(error)
        answer = status.HTTP_200_OK if result.dry_run else status.HTTP_201_CREATED
        return Response(PostedRowsResultSerializer(result).data, status=answer)


@may_conflict
class MatchChallengesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ChallengeSerializer, responses={201: ChallengeSerializer})
    def post(self, request, match_id):
        incoming = ChallengeSerializer(data=request.data)
        try:
            visible_match(match_id)
            incoming.is_valid(raise_exception=True)
            challenge = challenge_match(
                challenger=request.user, match_id=match_id, reason=incoming.validated_data["reason"]
            )
        except SCORING_ERRORS as error:
            return _answer(error)
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


@may_conflict
class ChallengeResolveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ResolveInputSerializer, responses=ChallengeSerializer)
    def post(self, request, challenge_id):
        incoming = ResolveInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            challenge = resolve_challenge(
                actor=request.user, challenge_id=challenge_id, **incoming.validated_data
            )
        except SCORING_ERRORS as error:
            return _answer(error)
        return Response(ChallengeSerializer(challenge).data)


@may_conflict
class MatchResultView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ResultInputSerializer, responses=MatchSerializer)
    def put(self, request, match_id):
        incoming = ResultInputSerializer(data=request.data)
        try:
            visible_match(match_id)
            incoming.is_valid(raise_exception=True)
            match = set_result(actor=request.user, match_id=match_id, **incoming.validated_data)
        except SCORING_ERRORS as error:
            return _answer(error)
        return Response(MatchSerializer(match).data)


@may_conflict
class RoundFinalizeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=FinalizeInputSerializer, responses=TableRowSerializer(many=True))
    def post(self, request, round_id):
        incoming = FinalizeInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            round_ = finalize_round(actor=request.user, round_id=round_id, **incoming.validated_data)
            table = selectors.results_table(round_, viewer=request.user, cells=False)
        except SCORING_ERRORS as error:
            return _answer(error)
        return Response(TableRowSerializer(table.by_rank, many=True).data)


@may_conflict
class RoundReopenView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReopenInputSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, round_id):
        incoming = ReopenInputSerializer(data=request.data)
        try:
            scoring_round(round_id)
            incoming.is_valid(raise_exception=True)
            round_ = reopen_round(actor=request.user, round_id=round_id, **incoming.validated_data)
        except SCORING_ERRORS as error:
            return _answer(error)
        return Response({"id": round_.pk, "state": round_.state})


class RoundTableView(APIView):
    @extend_schema(responses=TableRowSerializer(many=True))
    def get(self, request, round_id):
        """The same bytes for everyone once the round is revealed (404 before): cached, compressed and
        revalidated by its ETag (scoring.table_reply)."""
        round_ = _round(round_id)
        try:
            return table_reply.respond(request, round_)
        except SCORING_ERRORS as error:
            return _answer(error)


class RoundTableProgressView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, round_id):
        """`{"ready", "built", "total", "percent"}`: whether the match table exists, or how many of its
        matches a background build has made (it is queued if it was not); 404 before the reveal."""
        round_ = _round(round_id)
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


@may_conflict
class RoundBonusView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=BonusInputSerializer, responses={201: BonusSerializer})
    def post(self, request, round_id):
        incoming = BonusInputSerializer(data=request.data)
        try:
            scoring_round(round_id)
            incoming.is_valid(raise_exception=True)
            award = award_bonus(
                actor=request.user,
                round_id=round_id,
                player_username=incoming.validated_data["player"],
                points=incoming.validated_data["points"],
                reason=incoming.validated_data["reason"],
            )
        except SCORING_ERRORS as error:
            return _answer(error)
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
        try:
            scoring_round(round_id)
            incoming.is_valid(raise_exception=True)
            award = withdraw_bonus(
                actor=request.user,
                round_id=round_id,
                award_id=award_id,
                reason=incoming.validated_data["reason"],
            )
        except SCORING_ERRORS as error:
            return _answer(error)
        return Response(BonusSerializer(award).data)


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


class RoundExportView(APIView):
    """The results post (BBCode) or the table (CSV), as plain downloads: the same for everyone once the round
    is revealed (404 before), built once per state of the round (scoring.export_reply)."""

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, (200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, round_id, kind):
        round_ = _round(round_id)
        try:
            text = export_reply.export_text(round_, kind)
        except SCORING_ERRORS as error:
            return _answer(error)
        if kind == "csv":
            return download(text, round_filename(round_, "results", "csv"), CSV)
        return download(text, round_filename(round_, "results", "bbcode"), BBCODE)


@may_conflict
class LeagueTiebreakView(APIView):
    """POST /api/leagues/{id}/tiebreak/ (rule 5.3a): the body of POST /api/rounds/ (its `league` aside; every
    field optional: "Tie-break n", 5 cards, a week) → 201 an open round only the players tied for first may
    enter; 409 when nobody is tied (or the league has its winners)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=RoundInputSerializer, responses={201: RoundSerializer})
    def post(self, request, league_id):
        incoming = RoundInputSerializer(data=request.data, partial=True)
        try:
            managed_league(request.user, league_id)
            incoming.is_valid(raise_exception=True)
            round_ = add_tiebreak_round(
                actor=request.user, league_id=league_id, rules=incoming.rule_values(), open_now=True
            )
        except SCORING_ERRORS as error:
            return _answer(error)
        context = {"request": request, "now": timezone.now(), "standing": standing_banned_entries()}
        return Response(RoundSerializer(round_, context=context).data, status=status.HTTP_201_CREATED)
