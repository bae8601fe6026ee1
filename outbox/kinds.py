"""The kinds of things people are told about, and how each may reach them. Preferences (outbox.preferences)
are kept per kind; a one-click unsubscribe turns one kind's e-mail off."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    key: str
    label: str
    description: str
    site: bool = True  # can be shown on the site (the bell); receipts, for one, are e-mail only
    digest: bool = True  # may wait for the daily digest; False: always at once (time matters)
    email_default: bool = True
    site_default: bool = True


KINDS = [
    Kind("round.opened", "Round opened", "A round opens in a league you play in or follow."),
    Kind(
        "round.reminder",
        "Deadline reminders",
        "24 hours and 1 hour before a deadline, when you have not submitted a hand.",
        digest=False,
    ),
    Kind("league.tiebreak", "Tie-break invitation", "You are invited to a tie-break round.", digest=False),
    Kind(
        "hand.receipt",
        "Receipts of your hand",
        "Each version of your hand, with its commitment, as proof of what you submitted and when.",
        site=False,
        digest=False,
    ),
    Kind(
        "hand.review",
        "Moderator's notes on your hand",
        "A flag, notice, rename, replacement or disqualification of your hand.",
        digest=False,
    ),
    Kind("hands.revealed", "Hands revealed", "A round you played is revealed: score your row."),
    Kind("match.dispute", "Disputed results", "Your opponent reported a result that differs from yours."),
    Kind("match.challenge", "Challenges", "Someone challenged the result of one of your matches."),
    Kind(
        "match.decision",
        "Moderator's decisions",
        "The moderator decided a disputed or challenged match of yours.",
    ),
    Kind(
        "match.needs_result",
        "Matches needing a new result",
        "A hand in one of your matches was replaced or disqualified by the moderator (rule 4.2a) after "
        "results were reported: report the match again (or it no longer counts).",
        digest=False,
    ),
    Kind("results.final", "Results final", "Your points, League points and rank when a round is final."),
    Kind("league.finished", "League finished", "A league you played in has its winners."),
]
BY_KEY = {kind.key: kind for kind in KINDS}
# Sent to one person for their own account, never switched off and never in a digest.
ALWAYS_SENT = {"account.password_reset", "digest", "webhook.test"}


def kind(key):
    return BY_KEY.get(key)
