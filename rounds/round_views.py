"""Public round pages: the list, a round's rules, the forum announcement, the PHM rules."""

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from phm.downloads import BBCODE, download, round_filename

from . import page_extensions, selectors
from .bbcode import announcement, variant_entries, variant_lines, variants_are_reordered
from .markdown import render_markdown
from .models import LandRule, RoundState
from .permissions import can_manage_league
from .rules_text import phm_rules
from .services.catalog import latest_catalog_version
from .services.effective_banned import effective_banned_entries


def round_list(request):
    query = request.GET.get("q", "")[: selectors.MAX_ROUND_QUERY]
    groups = selectors.public_rounds(timezone.now(), query)
    return render(
        request,
        "rounds/round_list.html",
        {
            "query": query.strip(),
            "found": sum(len(rounds) for rounds in groups.values()),
            "open_rounds": groups["open"],
            "revealed_rounds": groups["revealed"],
            "final_rounds": groups["final"],
        },
    )


def _round_or_404(request, round_id):
    round_ = selectors.visible_round(round_id, request.user, can_manage=can_manage_league)
    if round_ is None:
        raise Http404("No such round.")
    return round_


@never_cache  # the page shows the viewer's own hand: no shared cache may keep it
def round_detail(request, round_id):
    round_ = _round_or_404(request, round_id)
    now = timezone.now()
    state = round_.state_at(now)
    context = {
        "round": round_,
        "state": state,
        "land_rule_label": LandRule(round_.land_rule).label,
        "variants": variant_lines(round_),
        # The land rule has its own line; when the moderator lists it after another variant, say the order.
        "variant_order_note": [label for _, label, _ in variant_entries(round_)]
        if variants_are_reordered(round_)
        else [],
        "format_rule_html": render_markdown(round_.format_rule),
        "commentary_html": render_markdown(round_.commentary),
        "banned_groups": selectors.banned_groups(effective_banned_entries(round_)),
        "entries": selectors.entry_count(round_),
        "can_manage": can_manage_league(request.user, round_.league),
        "announcement": announcement(round_, request.build_absolute_uri(round_.get_absolute_url())),
        "accepting": round_.accepts_hands_at(now),
        "revealed": state in (RoundState.REVEALED, RoundState.FINAL),
        "accepted_cards": round_.accepted_cards.select_related("accepted_by__profile"),
        # What the submissions app adds: the viewer's hand, the revealed hands, whether they may review.
        "my_hand": None,
        "hands": [],
        "hands_bbcode": "",
        "can_review": False,
        # What the scoring app adds once the hands are revealed: the viewer's matches.
        "my_matches": [],
    }
    context.update(page_extensions.extra_context(page_extensions.ROUND_PAGE, request, round_, now, context))
    context["history"] = selectors.public_history(round_, {hand.player_id for hand in context["hands"]})
    return render(request, "rounds/round_detail.html", context)


def round_announcement(request, round_id):
    round_ = _round_or_404(request, round_id)
    text = announcement(round_, request.build_absolute_uri(round_.get_absolute_url()))
    return download(text, round_filename(round_, "announcement", "bbcode"), BBCODE)


def rules(request):
    context = {"sections": phm_rules(), "catalog": latest_catalog_version()}
    return render(request, "rounds/rules.html", context)
