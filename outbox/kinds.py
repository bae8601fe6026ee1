"""The kinds of things people are told about, and how each may reach them. Preferences (outbox.preferences)
are kept per kind; a one-click unsubscribe turns one kind's e-mail off. The one source of each kind's names:
`label` on the preferences page, `message_label` for one message in the outbox's lists (the admin)."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Kind:
    key: str
    label: str
    description: str
    site: bool = True  # can be shown on the site (the bell); receipts, for one, are e-mail only
    digest: bool = True  # may wait for the daily digest; False: always at once (time matters)
    email_default: bool = True
    site_default: bool = True
    # Told only to those who can manage a league (rounds.permissions): shown to moderators alone on the
    # preferences page and in the API; a player never gets one.
    for_moderators: bool = False
    message_label: str = field(kw_only=True)  # one message of this kind, in the outbox's lists


KINDS = [
    Kind(
        "round.opened",
        "Round opened",
        "A round opens in a league you play in or follow.",
        message_label="Round opened",
    ),
    Kind(
        "round.opened_new_league",
        "Rounds of new leagues",
        "A new league (no final or archived round yet) opens a round, and you played here in the last six "
        'months. Once you play in that league or follow it, its rounds come as "Round opened".',
        message_label="New league's round opened",
    ),
    Kind(
        "round.reminder",
        "Deadline reminders",
        "24 hours and 1 hour before a deadline, when you have not submitted a hand.",
        digest=False,
        message_label="Deadline reminder",
    ),
    Kind(
        "league.tiebreak",
        "Tie-break invitation",
        "You are invited to a tie-break round.",
        digest=False,
        message_label="Tie-break invitation",
    ),
    Kind(
        "hand.receipt",
        "Receipts of your hand",
        "Each version of your hand, with its commitment, as proof of what you submitted and when.",
        site=False,
        digest=False,
        message_label="Hand receipt",
    ),
    Kind(
        "hand.review",
        "Moderator's notes on your hand",
        "A flag, notice, rename, replacement or disqualification of your hand.",
        digest=False,
        message_label="Review notice",
    ),
    Kind(
        "hands.revealed",
        "Hands revealed",
        "A round you played is revealed: score your row.",
        message_label="Hands revealed",
    ),
    Kind(
        "match.dispute",
        "Disputed results",
        "Your opponent reported a result that differs from yours.",
        message_label="Results differ",
    ),
    Kind(
        "match.challenge",
        "Challenges",
        "Someone challenged the result of one of your matches.",
        message_label="Result challenged",
    ),
    Kind(
        "match.decision",
        "Moderator's decisions",
        "The moderator decided a disputed or challenged match of yours.",
        message_label="Moderator's decision",
    ),
    Kind(
        "moderation.dispute",
        "Disputes in your leagues",
        "A match in a league you moderate became disputed: its two players' reports differ.",
        for_moderators=True,
        message_label="Dispute to decide",
    ),
    Kind(
        "moderation.challenge",
        "Challenges in your leagues",
        "Someone challenged a result in a league you moderate (rule 6.3c).",
        for_moderators=True,
        message_label="Challenge to decide",
    ),
    Kind(
        "match.needs_result",
        "Matches needing a new result",
        "A hand in one of your matches was replaced or disqualified by the moderator (rule 4.2a) after "
        "results were reported: report the match again (or it no longer counts).",
        digest=False,
        message_label="New result needed",
    ),
    Kind(
        "results.reopened",
        "Results reopened",
        "A final round you played was reopened by the moderator (with the reason): its results can change "
        "again until it is final once more.",
        message_label="Results reopened",
    ),
    Kind(
        "results.final",
        "Results final",
        "Your points, League points and rank when a round is final, and again (with what changed) when a "
        "reopened round is final once more.",
        message_label="Results final",
    ),
    Kind(
        "league.bonus",
        "Bonus League points",
        "Bonus League points awarded to you (rule 6.2), or withdrawn, with the points and the reason.",
        message_label="Bonus League points",
    ),
    Kind(
        "league.winners_changed",
        "League winners changed",
        "The winners announced in a league you play in or follow changed or no longer stand (a bonus, a "
        "round reopened or final again).",
        message_label="League winners changed",
    ),
    Kind(
        "league.finished",
        "League finished",
        "A league you played in has its winners.",
        message_label="League finished",
    ),
]
BY_KEY = {kind.key: kind for kind in KINDS}
# Sent to one person for their own account, never switched off and never in a digest; each with its label in
# the outbox's lists.
ALWAYS_SENT_LABELS = {"account.password_reset": "Password reset", "digest": "Daily digest"}
ALWAYS_SENT = set(ALWAYS_SENT_LABELS)
# What the outbox's lists call one message of each kind that is sent.
MESSAGE_LABELS = {**{kind.key: kind.message_label for kind in KINDS}, **ALWAYS_SENT_LABELS}


def kind(key):
    return BY_KEY.get(key)


def message_label(key):
    """One message of kind `key`, as the outbox's lists name it (the key itself for a kind no longer sent)."""
    return MESSAGE_LABELS.get(key, key)
