"""An archived round's deadline, set right after its import: history, not a gate. It lies in the past; it is
exact, approximate ("about 4 March 2014": the forum post gave no year) or unknown (the date then only places
the round among its league's rounds). Only a round imported from the forum has one that is not exact; nothing
waits for it, since such a round is revealed or final (a database constraint keeps it so)."""

from datetime import datetime
from typing import Any

from ..models import DeadlinePrecision, Round

NOT_ARCHIVED_MESSAGE = (
    "Only a round imported from the forum can have a deadline that is not known exactly: a round played here "
    "has the deadline its players were given."
)


def clean_archived_deadline(
    round_: Round, changes: dict[str, Any], now: datetime, errors: dict[str, list[str]]
) -> None:
    """Check an imported round's deadline changes (in place): a date in the past; a new date given without
    saying how well it is known is exact. The moment hands are judged at follows a known deadline."""
    if "deadline_precision" in changes and changes["deadline_precision"] not in DeadlinePrecision.values:
        errors["deadline_precision"] = ["Choose exact, approximate or unknown."]
        return
    moved = "deadline" in changes and changes["deadline"] != round_.deadline
    if moved and "deadline_precision" not in changes:
        changes["deadline_precision"] = DeadlinePrecision.EXACT
    if "deadline" not in changes and "deadline_precision" not in changes:
        return
    deadline = changes.get("deadline", round_.deadline)
    if deadline is None:
        errors["deadline"] = [
            "Set a deadline (with an unknown one, a date that places the round in its league)."
        ]
        return
    if deadline > now:
        errors["deadline"] = ["An archived round's deadline is in the past."]
        return
    precision = changes.get("deadline_precision", round_.deadline_precision)
    if moved or precision != round_.deadline_precision:
        changes["legal_as_of"] = deadline if precision != DeadlinePrecision.UNKNOWN else None
