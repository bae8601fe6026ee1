"""`round|card_rule_lines`: a round's card rules as plain lines, for every page that lists its rules."""

from django import template

from rounds.card_rules import card_rule_lines as _card_rule_lines

register = template.Library()


@register.filter
def card_rule_lines(round_):
    return _card_rule_lines(round_)
