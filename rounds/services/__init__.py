"""Business operations of the rounds app: `catalog` (cards, banned lists, accepted cards) and `leagues`
(leagues and rounds). The catalog operations are re-exported here for callers written as `services.X`."""

from .catalog import (
    AcceptCardError,
    AcceptCardForbidden,
    BannedListError,
    accept_card_problem,
    accept_unknown_card,
    accepted_card_names,
    add_banned_card,
    banned_lists,
    catalog_as_of,
    change_banned_card,
    latest_catalog_version,
    remove_banned_card,
    withdraw_accepted_card,
)

__all__ = [
    "AcceptCardError",
    "AcceptCardForbidden",
    "BannedListError",
    "accept_card_problem",
    "accept_unknown_card",
    "accepted_card_names",
    "add_banned_card",
    "banned_lists",
    "catalog_as_of",
    "change_banned_card",
    "latest_catalog_version",
    "remove_banned_card",
    "withdraw_accepted_card",
]
