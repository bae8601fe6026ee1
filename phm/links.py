"""Absolute links for e-mails: SITE_URL when set, else the bare path."""

from django.conf import settings


def site_url(path):
    base = getattr(settings, "SITE_URL", "")
    return f"{base.rstrip('/')}{path}" if base else path
