"""What the audit actions this app records read as on the pages (registered by its AppConfig.ready())."""

AUDIT_LABELS = {
    "round.table_built": "Match table built",
    "round.finalized": "Round finalized",
    "round.reopened": "Round reopened",
    "round.bonus_awarded": "Bonus League points awarded",
    "round.bonus_withdrawn": "Bonus League points withdrawn",
    "round.posted_rows_imported": "Players' posted rows imported",
    "round.tiebreak_added": "Tie-break round added (5.3a)",
    "round.results_superseded": "Results superseded: a hand was replaced or disqualified (4.2a)",
    "league.winners_declared": "Winners declared",
    "league.winners_computed": "Winners known from the standings (5.3, 5.3a)",
    "match.reported": "Result reported",
    "match.verified": "Result verified by another player",
    "match.result_set": "Result set by the moderator",
    "match.challenged": "Result challenged",
    "challenge.upheld": "Challenge upheld",
    "challenge.rejected": "Challenge rejected",
}
