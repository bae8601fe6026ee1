"""The moderator's results page of a round: its queue (disputes, challenges, missing results), forum rows
pasted as posted, bonus awards, finalization and reopening, each refused with the reason where the moderator
may not (a round they play, a round not revealed)."""

import hashlib

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.names import display_name
from audit.selectors import audit_trail, name_people
from rounds.moderation_views import moderator_required
from rounds.permissions import can_manage_league

from . import selectors
from .services import finalization
from .services.access import plays_in
from .services.bonus import (
    award_bonus,
    bonus_refusal,
    bonus_round_refusal,
    bonus_withdrawal_refusal,
    withdraw_bonus,
)
from .services.errors import SCORING_ERRORS, ScoringInputError, ScoringNotFound, message_for
from .services.finalization import finalize_round, reopen_round, round_power_refusal
from .services.posted_rows import import_posted_rows, posted_rows_refusal
from .views import round_or_404

POSTED_ROWS_PREVIEW, POSTED_ROWS_IMPORT = "posted_rows_preview", "posted_rows_import"


class PostedRowsForm(forms.Form):
    text = forms.CharField(
        label="Players' posts",
        max_length=100_000,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 8,
                "class": "font-monospace",
                "placeholder": "[quote=Quillon]3 | 6 0 X 2 | 8 | 267 (2-2 vs 4 is controversial)[/quote]",
            }
        ),
        help_text=(
            "Paste one or many forum posts in which players posted their own rows "
            "(<code>N | cells | PT | Points</code>). Each row is its player's report, with its note as "
            "the comment; other lines are skipped. The later of two rows for the same hand counts."
        ),
    )


@moderator_required
@never_cache
@require_http_methods(["GET", "POST"])
def moderate_results(request, round_id):
    """The moderator's queue (disputes, challenges, unreported), finalization, reopening and bonus points."""
    round_ = round_or_404(round_id)
    if not can_manage_league(request.user, round_.league):
        raise Http404("No such round.")
    errors, values = {}, {}
    posted_rows_form, posted_rows, held_back = PostedRowsForm(), None, False
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action in (POSTED_ROWS_PREVIEW, POSTED_ROWS_IMPORT):
        posted_rows_form = PostedRowsForm(request.POST)
        posted_rows, done, held_back = _posted_rows(
            request, round_, posted_rows_form, apply=action == POSTED_ROWS_IMPORT
        )
        if done:
            messages.success(request, done)
            return redirect("scoring:moderate", round_.pk)
    elif request.method == "POST":
        values = request.POST
        try:
            done = _round_action(request, round_, action)
        except SCORING_ERRORS as error:
            errors[action] = message_for(error)
            errors[f"{action}_fields"] = list(getattr(error, "errors", {}))
            errors["items"] = getattr(error, "items", [])
        else:
            messages.success(request, done)
            return redirect("scoring:moderate", round_.pk)
        round_ = round_or_404(round_id)
    try:
        table = selectors.results_table(round_, viewer=request.user)
    except ScoringNotFound:
        raise Http404("The results of this round are not open yet.") from None
    queue, open_items = selectors.moderator_queue(round_.pk), finalization.open_items(round_.pk)
    context = {
        "round": round_,
        "table": table,
        "queue": queue,
        **_own_interest(request.user, round_),
        "open_items": open_items.described(),
        "finalize_consequences": selectors.finalization_consequences(table, queue, open_items),
        # No bonus form in a tie-break round (its League points count nowhere): the page says why instead.
        "bonus_round_refusal": bonus_round_refusal(round_),
        # The bonus form offers the players by the name the tables show them (the table's own rows).
        "bonus_players": sorted({row.player for row in table.rows}, key=str.casefold),
        "bonus_awards": round_.bonus_awards.select_related(
            "player__profile", "awarded_by__profile", "withdrawn_by__profile"
        ),
        "errors": errors,
        "values": values,
        "finalize_confirmation": FINALIZE_CONFIRMATION,
        "posted_rows_form": posted_rows_form,
        "posted_rows": posted_rows,
        "posted_rows_held_back": held_back,
        # The Import button under a preview says which text was previewed (_posted_rows).
        "posted_rows_digest": _text_digest(posted_rows_form.cleaned_data.get("text", ""))
        if posted_rows
        else "",
        "trail": name_people(
            entry
            for entry in audit_trail(round_)
            if entry.action.startswith(
                ("round.final", "round.reop", "round.bonus", "round.table", "round.posted_rows")
            )
        ),
    }
    return render(request, "scoring/moderate.html", context)


