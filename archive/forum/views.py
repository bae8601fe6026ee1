"""The moderator's archive import page: paste a past round's forum post as it is, check and correct what was
understood, import. The same service (`archive.forum.post_import`) answers `POST /api/archive/preview/` and
`/import/`."""

import datetime as dt

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from rounds.models import DeadlinePrecision, LandRule, League, Round
from rounds.moderation_views import moderator_required
from rounds.permissions import can_manage_league, leagues_managed_by
from scoring.services.errors import ScoringConflict, ScoringInputError

from .corrections import apply_correction_post, preview_correction
from .post_import.preview import preview_post
from .post_import.results import ROUND_FIELDS, ArchiveDuplicate, PostImportRefused
from .post_import.write import import_post

# An example in the forum's style; its names are made up (a real player's hand here would read as a leak).
POST_PLACEHOLDER = (
    "[b]5 Card Power - League 45:01[/b]\n"
    "Deck Size: 5\nLand Rule: None\nAdditional Banned list: None\n\n"
    '01 Quillon :: "Power Nine"\n'
    "Black Lotus / Ancestral Recall / Time Walk / Timetwister / Mox Sapphire\n"
    "Fast, but folds to one removal spell.\n\n"
    '02 Ravenna :: "Tabernacle Lock"\n'
    "The Tabernacle at Pendrell Vale / Maze of Ith / Thorn of Amethyst / Ancient Tomb / Trinisphere"
)
TABLE_PLACEHOLDER = "X | 1 2 3 | PT | Points\n1 | X 6 2 | 8 | 400\n2 | 0 X 4 | 4 | 200\n3 | 2 1 X | 3 | 150"
COUNTS, ARCHIVE_ONLY = "counts", "archive"
NEW_ACCOUNT = "__new__"


