from django import template

register = template.Library()


@register.inclusion_tag("rounds/_catalog_as_of.html")
def catalog_as_of(catalog):
    """The "catalog as of DATE" line with its sources; `catalog` is the latest CatalogVersion (or None)."""
    return {"catalog": catalog}


_LEGALITY_STYLES = {
    "legal": ("success", "Legal"),
    "restricted": ("warning", "Restricted"),
    "banned": ("danger", "Banned"),
    "not_legal": ("secondary", "Not legal"),
}


@register.inclusion_tag("rounds/_legality_badge.html")
def legality_badge(status):
    style, label = _LEGALITY_STYLES.get(status, ("secondary", status))
    return {"style": style, "label": label}
