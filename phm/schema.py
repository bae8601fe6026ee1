"""OpenAPI schema helpers (drf-spectacular settings)."""


def match_points_choices():
    """The match points a player can score, as ENUM_NAME_OVERRIDES wants them: several serializers use this
    choice set, and it gets one component name (MatchPointsEnum) instead of one per field name."""
    from scoring.outcomes import POINTS_VALUES

    return [(value, value) for value in POINTS_VALUES]
