"""What the audit actions this app records read as on the pages (registered by its AppConfig.ready())."""

AUDIT_LABELS = {
    "mail.retried": "Message sent again by a moderator",
    "notifications.unsubscribed": "E-mails of one kind turned off",
}
