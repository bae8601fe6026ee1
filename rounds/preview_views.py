"""A card's preview: the small fragment card links show on hover and focus (static/js/card_preview.js).

Public catalog data, the same for everyone: rendered without the request (no session, no per-viewer
context) and cacheable by browsers and proxies, so a page full of card links costs one fetch per card.
"""

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from .catalog.texts import TEXT_FIELDS, card_text
from .models import Card

# The catalog changes only when a moderator imports cards: an hour's staleness costs nothing.
PREVIEW_MAX_AGE = 3600


@require_safe
@cache_control(public=True, max_age=PREVIEW_MAX_AGE)
def card_preview(request, slug):
    card = Card.objects.only(*TEXT_FIELDS).filter(slug=slug).first()
    if card is None:
        raise Http404("No such card.")
    html = render_to_string("rounds/_card_preview.html", {"text": card_text(card)})
    return HttpResponse(html, content_type="text/html; charset=utf-8")