def _own_interest(user, round_):
    """What the moderator's page must not offer a moderator who plays in the round, and why (who to ask); or,
    where nobody else can manage the league, that what they decide is shown as decided by one who played."""
    plays = plays_in(user, round_.pk)
    refusals = {
        "finalize_refusal": round_power_refusal(user, round_, "finalize") if plays else "",
        "reopen_refusal": round_power_refusal(user, round_, "reopen") if plays else "",
        "withdraw_refusal": bonus_withdrawal_refusal(user, round_) if plays else "",
        "award_refusal": bonus_refusal(user, round_) if plays else "",
        "rows_refusal": posted_rows_refusal(user, round_) if plays else "",
    }
    return {**refusals, "plays": plays, "plays_alone": plays and not any(refusals.values())}


def _posted_rows(request, round_, form, *, apply):
    """(the preview to show, or None; the success message once imported, or ""; whether an import was held
    back for the moderator to read the preview first)."""
    if not form.is_valid():
        return None, "", False
    text = form.cleaned_data["text"]
    if apply and request.POST.get("previewed") != _text_digest(text):
        # Stated totals the cells do not give, or disputes the rows make, are saved only once the moderator
        # has seen them in a preview of this very text: otherwise the preview is shown, and nothing saved.
        try:
            preview = import_posted_rows(actor=request.user, round_id=round_.pk, text=text, dry_run=True)
        except SCORING_ERRORS:
            preview = None  # the import below says why
        if preview is not None and preview.needs_a_look and not preview.problems:
            return preview, "", True
    try:
        result = import_posted_rows(actor=request.user, round_id=round_.pk, text=text, dry_run=not apply)
    except ScoringInputError as error:
        for sentences in error.errors.values():
            for sentence in sentences:
                form.add_error("text", sentence)
    except SCORING_ERRORS as error:
        form.add_error(None, message_for(error))
    else:
        if not apply:
            return result, "", False
        rows, reports, disputes = len(result.rows), len(result.reports), len(result.disputes)
        whose = "player's row" if rows == 1 else "players' rows"
        disputed = f", {disputes} match{'es' if disputes != 1 else ''} disputed" if disputes else ""
        return (
            None,
            (f"{rows} {whose} imported: {reports} report{'s' if reports != 1 else ''}{disputed}."),
            False,
        )
    if apply and form.errors.get("text"):  # refused for its problems: show what was found beside them
        try:
            preview = import_posted_rows(actor=request.user, round_id=round_.pk, text=text, dry_run=True)
            return preview, "", False
        except SCORING_ERRORS:
            pass
    return None, "", False


def _text_digest(text):
    """What the preview's Import button sends back: the pasted text it previewed, as a digest."""
    return hashlib.sha256(text.encode()).hexdigest()


FINALIZE_CONFIRMATION = "I have checked the table and what finalizing does"


def _round_action(request, round_, action):
    user = request.user
    if action == "finalize":
        if request.POST.get("confirm") != "on":
            # The page asks for an explicit confirmation (the API's finalize, a contract, does not).
            raise ScoringInputError(
                {"confirm": [f"Nothing was finalized: tick “{FINALIZE_CONFIRMATION}” first."]}
            )
        finalize_round(actor=user, round_id=round_.pk, force=request.POST.get("force") == "on")
        return f"Round {round_.code} is final: the table is frozen and published."
    if action == "reopen":
        reopen_round(actor=user, round_id=round_.pk, reason=request.POST.get("reason", ""))
        return f"Round {round_.code} is reopened: results can change again."
    if action == "bonus":
        award = award_bonus(
            actor=user,
            round_id=round_.pk,
            player_username=request.POST.get("player", ""),
            points=request.POST.get("points", ""),
            reason=request.POST.get("reason", ""),
        )
        return f"{award.points:+d} League points for {display_name(award.player)}."
    if action == "withdraw_bonus":
        award = withdraw_bonus(
            actor=user,
            round_id=round_.pk,
            award_id=_award_id(request.POST.get("award", "")),
            reason=request.POST.get("reason", ""),
        )
        return f"The {award.points:+d} League points for {display_name(award.player)} are withdrawn."
    raise ScoringInputError({"action": ["Unknown action."]})


def _award_id(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ScoringNotFound("No such bonus award in this round.") from None
