"""A league's public feeds: an Atom feed of what happens to its rounds (opened, hands revealed, results
final), built with Django's syndication framework, and an iCalendar file of its deadlines (rounds.calendars).

Only public information: a round's code, title, rules and deadline; after the reveal, how many hands there
are. Never a hand, a player or a count of hands before the deadline. Rounds in draft never appear."""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.contenttypes.models import ContentType
from django.contrib.syndication.views import Feed
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from audit.models import AuditEntry

from .bbcode import deadline_utc_text
from .calendars import calendar_host, calendar_response
from .models import League, Round, RoundState
from .page_extensions import LEAGUE_PAGE_URL, ROUND_RESULTS_URL, page_url
from .summary import rules_summary_lines

FEED_ENTRIES = 50
# Changes of an open round that alter what its "opened" entry says (its deadline, its rules).
ROUND_CHANGES = ("round.changed", "round.deadline_extended", "round.closed_early")
FINALIZED = "round.finalized"


@dataclass
class FeedEvent:
    kind: str  # "opened", "revealed" or "final"
    round: Round
    at: datetime
    updated: datetime
    title: str
    lines: list
    link: str
    guid: str


@dataclass
class LeagueFeedContext:
    league: League
    host: str
    now: datetime


def league_rounds(league, *, with_counts=False):
    """The league's rounds a visitor may see; `with_counts`: with their entry counts (shown once revealed)."""
    rounds = Round.objects.filter(league=league).exclude(state=RoundState.DRAFT).select_related("league")
    if with_counts:
        rounds = rounds.annotate(entry_count=Count("hands"))
    return rounds.order_by("deadline", "pk")


def _round_history(rounds):
    """{round id: (last finalized at or None, last rules/deadline change or None)} in one query."""
    if not rounds:
        return {}
    entries = AuditEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Round),
        object_id__in=[round_.pk for round_ in rounds],
        action__in=[FINALIZED, *ROUND_CHANGES],
    ).values_list("object_id", "action", "created_at")
    history = {}
    for round_id, action, created_at in entries:
        finalized, changed = history.get(round_id, (None, None))
        if action == FINALIZED:
            finalized = max(finalized or created_at, created_at)
        else:
            changed = max(changed or created_at, created_at)
        history[round_id] = (finalized, changed)
    return history


def _tag(context, round_, kind):
    """A tag URI (RFC 4151) that stays the same for this event of this round."""
    return f"tag:{context.host},{round_.created_at:%Y-%m-%d}:round/{round_.pk}/{kind}"


def league_events(context):
    """The league's feed entries, newest first, at most FEED_ENTRIES."""
    now = context.now
    rounds = list(league_rounds(context.league, with_counts=True))
    history = _round_history(rounds)
    events = []
    for round_ in rounds:
        finalized, changed = history.get(round_.pk, (None, None))
        page = round_.get_absolute_url()
        state = round_.state_at(now)
        if round_.opened_at:
            # Later edits of its deadline or rules update the entry, up to the deadline.
            edits = [moment for moment in (changed,) if moment and moment <= round_.deadline]
            events.append(
                FeedEvent(
                    kind="opened",
                    round=round_,
                    at=round_.opened_at,
                    updated=max([round_.opened_at, *edits]),
                    title=f"{round_.code} open: {round_.title}",
                    lines=[
                        f"Round {round_.code} of {round_.league.name} is open: {round_.title}.",
                        f"Hands due {deadline_utc_text(round_.deadline)}.",
                        *rules_summary_lines(round_),
                    ],
                    link=page,
                    guid=_tag(context, round_, "opened"),
                )
            )
        if state in (RoundState.REVEALED, RoundState.FINAL) and round_.deadline <= now:
            hands = round_.entry_count
            events.append(
                FeedEvent(
                    kind="revealed",
                    round=round_,
                    at=round_.deadline,
                    updated=round_.deadline,
                    title=f"{round_.code} hands revealed: {round_.title}",
                    lines=[
                        f"The deadline of {round_.code} has passed: {hands} hand{'s' if hands != 1 else ''} "
                        "revealed.",
                        "Players: score your row now.",
                    ],
                    link=page,
                    guid=_tag(context, round_, "revealed"),
                )
            )
        if state == RoundState.FINAL and finalized:
            events.append(
                FeedEvent(
                    kind="final",
                    round=round_,
                    at=finalized,
                    updated=finalized,
                    title=f"{round_.code} results final: {round_.title}",
                    lines=[
                        f"The results of {round_.code} are final: its table and League points are settled.",
                    ],
                    link=page_url(ROUND_RESULTS_URL, round_.pk),
                    guid=_tag(context, round_, "final"),
                )
            )
    events.sort(key=lambda event: (event.at, event.round.pk, event.kind), reverse=True)
    return events[:FEED_ENTRIES]


class LeagueFeed(Feed):
    """GET /leagues/<id>/feed.atom"""

    feed_type = Atom1Feed
    author_name = "PHM Moderator"

    def get_object(self, request, league_id):
        league = get_object_or_404(League, pk=league_id)
        return LeagueFeedContext(league=league, host=calendar_host(request), now=timezone.now())

    def title(self, context):
        return f"{context.league.name} · PHM Moderator"

    def subtitle(self, context):
        return f"Rounds opened, hands revealed and results final in {context.league.name}."

    def link(self, context):
        return page_url(LEAGUE_PAGE_URL, context.league.pk)

    def feed_guid(self, context):
        return f"tag:{context.host},{context.league.created_at:%Y-%m-%d}:league/{context.league.pk}"

    def items(self, context):
        return league_events(context)

    def item_title(self, event):
        return event.title

    def item_description(self, event):
        # Atom <summary type="html">: every moderator's text is escaped.
        lines = format_html_join(mark_safe("<br>"), "{}", ((line,) for line in event.lines))
        return format_html("<p>{}</p>", lines)

    def item_link(self, event):
        return event.link

    def item_guid(self, event):
        return event.guid

    def item_guid_is_permalink(self, event):
        return False

    def item_pubdate(self, event):
        return event.at

    def item_updateddate(self, event):
        return event.updated

    def item_categories(self, event):
        return [event.kind]


league_feed = LeagueFeed()


def league_calendar(request, league_id):
    """GET /leagues/<id>/deadlines.ics: every non-draft round's deadline, with an alarm an hour before."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise Http404("No such league.")
    slug = f"league-{league.number or league.pk}"
    return calendar_response(
        league_rounds(league),
        name=f"PHM {league.name} deadlines",
        description=f"Round deadlines of {league.name} (Perfect Hand Magic).",
        filename=f"phm-{slug}-deadlines.ics",
        request=request,
    )
