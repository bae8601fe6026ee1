"""What the audit actions this app records read as on the pages (registered by its AppConfig.ready())."""

AUDIT_LABELS = {
    "league.webhook_added": "Webhook added",
    "league.webhook_removed": "Webhook removed",
}
