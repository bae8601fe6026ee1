"""A round's effective banned list: the standing PHM and Land Rule lists, the round's own bans and the bans
it lifts; and the snapshot of them a round takes when it opens (rule 2.1a)."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..catalog.names import normalize_name
from ..catalog.resolve import catalog_as_of
from ..models import BannedCard, BannedList, Round, RoundState

# One entry of a banned list as rounds store and show it: {"name", "list", "category", "lifted"?}.
BannedEntry = dict[str, Any]
StandingLists = Mapping[str, list[BannedEntry]]


def effective_banned_entries(round_: Round, standing: StandingLists | None = None) -> list[BannedEntry]:
    """The round's effective banned list as [{"name","list","category","lifted"?}]: PHM, then LR, then the
    round's; entries the round lifts carry "lifted": True.

    An open round answers from its snapshot; a draft from the standing lists as they are now (pass `standing`,
    from standing_banned_entries(), to answer many drafts with one query).
    """
    if round_.state != RoundState.DRAFT and round_.banned_snapshot:
        entries = round_.banned_snapshot
    else:
        entries = banned_entries_now(round_, standing)
    return _mark_lifted(round_, entries)


def _mark_lifted(round_, entries):
    """Entries of the standing lists that the round lifts (its `unbanned`) get "lifted": True: they are shown
    struck, and are not in the round's effective list of names. The round's own extra bans stay."""
    if not round_.unbanned:
        return entries
    lifted = {normalize_name(name) for name in round_.unbanned}
    return [
        {**entry, "lifted": True}
        if entry["list"] != "round" and normalize_name(entry["name"]) in lifted
        else entry
        for entry in entries
    ]


def standing_banned_entries() -> dict[str, list[BannedEntry]]:
    """The standing PHM and Land Rule lists: {"phm": [entry], "land-rule": [entry]}, in display order."""
    lists: dict[str, list[BannedEntry]] = {}
    for entry in BannedCard.objects.select_related("banned_list").order_by(
        "banned_list__position", "position", "card_name"
    ):
        lists.setdefault(entry.banned_list.key, []).append(
            {"name": entry.card_name, "list": entry.banned_list.key, "category": entry.category}
        )
    return lists


def banned_entries_now(round_: Round, standing: StandingLists | None = None) -> list[BannedEntry]:
    standing = standing_banned_entries() if standing is None else standing
    entries = list(standing.get(BannedList.PHM, []))
    if round_.land_rule != "none":
        entries += standing.get(BannedList.LAND_RULE, [])
    entries += [{"name": name, "list": "round", "category": ""} for name in round_.extra_banned]
    return entries


def take_banned_snapshot(round_: Round, now: datetime) -> None:
    """The standing lists and the catalog's legalities as of `now` become the round's (rule 2.1a)."""
    round_.banned_snapshot = banned_entries_now(round_)
    round_.catalog_as_of = catalog_as_of()
    round_.legal_as_of = now


def snapshot_land_rule_list(round_: Round) -> None:
    """An imported round whose land rule was set right afterwards: its snapshot gains (or loses) the Land Rule
    Banned List, as the standing list is now (the forum's list of the time is not known)."""
    entries = [entry for entry in round_.banned_snapshot if entry["list"] != BannedList.LAND_RULE]
    if round_.land_rule != "none":
        phm = [entry for entry in entries if entry["list"] == BannedList.PHM]
        rest = [entry for entry in entries if entry["list"] != BannedList.PHM]
        entries = phm + standing_banned_entries().get(BannedList.LAND_RULE, []) + rest
    round_.banned_snapshot = entries
