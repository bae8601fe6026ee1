"""Operations on the card catalog and the banned lists, shared by views, the API, the admin and commands."""

from django.db import transaction

from ..catalog.names import normalize_name
from ..catalog.resolve import get_index, resolve_name
from ..models import AcceptedCard, BannedCard, BannedList, BannedListChange, CatalogVersion


class BannedListError(ValueError):
    """A banned-list edit that cannot be made (duplicate card, empty name); the message says why."""


def latest_catalog_version():
    return CatalogVersion.objects.order_by("-id").first()


def banned_lists():
    """Both standing lists with their entries, in two queries."""
    return list(BannedList.objects.prefetch_related("entries").order_by("position", "key"))


def _canonical_name(card_name):
    """The catalog's spelling when the name resolves exactly or by normalisation; else the name as typed."""
    card_name = " ".join((card_name or "").split())
    if not card_name:
        raise BannedListError("A card name is required.")
    resolution = resolve_name(card_name)
    return resolution.card.name if resolution.resolved else card_name


@transaction.atomic
def add_banned_card(banned_list, *, card_name, category, by, note=""):
    name = _canonical_name(card_name)
    key = normalize_name(name)
    if BannedCard.objects.filter(banned_list=banned_list, normalized_name=key).exists():
        raise BannedListError(f"{name} is already on the {banned_list.name}.")
    position = BannedCard.objects.filter(banned_list=banned_list, category=category).count()
    entry = BannedCard.objects.create(
        banned_list=banned_list, card_name=name, normalized_name=key, category=category, position=position
    )
    BannedListChange.objects.create(
        banned_list=banned_list, action=BannedListChange.Action.ADDED, card_name=name,
        category_after=category, changed_by=by, note=note,
    )  # fmt: skip
    return entry


@transaction.atomic
def change_banned_card(entry, *, card_name, category, by, note=""):
    """Rename or re-categorise an entry; no change, no record."""
    before = BannedCard.objects.select_for_update().get(pk=entry.pk)
    name = _canonical_name(card_name)
    key = normalize_name(name)
    if before.card_name == name and before.category == category:
        return before
    duplicate = BannedCard.objects.filter(banned_list_id=before.banned_list_id, normalized_name=key)
    if duplicate.exclude(pk=before.pk).exists():
        raise BannedListError(f"{name} is already on the {before.banned_list.name}.")
    BannedListChange.objects.create(
        banned_list_id=before.banned_list_id, action=BannedListChange.Action.CHANGED, card_name=name,
        name_before=before.card_name if before.card_name != name else "",
        category_before=before.category, category_after=category, changed_by=by, note=note,
    )  # fmt: skip
    before.card_name, before.normalized_name, before.category = name, key, category
    before.save(update_fields=["card_name", "normalized_name", "category"])
    return before


@transaction.atomic
def remove_banned_card(entry, *, by, note=""):
    BannedListChange.objects.create(
        banned_list_id=entry.banned_list_id, action=BannedListChange.Action.REMOVED,
        card_name=entry.card_name, category_before=entry.category, changed_by=by, note=note,
    )  # fmt: skip
    entry.delete()


class AcceptCardError(ValueError):
    pass


def accept_card_problem(round_, name):
    """Why `name` cannot be accepted for `round_`, or None."""
    name = " ".join((name or "").split())
    if not name:
        return "A card name is required."
    resolution = resolve_name(name)
    if resolution.resolved:
        return f"{resolution.card.name} is already in the card catalog; there is nothing to accept."
    if (
        round_ is not None
        and AcceptedCard.objects.filter(round=round_, normalized_name=normalize_name(name)).exists()
    ):
        return f"{name} was already accepted for this round."
    return None


@transaction.atomic
def accept_unknown_card(round_, *, name, by, reason):
    """Record a moderator's decision that `name`, which the catalog lacks, is a real card for `round_`."""
    name = " ".join((name or "").split())
    reason = (reason or "").strip()
    problem = accept_card_problem(round_, name)
    if problem:
        raise AcceptCardError(problem)
    if not reason:
        raise AcceptCardError("Say why the card is accepted (where it was released or spoiled).")
    return AcceptedCard.objects.create(
        round=round_, name=name, normalized_name=normalize_name(name), reason=reason, accepted_by=by
    )


def accepted_card_names(round_):
    return tuple(AcceptedCard.objects.filter(round=round_).values_list("name", flat=True))


def catalog_as_of():
    """Date of the catalog's data, from the in-memory index (no query once it is built)."""
    return get_index().as_of
