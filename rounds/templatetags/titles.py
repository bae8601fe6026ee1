"""Names shown in quotation marks: `{{ hand.name|quoted }}` (phm.text.quoted keeps a name's own quotes from
doubling the page's)."""

from django import template

from phm.text import quoted as quoted_text

register = template.Library()


@register.filter
def quoted(name):
    """`{{ hand.name|default:"unnamed"|quoted }}` → “Tom's ‘Burn’”."""
    return quoted_text(name)
