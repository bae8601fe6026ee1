"""What the audit actions this app records read as on the pages (registered by its AppConfig.ready())."""

AUDIT_LABELS = {
    "round.hands_previewed": "Moderator chose to see the hands (will not play)",
    "round.revealed": "Hands revealed",
    "round.correction_imported": "Corrections imported from the forum",
    "hand.submitted": "Hand submitted",
    "hand.changed": "Hand changed (new version)",
    "hand.flag": "Hand flagged as illegal",
    "hand.unflag": "Flag removed",
    "hand.notice": "Notice attached (4.2b)",
    "hand.rename": "Hand renamed",
    "hand.disqualify": "Hand disqualified",
    "hand.replace": "Hand replaced by a similar hand",
}
