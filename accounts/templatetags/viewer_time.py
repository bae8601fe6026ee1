"""Show a moment as every page does: in the viewer's time zone and in UTC."""

from datetime import UTC

from django import template
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.html import format_html

register = template.Library()

MOMENT_FORMAT = "D j M Y, H:i"


@register.simple_tag
def moment(value):
    """`<time>` with the viewer's local time, followed by UTC when the viewer's zone is not UTC."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    utc = value.astimezone(UTC)
    local_text = f"{format_date(local, MOMENT_FORMAT)} {local.tzname()}"
    if local.utcoffset() == utc.utcoffset() and local.tzname() in ("UTC", "GMT"):
        return format_html('<time datetime="{}">{}</time>', utc.isoformat(), local_text)
    return format_html(
        '<time datetime="{}">{}</time> <span class="text-body-secondary">({} UTC)</span>',
        utc.isoformat(),
        local_text,
        format_date(utc, MOMENT_FORMAT),
    )


FULL_FORMAT = "l j F Y, H:i:s"


@register.filter
def full_moment(value):
    """Plain text for e-mails: the full time, seconds included, in the active zone (the recipient's while
    their e-mail is rendered) and in UTC."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    utc = value.astimezone(UTC)
    text = f"{format_date(local, FULL_FORMAT)} {local.tzname()}"
    if local.utcoffset() == utc.utcoffset() and local.tzname() in ("UTC", "GMT"):
        return text
    return (
        f"{text} ({format_date(utc, 'H:i:s')} UTC)"
        if local.date() == utc.date()
        else (f"{text} ({format_date(utc, FULL_FORMAT)} UTC)")
    )