class ArchivePostForm(forms.Form):
    """The post and the league; after a preview, the round's fields as understood, each correctable."""

    league = forms.ModelChoiceField(queryset=League.objects.none(), empty_label=None)
    post = forms.CharField(
        label="The \u201chands posted\u201d post",
        strip=False,
        max_length=1_000_000,
        widget=forms.Textarea(attrs={"rows": 14, "class": "font-monospace", "placeholder": POST_PLACEHOLDER}),
        help_text=(
            "Paste the whole post as it is on the forum: heading, Deck Size / Land Rule / Additional Banned "
            "list, commentary, the entries with their comments, and whatever follows (how to submit, a row "
            "template, the rules): what is not part of the round is listed as skipped."
        ),
    )
    table = forms.CharField(
        label="Results table (optional)",
        required=False,
        strip=False,
        max_length=200_000,
        widget=forms.Textarea(attrs={"rows": 8, "class": "font-monospace", "placeholder": TABLE_PLACEHOLDER}),
        help_text=(
            "Rows as <code>N | cells | PT | Points</code>. With a table the round is imported final (unknown "
            "matches 0-0, rule 6.3b); without one it stays revealed for results to be entered here."
        ),
    )
    understood = forms.CharField(required=False, widget=forms.HiddenInput)
    round_code = forms.CharField(
        label="Round code", required=False, max_length=20, help_text="As 31:03 or 3."
    )
    round_title = forms.CharField(label="Title", required=False, max_length=200)
    round_hand_size = forms.IntegerField(label="Hand size", required=False, min_value=1, max_value=15)
    round_land_rule = forms.ChoiceField(label="Land rule", required=False, choices=LandRule.choices)
    round_deadline = forms.CharField(
        label="Deadline (UTC)",
        required=False,
        max_length=60,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    round_deadline_precision = forms.ChoiceField(
        label="The deadline is",
        required=False,
        choices=[
            (DeadlinePrecision.EXACT, "Exact"),
            (DeadlinePrecision.APPROXIMATE, "Approximate"),
            (DeadlinePrecision.UNKNOWN, "Unknown"),
        ],
    )
    round_extra_banned = forms.CharField(
        label="Additional banned list",
        required=False,
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One card per line.",
    )
    round_format_rule = forms.CharField(
        label="Format rule", required=False, max_length=20_000, widget=forms.Textarea(attrs={"rows": 3})
    )
    round_commentary = forms.CharField(
        label="Moderator's commentary",
        required=False,
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    standings = forms.ChoiceField(
        label="Standings",
        required=False,
        widget=forms.RadioSelect,
        choices=[
            (COUNTS, "Counts in this league's standings"),
            (ARCHIVE_ONLY, "Archive only \u2014 shown on player and card pages but not in standings"),
        ],
    )

    def __init__(self, *args, leagues, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = League.objects.filter(pk__in=[league.pk for league in leagues])

    def corrections(self):
        """The round fields the moderator could change (shown after a first preview): all of them, as sent."""
        return {
            name: self.cleaned_data[f"round_{name}"] for name in ROUND_FIELDS if f"round_{name}" in self.data
        }

    def counts_in_standings(self):
        choice = self.cleaned_data.get("standings")
        return {COUNTS: True, ARCHIVE_ONLY: False}.get(choice)

    def players(self):
        """{posted name: username, or "" for a new account} from the player choices of the last preview."""
        chosen = {}
        for key, value in self.data.items():
            if key.startswith("player-") and not key.endswith("-name") and value:
                posted = self.data.get(f"{key}-name", "")
                if posted:
                    chosen[posted] = "" if value == NEW_ACCOUNT else value
        return chosen


def _form_values(result):
    """The preview's round fields as the form shows them."""
    fields = result.fields
    return {
        "understood": result.posted_digest,
        "round_code": fields.code,
        "round_title": fields.title,
        "round_hand_size": fields.hand_size,
        "round_land_rule": fields.land_rule,
        "round_deadline": fields.deadline.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M")
        if fields.deadline and fields.deadline_precision != DeadlinePrecision.UNKNOWN
        else "",
        "round_deadline_precision": fields.deadline_precision,
        "round_extra_banned": "\n".join(fields.extra_banned),
        "round_format_rule": fields.format_rule,
        "round_commentary": fields.commentary,
        "standings": COUNTS if fields.counts_in_standings else ARCHIVE_ONLY,
    }


@moderator_required
@require_http_methods(["GET", "POST"])
def import_round_page(request):
    leagues = list(leagues_managed_by(request.user))
    if not leagues:
        messages.info(request, "Create a league first: an imported round belongs to one.")
        return redirect("rounds:moderate-league-create")
    form = ArchivePostForm(request.POST or None, leagues=leagues, initial={"league": leagues[0].pk})
    result = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        arguments = {
            "actor": request.user,
            "league": data["league"],
            "post": data["post"],
            "table": data["table"],
            "corrections": form.corrections(),
            "players": form.players(),
            "counts_in_standings": form.counts_in_standings(),
        }
        try:
            if request.POST.get("action") == "import":
                result = import_post(**arguments)
                return _imported(request, result)
            result = preview_post(corrections_for=data["understood"] or None, **arguments)
        except PostImportRefused as refused:
            result = refused.result
        except ArchiveDuplicate:
            result = preview_post(**arguments)
        except ScoringConflict as conflict:
            messages.error(request, str(conflict))
            result = preview_post(**arguments)
        if result.corrections_dropped:
            messages.info(
                request, "The post's heading changed, so the round's fields were read from it again."
            )
        form = ArchivePostForm(
            {**request.POST.dict(), **_form_values(result)}, leagues=leagues
        )  # the fields show what will be imported
        form.is_valid()
        _show_field_problems(form, result)
    context = {"form": form, "result": result, "new_account": NEW_ACCOUNT}
    return render(request, "archive/import.html", context)


def _show_field_problems(form, result):
    """Problems about a field the form has are also shown next to it."""
    for problem in result.all_problems:
        name = problem.field.replace("round.", "round_")
        if name in form.fields and problem.message not in form.errors.get(name, []):
            form.add_error(name, problem.message)


def _imported(request, result):
    round_ = result.round
    state = "final" if round_.state == "final" else "revealed: enter its results"
    standing = "counts in the standings" if round_.counts_in_standings else "archive only"
    messages.success(
        request,
        f"Round {round_.code} \u201c{round_.title}\u201d imported with {len(result.entries)} hands "
        f"({state}; {standing}).",
    )
    return redirect("rounds:round-detail", round_.pk)


class CorrectionForm(forms.Form):
    post = forms.CharField(
        label="The correction post",
        strip=False,
        max_length=100_000,
        widget=forms.Textarea(attrs={"rows": 10, "class": "font-monospace"}),
        help_text=(
            "Paste the host's reply as it is: each corrected entry written as in the hands post "
            '(<code>05 Player :: "Hand name"</code> and its cards). The post is recorded as the reason.'
        ),
    )


@moderator_required
@require_http_methods(["GET", "POST"])
def correction_page(request, round_id):
    """Apply a correction reply from the forum to an imported round: preview, then apply."""
    round_ = get_object_or_404(Round.objects.select_related("league"), pk=round_id)
    if not can_manage_league(request.user, round_.league):
        raise PermissionDenied("Only a moderator of this league can correct its rounds.")
    form = CorrectionForm(request.POST or None)
    result = None
    if request.method == "POST" and form.is_valid():
        post = form.cleaned_data["post"]
        try:
            if request.POST.get("action") == "apply":
                applied = apply_correction_post(actor=request.user, round_=round_, post=post)
                numbers = ", ".join(f"{entry.number:02d}" for entry in applied.applied)
                messages.success(request, f"Correction applied to round {round_.code}: entry {numbers}.")
                return redirect("rounds:round-detail", round_.pk)
            result = preview_correction(actor=request.user, round_=round_, post=post)
        except ScoringInputError:
            result = preview_correction(actor=request.user, round_=round_, post=post)
        except ScoringConflict as conflict:
            messages.error(request, str(conflict))
    context = {"round": round_, "form": form, "result": result}
    return render(request, "archive/correction.html", context)
