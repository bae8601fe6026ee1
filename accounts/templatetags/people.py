"""How a person is shown in a template: the `display_name` filter (accounts.names.display_name decides)."""

from django import template

from accounts import names

register = template.Library()


@register.filter(name="display_name")
def display_name(user):
    """`{{ report.reporter|display_name }}`: the forum name, else the username; "" for no one."""
    return names.display_name(user)
