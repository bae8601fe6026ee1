"""The moderator's pages: dashboard, leagues, creating, editing, opening and closing rounds, audit trail."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_http_methods, require_POST

from accounts.services import is_moderator
from audit.selectors import audit_trail, name_people

from . import page_extensions
from . import permissions as round_permissions
from .forms import ExtendDeadlineForm, LeagueForm, RoundForm
from .models import Round, RoundState
from .services import catalog as catalog_services
from .services import leagues as league_services
from .services import lifecycle as round_lifecycle
from .services import round_rules
from .services.errors import RoundConflict, RoundInputError


def moderator_required(view):
    @wraps(view)
    def guarded(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_moderator(request.user):
            raise PermissionDenied("Only moderators can use this page.")
        return view(request, *args, **kwargs)

    return guarded


def _managed_round(request, round_id):
    """The round if the viewer manages its league; 404 for a draft they cannot see, 403 otherwise."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None:
        raise Http404("No such round.")
    if not round_permissions.can_manage_league(request.user, round_.league):
        if round_.state == RoundState.DRAFT:
            raise Http404("No such round.")
        raise PermissionDenied("You do not moderate this round's league.")
    return round_


def _apply_errors(form, error):
    for field, problems in error.errors.items():
        for problem in problems:
            form.add_error(field if field in form.fields else None, problem)


def _add_rule_problems(form, locked=()):
    """On a form with errors, also the rule problems the services would find in its valid fields."""
    values = {name: value for name, value in form.rule_values().items() if name not in locked}
    for field, problems in round_rules.round_rule_problems(values).items():
        if field in form.fields and field not in form.errors:
            for problem in problems:
                form.add_error(field, problem)


@moderator_required
def dashboard(request):
    now = timezone.now()
    leagues = round_permissions.leagues_managed_by(request.user)
    league_ids = [league.pk for league in leagues]
    rounds = (
        Round.objects.filter(league_id__in=league_ids)
        .select_related("league")
        .annotate(entry_count=Count("hands"))
        .order_by("league_id", "number")
    )
    by_league = {league.pk: [] for league in leagues}
    for round_ in rounds:
        by_league[round_.league_id].append((round_, round_.state_at(now)))
    rows = [
        (
            league,
            by_league[league.pk],
            page_extensions.extra_links(page_extensions.LEAGUE_MODERATION_LINKS, request, league),
        )
        for league in leagues
    ]
    return render(request, "rounds/moderate/dashboard.html", {"rows": rows})


@moderator_required
@require_http_methods(["GET", "POST"])
def league_create(request):
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = league_services.create_league(
                actor=request.user,
                name=form.cleaned_data["name"],
                number=form.cleaned_data["number"],
                rounds_planned=form.cleaned_data["rounds_planned"],
                tiebreak_rounds_allowed=form.cleaned_data["tiebreak_rounds_allowed"],
                moderators=list(form.cleaned_data["moderators"]),
            )
        except RoundInputError as error:
            _apply_errors(form, error)
        else:
            messages.success(request, f"{league.name} created. Now add its first round.")
            return redirect(f"{reverse('rounds:moderate-round-create')}?league={league.pk}")
    return render(request, "rounds/moderate/league_form.html", {"form": form})


@moderator_required
@require_http_methods(["GET", "POST"])
def round_create(request):
    leagues = round_permissions.leagues_managed_by(request.user)
    if not leagues:
        messages.info(request, "Create a league first: every round belongs to one.")
        return redirect("rounds:moderate-league-create")
    initial = {"league": request.GET.get("league")}
    form = RoundForm(request.POST or None, leagues=leagues, initial=initial)
    if request.method == "POST" and form.is_valid():
        open_now = "open" in request.POST
        try:
            round_ = round_lifecycle.create_round(
                actor=request.user,
                league=form.cleaned_data["league"],
                now=timezone.now(),
                open_now=open_now,
                **form.rule_values(),
            )
        except RoundInputError as error:
            _apply_errors(form, error)
        else:
            verb = "created and opened" if open_now else "saved as a draft"
            messages.success(request, f"Round {round_.code} “{round_.title}” {verb}.")
            return redirect("rounds:moderate-round", round_.pk)
    elif form.is_bound:  # an empty POST leaves the form unbound: nothing to check
        _add_rule_problems(form)
    return render(request, "rounds/moderate/round_form.html", {"form": form, "creating": True})


