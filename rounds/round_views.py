"""Public round pages: the list, a round's rules, the forum announcement, the PHM rules."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from submissions import commitments
from submissions import selectors as hand_selectors
from submissions.bbcode import hands_posted

from . import selectors
from .bbcode import announcement, variant_lines
from .markdown import render_markdown
from .models import LandRule
from .rules_text import phm_rules
from .services.catalog import latest_catalog_version
from .services.leagues import can_manage_league, effective_banned_entries


def round_list(request):
    groups = selectors.public_rounds(timezone.now())
    return render(
        request,
        "rounds/round_list.html",
        {
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
    can_manage = can_manage_league(request.user, round_.league)
    revealed = hand_selectors.is_revealed(round_, now)
    my_hand = hand_selectors.own_hand(request.user, round_)
    hands = hand_selectors.hands_of_round(round_) if revealed else []
    for hand in hands:
        version = hand.committed_version
        hand.committed_text = commitments.version_text(version) if version else ""
    context = {
        "round": round_,
        "state": round_.state_at(now),
        "land_rule_label": LandRule(round_.land_rule).label,
        "variants": variant_lines(round_),
        "format_rule_html": render_markdown(round_.format_rule),
        "commentary_html": render_markdown(round_.commentary),
        "banned_groups": selectors.banned_groups(effective_banned_entries(round_)),
        "entries": selectors.entry_count(round_),
        "can_manage": can_manage,
        "announcement": announcement(round_, request.build_absolute_uri(round_.get_absolute_url())),
        "my_hand": my_hand,
        "accepting": round_.accepts_hands_at(now),
        # The playing-moderator rule: a moderator with a hand in the round reviews nothing before the
        # deadline.
        "can_review": can_manage and (revealed or my_hand is None) and round_.state != "draft",
        "revealed": revealed,
        "hands": hands,
        "hands_bbcode": hands_posted(round_, hands) if revealed else "",
        "accepted_cards": round_.accepted_cards.select_related("accepted_by"),
        "history": selectors.public_history(round_, {hand.player_id for hand in hands}),
    }
    return render(request, "rounds/round_detail.html", context)


def round_announcement(request, round_id):
    round_ = _round_or_404(request, round_id)
    text = announcement(round_, request.build_absolute_uri(round_.get_absolute_url()))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="round-{round_.pk}-announcement.bbcode"'
    return response


def rules(request):
    context = {"sections": phm_rules(), "catalog": latest_catalog_version()}
    return render(request, "rounds/rules.html", context)
