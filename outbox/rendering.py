"""How an e-mail looks: the kind's text template in the recipient's time zone, a footer with the one-click
unsubscribe for its kind, and an HTML alternative in the site's colours built from the same text."""

import re

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.timezones import zone_or_utc
from phm.links import site_url

from . import kinds, preferences

FOOTER_MARK = "\n\n-- \n"  # the usual signature separator, before the footer


def unsubscribe_url(user_id, kind_key):
    return site_url(reverse("outbox:unsubscribe", args=[preferences.unsubscribe_token(user_id, kind_key)]))


def preferences_url():
    return site_url(reverse("outbox:preferences"))


def _time_zone(user):
    try:
        return zone_or_utc(user.profile.time_zone)
    except Exception:  # no profile (an account made by createsuperuser): UTC
        return zone_or_utc(None)


def render_email(*, kind, user, subject, template, context, action_label=None):
    """(plain text, HTML) of one e-mail to `user`."""
    kind_info = kinds.kind(kind)
    context = {
        **context,
        "recipient": user,
        "subject": subject,
        "kind": kind_info,
        "unsubscribe_url": unsubscribe_url(user.pk, kind) if kind_info else None,
        "preferences_url": preferences_url(),
        "action_label": action_label or "Open on the site",
    }
    with timezone.override(_time_zone(user)):
        text = render_to_string(template, context).strip()
        context["paragraphs"] = paragraphs(text)
        footer = render_to_string("outbox/email/footer.txt", context).strip()
        html = render_to_string("outbox/email/message.html", context)
    return f"{text}{FOOTER_MARK}{footer}\n", html


def paragraphs(text):
    """The text's paragraphs (blank-line separated), each a list of lines, for the HTML version."""
    return [block.splitlines() for block in re.split(r"\n\s*\n", text) if block.strip()]
