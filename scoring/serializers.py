"""The API's serializers for matches, reports, challenges, results, bonus, standings and tables (docs/api.md:
Matches and results), with the schema refinements of their request bodies. Types only: the rules are the
scoring services'."""

from rest_framework import serializers

from phm.api_fields import Choice, Flag, Id, Text, Whole
from phm.schema import one_of_pairs, refine

from .outcomes import OPPONENT_POINTS, POINTS_VALUES
from .services.bonus import MAX_BONUS
from .services.decisions import DECISIONS


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


class AgreeInputSerializer(serializers.Serializer):
    report = Id(
        required=False,
        allow_null=True,
        default=None,
        help_text="The id of the opponent's report you read: if they have changed it since, nothing is saved "
        "(409).",
    )


class RowInputSerializer(serializers.Serializer):
    row = Text(max_length=2000, help_text='Your row, e.g. "3 | 6 0 X 2 4 | PT | Points".')


class RowResultSerializer(serializers.Serializer):
    reports = ReportSerializer(many=True)
    skipped = serializers.ListField(child=Text())
    warnings = serializers.ListField(
        child=Text(),
        help_text="The row's stated PT or Points that its cells do not give, with what the cells give: the "
        "cells are what is reported.",
    )


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
    warnings = serializers.ListField(
        child=Text(), help_text="Among them, each row's stated PT or Points that its cells do not give."
    )
    disputes = serializers.ListField(
        child=Text(),
        help_text="The matches the rows make (or leave) disputed: a row's cell differs from the opponent's "
        "report, or from the opponent's row in the same text.",
    )


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
