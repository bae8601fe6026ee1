"""A round's deadline as pages show it: `{% round_deadline round %}` is the moment (the viewer's time and UTC)
when it is known exactly; for an archived round "about 4 March 2014", or "unknown"."""

from datetime import UTC

from django import template
from django.utils.dateformat import format as format_date
from django.utils.html import format_html

from accounts.templatetags.viewer_time import moment

from ..models import DeadlinePrecision

register = template.Library()


@register.simple_tag
def round_deadline(round_):
    if round_.deadline_precision == DeadlinePrecision.APPROXIMATE:
        day = round_.deadline.astimezone(UTC)
        return format_html(
            '<time datetime="{}" title="Approximate: the forum post did not say it exactly">about {}</time>',
            day.date().isoformat(),
            format_date(day, "j F Y"),
        )
    if round_.deadline_precision == DeadlinePrecision.UNKNOWN:
        return "unknown"
    return moment(round_.deadline)
