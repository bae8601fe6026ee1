"""Card names on pages: `{% card name %}` links a name to its card page, with a preview of the card's text on
hover and keyboard focus (static/js/card_preview.js fetches it from `rounds:card-preview` the first time).

Names resolve in the catalog's in-memory index (`resolve.known_card`): no query per card. The link carries
nothing but its address, so a page listing hundreds of hands stays light; the text comes once per card, on
demand. A name the catalog does not know (a card a moderator accepted, rule 3.2a) is plain text.
"""

from functools import lru_cache
from urllib.parse import urlencode

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape, format_html

from rounds.catalog.resolve import known_card

register = template.Library()

# The class card_preview.js looks for; a link without it (where the text is already shown) gets no preview.
PREVIEW_CLASS = "phm-card"
SCRYFALL_IMAGE_URL = "https://api.scryfall.com/cards/named"
SLUG_PLACEHOLDER = "card-slug-placeholder"


@lru_cache(maxsize=16)
def _card_url_pattern(script_prefix, urlconf):
    """The card page's address with a placeholder for the slug, once per script prefix and URLconf (what
    `reverse` reads): a page with hundreds of card names would otherwise spend most of its time in `reverse`.
    A slug needs no escaping in a path."""
    return reverse("rounds:card-detail", kwargs={"slug": SLUG_PLACEHOLDER}, urlconf=urlconf)


def card_url(slug):
    return _card_url_pattern(get_script_prefix(), get_urlconf()).replace(SLUG_PLACEHOLDER, slug)


def shown_name(typed, card):
    """The name as players write it: a multi-face card's full Oracle name becomes its display name (the front
    face, or `A // B` for split cards); any other spelling is kept as given."""
    if typed.strip().casefold() == card.oracle_name.casefold():
        return card.name
    return typed


@register.simple_tag
def card(name, preview=True):
    """`{% card name %}`: a link to the card's page with a preview, or the name as text when the catalog does
    not know it. `preview=False` for lists that show the card's text beside its name."""
    if not isinstance(name, str) or not name.strip():
        return ""
    found = known_card(name)
    if found is None:
        return conditional_escape(name)
    url = card_url(found.slug)
    if preview:
        return format_html('<a class="{}" href="{}">{}</a>', PREVIEW_CLASS, url, shown_name(name, found))
    return format_html('<a href="{}">{}</a>', url, shown_name(name, found))


def card_image_url(name):
    """Scryfall's image of the card by its name (it redirects to cards.scryfall.io); None unless the
    CARD_IMAGES setting is on, so that by default the site loads nothing from elsewhere."""
    if not getattr(settings, "CARD_IMAGES", False) or not name:
        return None
    query = urlencode({"exact": name, "format": "image", "version": "normal"})
    return f"{SCRYFALL_IMAGE_URL}?{query}"


@register.inclusion_tag("rounds/_card_image.html")
def card_image(card_name, css_class=""):
    """The card's image when CARD_IMAGES is on; nothing otherwise. The page keeps the card's text: the image
    is an addition, removed by card_preview.js when it fails to load."""
    return {"url": card_image_url(card_name), "name": card_name, "css_class": css_class}
