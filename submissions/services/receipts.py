"""The e-mail receipt of a hand version: queued in the submission's transaction as a small outbox row, its
body rendered by the worker that sends it (render_receipt, registered with outbox.deferred at start-up)."""

from django.urls import reverse

from outbox import deferred as outbox_deferred
from outbox import rendering
from outbox.models import Message
from phm.links import site_url
from rounds.models import Round
from submissions.models import Hand, HandVersion

RECEIPT_KIND = "hand.receipt"
RECEIPT_TEMPLATE = "submissions/email/receipt.txt"


def receipt_message(version: HandVersion, hand: Hand, round_: Round) -> Message | None:
    """The receipt by e-mail: an unsaved outbox message (None without an address), its body rendered by the
    worker that sends it (render_receipt), so the submission only INSERTs a small row. The caller sets
    `source_id` to the version's id. Secret: the body lists the cards."""
    message: Message | None = outbox_deferred.email(
        kind=RECEIPT_KIND,
        user=hand.player,
        subject=receipt_subject(round_, version),
        round_=round_,
        secret=True,
    )
    return message


def receipt_subject(round_: Round, version: HandVersion) -> str:
    return f"[PHM] Your hand for round {round_.code}, version {version.number}"


def render_receipt(message: Message) -> tuple[str, str]:
    """(text, HTML) of a receipt from its hand version: the same hand, time, version and commitment as the
    receipt page, to the hand's own player only."""
    if message.source_id is None:
        raise outbox_deferred.SourceGone("the receipt names no hand version")
    version = (
        HandVersion.objects.select_related("hand__round__league", "hand__player__profile")
        .filter(pk=message.source_id)
        .first()
    )
    if version is None:
        raise outbox_deferred.SourceGone(f"hand version {message.source_id} is gone")
    hand, round_ = version.hand, version.hand.round
    if hand.player_id != message.recipient_id:
        raise outbox_deferred.SourceGone(f"hand version {version.pk} is not the recipient's")
    context = {
        "version": version,
        "hand": hand,
        "round": round_,
        "url": site_url(reverse("submissions:receipt", args=[round_.pk, version.number])),
    }
    rendered: tuple[str, str] = rendering.render_email(
        kind=RECEIPT_KIND,
        user=hand.player,
        subject=message.subject,
        template=RECEIPT_TEMPLATE,
        context=context,
    )
    return rendered
