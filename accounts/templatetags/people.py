"""How a person is shown on a page (accounts.names.display_name): `display_name_of` for code, the
`display_name` filter for templates."""

from django import template

from accounts.names import display_name as display_name_of

register = template.Library()

__all__ = ["display_name", "display_name_of", "register"]


@register.filter(name="display_name")
def display_name(user):
    """`{{ report.reporter|display_name }}`: the forum name, else the username; "" for no one."""
    return display_name_of(user)
