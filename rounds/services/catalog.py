"""Operations on the card catalog and the banned lists, shared by views, the API, the admin and commands."""

from datetime import date

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.formats import date_format

from audit.services import log_action
from phm.errors import Conflict, DomainError, Forbidden, InputError, NotFound

from .. import signals
from ..catalog.names import normalize_name
from ..catalog.resolve import get_index, resolve_name
from ..locks import lock_round
from ..models import (
    AcceptedCard,
    BannedCard,
    BannedList,
    BannedListChange,
    Card,
    CatalogVersion,
    Round,
)
from ..permissions import can_manage_league, guard_own_interest
from ..previewed_cards import acceptance_problem


class BannedListError(InputError):
    """A banned-list edit that cannot be made (duplicate card, empty name); the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message=message)


def latest_catalog_version() -> CatalogVersion | None:
    return CatalogVersion.objects.order_by("-id").first()


def banned_lists() -> list[BannedList]:
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
def add_banned_card(
    banned_list: BannedList, *, card_name: str, category: str, by: User, note: str = ""
) -> BannedCard:
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
def change_banned_card(
    entry: BannedCard, *, card_name: str, category: str, by: User, note: str = ""
) -> BannedCard:
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
def remove_banned_card(entry: BannedCard, *, by: User, note: str = "") -> None:
    BannedListChange.objects.create(
        banned_list_id=entry.banned_list_id, action=BannedListChange.Action.REMOVED,
        card_name=entry.card_name, category_before=entry.category, changed_by=by, note=note,
    )  # fmt: skip
    entry.delete()


class AcceptCardError(InputError):
    """The card cannot be accepted (400, the message as the `name` field's problem), or one of the cases
    below."""

    def __init__(self, message: str) -> None:
        super().__init__({"name": [message]}, message)


class AcceptCardConflict(Conflict, AcceptCardError):
    """The round's state stands in the way: it is final, or the card is accepted already (409)."""

    def __init__(self, message: str) -> None:
        DomainError.__init__(self, message)
        self.errors = {}


class AcceptedCardNotFound(NotFound, AcceptCardError):
    """No such accepted card in the round (404)."""

    def __init__(self, message: str) -> None:
        DomainError.__init__(self, message)
        self.errors = {}


def accepted_card_name(name: str | None) -> str:
    """The name an accepted card is recorded under: the catalog's when it knows the card, else as typed."""
    name = " ".join((name or "").split())
    resolution = resolve_name(name) if name else None
    return resolution.card.name if resolution is not None and resolution.resolved else name


def accept_card_problem(
    round_: Round | None, name: str | None, *, not_in_catalog: bool = False
) -> str | None:
    """Why `name` cannot be accepted for `round_`, or None. A catalog card can be when rule 3.2a allows it
    (not yet released: rounds.previewed_cards says why another cannot). A name the catalog lacks gets the
    catalog's suggestions, as everywhere, unless the moderator confirms (`not_in_catalog`) that it is a real
    card the catalog does not have (a card too new for it, or one of its known gaps)."""
    name = " ".join((name or "").split())
    if not name:
        return "A card name is required."
    resolution = resolve_name(name)
    if resolution.resolved:
        card = Card.objects.only("id", "name", "legalities", "paper", "type_line", "first_printed").get(
            pk=resolution.card.id
        )
        problem = acceptance_problem(card, round_)
        if problem:
            return problem
        name = resolution.card.name
    elif not not_in_catalog:
        suggestions = resolution.suggestion_names
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        as_of = get_index().as_of
        when = date_format(as_of, "j F Y") if as_of else "an unknown date"
        return (
            f"“{name}” is not in the card catalog (as of {when}).{hint} If it is a real card the catalog "
            "lacks, confirm that it is not in the catalog."
        )
    if (
        round_ is not None
        and AcceptedCard.objects.filter(round=round_, normalized_name=normalize_name(name)).exists()
    ):
        return f"{name} was already accepted for this round."
    return None


class AcceptCardForbidden(Forbidden):
    """Not a moderator of the round's league, or a playing one where another moderator can decide (403)."""


MAX_ACCEPT_REASON = 2000


def _check_card_power(round_, by):
    """Accepting or withdrawing a card is a moderator's power over one league's round, and never in their own
    interest: a moderator who plays in the round leaves it to another moderator of the league if there is one
    (where they are the only one, the round page shows who accepted what)."""
    if not can_manage_league(by, round_.league):
        raise AcceptCardForbidden("Only a moderator of this league can accept cards for its rounds.")
    if round_.hands.filter(player=by).exists():
        guard_own_interest(
            by,
            round_.league,
            what="decide which cards are legal in this round",
            why="you play in it",
            error=AcceptCardForbidden,
        )


@transaction.atomic
def accept_unknown_card(
    round_: Round, *, name: str, by: User, reason: str, not_in_catalog: bool = False
) -> AcceptedCard:
    """Record a moderator's decision that `name` is a real card legal in `round_` (rule 3.2a): a catalog card
    not yet released (a previewed card), or — confirmed by `not_in_catalog` — a name the catalog lacks;
    audited and shown on the round page. It never lifts a Vintage ban or a banned list. The round is locked: a
    hand is judged either before or after the decision, never during it."""
    round_ = lock_round(round_.pk)
    _check_card_power(round_, by)
    if round_.state == "final":
        raise AcceptCardConflict("This round is final: its cards are settled.")
    name = accepted_card_name(name)
    reason = (reason or "").strip()
    if name and AcceptedCard.objects.filter(round=round_, normalized_name=normalize_name(name)).exists():
        raise AcceptCardConflict(f"{name} was already accepted for this round.")
    problem = accept_card_problem(round_, name, not_in_catalog=not_in_catalog)
    if problem:
        raise AcceptCardError(problem)
    if not reason:
        raise AcceptCardError("Say why the card is accepted (where it was released or spoiled).")
    if len(reason) > MAX_ACCEPT_REASON or len(name) > AcceptedCard._meta.get_field("name").max_length:  # type: ignore[operator]
        raise AcceptCardError(
            f"Keep the name and the reason short (a reason has at most {MAX_ACCEPT_REASON} characters)."
        )
    accepted = AcceptedCard.objects.create(
        round=round_, name=name, normalized_name=normalize_name(name), reason=reason, accepted_by=by
    )
    log_action(round_, "round.card_accepted", actor=by, after={"card": name}, note=reason)
    if round_.state == "open":
        signals.round_cards_changed.send(sender=Round, round_id=round_.pk)
    return accepted


@transaction.atomic
def withdraw_accepted_card(round_: Round, *, card_id: int, by: User) -> AcceptedCard:
    """Take back an accepted card (hands that use it become illegal: review them); audited."""
    round_ = lock_round(round_.pk)
    _check_card_power(round_, by)
    if round_.state == "final":
        raise AcceptCardConflict("This round is final: its cards are settled.")
    accepted = AcceptedCard.objects.filter(round=round_, pk=card_id).first()
    if accepted is None:
        raise AcceptedCardNotFound("No such accepted card in this round.")
    accepted.delete()
    log_action(round_, "round.card_withdrawn", actor=by, before={"card": accepted.name})
    if round_.state == "open":
        signals.round_cards_changed.send(sender=Round, round_id=round_.pk)
    return accepted


def accepted_card_names(round_: Round) -> tuple[str, ...]:
    return tuple(AcceptedCard.objects.filter(round=round_).values_list("name", flat=True))


def catalog_as_of() -> date | None:
    """Date of the catalog's data, from the in-memory index (no query once it is built)."""
    return get_index().as_of
