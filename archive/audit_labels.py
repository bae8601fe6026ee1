"""What the audit actions this app records read as on the pages (registered by its AppConfig.ready())."""

AUDIT_LABELS = {
    "round.imported": "Round imported from the forum",
}
