"""What the audit actions this app records read as on the pages (registered by its AppConfig.ready())."""

AUDIT_LABELS = {
    "league.created": "League created",
    "league.changed": "League settings changed",
    "round.created": "Round created",
    "round.changed": "Rules changed",
    "round.opened": "Round opened",
    "round.deadline_extended": "Deadline extended",
    "round.closed_early": "Submissions ended early",
    "round.banned_resynced": "Banned lists re-synchronised",
    "round.card_accepted": "Card accepted (3.2a)",
    "round.card_withdrawn": "Accepted card withdrawn",
}
