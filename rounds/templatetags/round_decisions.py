"""A hand's decisions (rule 7.2b) as the pages show them: the round's question, then the player's answer.

Only for templates that already show that hand's cards: decisions are exactly as secret as the cards."""

from django import template

from ..variants import decision_answer_rows

register = template.Library()


@register.filter
def decision_rows(decisions, round_):
    """[(label, answer)] in the round's order of decisions; answers to keys the round no longer asks last."""
    return decision_answer_rows(round_, decisions)