@moderator_required
@require_http_methods(["GET", "POST"])
def round_edit(request, round_id):
    round_ = _managed_round(request, round_id)
    now = timezone.now()
    imported = bool(round_.imported_fingerprint)
    if not (imported or round_.state == RoundState.DRAFT or round_.accepts_hands_at(now)):
        messages.error(request, "Submissions for this round have ended: its rules can no longer change.")
        return redirect("rounds:moderate-round", round_.pk)
    locked = ["league"]
    if imported:
        locked = sorted(set(RoundForm.base_fields) - round_lifecycle.EDITABLE_WHEN_IMPORTED)
    elif round_.state == RoundState.OPEN:
        locked += sorted(
            {
                "hand_size",
                "hand_size_mode",
                "confirm_large_hand",
                "land_rule",
                "life_rule",
                "backbuild",
                "sanctioned_format",
                "allowed_sets",
                "variant_order",
                "decisions",
                "card_rules",
            }
        )
    form = RoundForm(
        request.POST or None,
        leagues=[round_.league],
        locked_fields=locked,
        imported=imported,
        initial=RoundForm.initial_for(round_),
    )
    if round_.state == RoundState.OPEN and not imported:
        form.fields["deadline"].help_text += format_html(
            " While the round is open the deadline only moves later; to close it early, use "
            "<strong>{}</strong> on the round's page.",
            "End submissions now",
        )
    if request.method == "POST" and form.is_valid():
        values = form.rule_values()
        changes = {name: value for name, value in values.items() if name not in locked}
        if _only_the_seconds_differ(changes.get("deadline"), round_.deadline):
            del changes["deadline"]  # left as shown: the box has minutes, the deadline has seconds
        try:
            round_lifecycle.update_round(
                actor=request.user, round_id=round_.pk, now=timezone.now(), changes=changes
            )
        except RoundInputError as error:
            _apply_errors(form, error)
        except RoundConflict as conflict:
            messages.error(request, str(conflict))
            return redirect("rounds:moderate-round", round_.pk)
        else:
            messages.success(request, "Round saved.")
            return redirect("rounds:moderate-round", round_.pk)
    elif form.is_bound:  # an empty POST leaves the form unbound: nothing to check
        _add_rule_problems(form, locked)
    return render(
        request,
        "rounds/moderate/round_form.html",
        {"form": form, "round": round_, "creating": False, "imported": imported},
    )


def _only_the_seconds_differ(typed, deadline):
    """Whether the deadline box still holds the deadline it showed, which has seconds the box has not (a
    deadline set through the API): saving the form unchanged must not move it, least of all earlier."""
    shown = deadline.replace(second=0, microsecond=0)
    return typed is not None and typed == shown and shown != deadline


@moderator_required
def round_manage(request, round_id):
    round_ = _managed_round(request, round_id)
    now = timezone.now()
    context = {
        "round": round_,
        "state": round_.state_at(now),
        "extend_form": ExtendDeadlineForm(initial={"deadline": round_.deadline}),
        "audit": name_people(audit_trail(round_)[:100]),
        "entries": round_.hands.count(),
        "accepted_cards": round_.accepted_cards.select_related("accepted_by__profile"),
        "can_review": False,  # the submissions app says whether the review page is open to the viewer
    }
    context.update(
        page_extensions.extra_context(page_extensions.ROUND_MANAGE_PAGE, request, round_, now, context)
    )
    return render(request, "rounds/moderate/round_manage.html", context)


ROUND_ACTIONS = {
    "open": (round_lifecycle.open_round, "Round opened: players can submit hands now."),
    "close": (round_lifecycle.close_round_now, "Submissions ended: the deadline is now."),
    "resync": (round_lifecycle.resync_banned_lists, "Banned lists re-synchronised from the standing lists."),
}


@moderator_required
@require_POST
def round_action(request, round_id, action):
    round_ = _managed_round(request, round_id)
    now = timezone.now()
    try:
        if action == "extend":
            form = ExtendDeadlineForm(request.POST)
            if not form.is_valid():
                messages.error(request, "Choose a valid new deadline.")
                return redirect("rounds:moderate-round", round_.pk)
            round_lifecycle.extend_deadline(
                actor=request.user, round_id=round_.pk, now=now, new_deadline=form.cleaned_data["deadline"]
            )
            messages.success(request, "Deadline extended.")
        elif action in ROUND_ACTIONS:
            operation, success = ROUND_ACTIONS[action]
            operation(actor=request.user, round_id=round_.pk, now=now)
            messages.success(request, success)
        else:
            raise Http404("Unknown action.")
    except RoundConflict as conflict:
        messages.error(request, str(conflict))
    except RoundInputError as error:
        messages.error(
            request, " ".join(problem for problems in error.errors.values() for problem in problems)
        )
    return redirect("rounds:moderate-round", round_.pk)


@moderator_required
@require_POST
def accepted_card_add(request, round_id):
    """Rule 3.2a: a catalog card not yet released, or a card the catalog lacks (confirmed as such), accepted
    for this round."""
    round_ = _managed_round(request, round_id)
    try:
        accepted = catalog_services.accept_unknown_card(
            round_,
            name=request.POST.get("name", ""),
            by=request.user,
            reason=request.POST.get("reason", ""),
            not_in_catalog=request.POST.get("not_in_catalog") == "on",
        )
    except catalog_services.AcceptCardForbidden as error:
        raise PermissionDenied(str(error)) from None
    except catalog_services.AcceptCardError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{accepted.name} is accepted as a card in this round.")
    return redirect(f"{reverse('rounds:moderate-round', args=[round_.pk])}#accepted-cards")


@moderator_required
@require_POST
def accepted_card_withdraw(request, round_id, card_id):
    round_ = _managed_round(request, round_id)
    try:
        withdrawn = catalog_services.withdraw_accepted_card(round_, card_id=card_id, by=request.user)
    except catalog_services.AcceptCardForbidden as error:
        raise PermissionDenied(str(error)) from None
    except catalog_services.AcceptCardError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{withdrawn.name} is no longer accepted: review the hands that use it.")
    return redirect(f"{reverse('rounds:moderate-round', args=[round_.pk])}#accepted-cards")
