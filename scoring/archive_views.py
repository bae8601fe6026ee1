"""The moderator's archive import page (issue 7): paste a past round's forum posts, preview, import."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from rounds.models import League
from rounds.moderation_views import moderator_required
from rounds.services.leagues import leagues_managed_by

from .archive import ArchiveImportError, import_round

# An example in the forum's style; its names are made up (a real player's hand here would read as a leak).
HANDS_PLACEHOLDER = (
    '01 Quillon :: "Power Nine"\n'
    "Black Lotus / Ancestral Recall / Time Walk / Timetwister / Mox Sapphire\n\n"
    '02 Ravenna :: "Tabernacle Lock"\n'
    "The Tabernacle at Pendrell Vale / Maze of Ith / Thorn of Amethyst / Ancient Tomb / Trinisphere"
)
TABLE_PLACEHOLDER = "X | 1 2 3 | PT | Points\n1 | X 6 2 | 8 | 400\n2 | 0 X 4 | 4 | 200\n3 | 2 1 X | 3 | 150"


class ArchiveImportForm(forms.Form):
    league = forms.ModelChoiceField(queryset=League.objects.none(), empty_label=None)
    title = forms.CharField(
        max_length=200, help_text="The round's title, e.g. \u201c5 Card Alphabetized\u201d."
    )
    hand_size = forms.IntegerField(min_value=1, max_value=7, initial=5, label="Hand size")
    deadline = forms.DateField(
        label="Deadline date",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="The day the round's hands were revealed (in the past).",
    )
    hands_text = forms.CharField(
        label="The \u201chands posted\u201d post",
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 14, "class": "font-monospace", "placeholder": HANDS_PLACEHOLDER}
        ),
        help_text=(
            'Each entry as <code>01 Player :: "Hand name"</code>, <code>1) Player</code> or '
            "<code>1Player : Hand name</code>, its cards on the next line(s), joined by <code>/</code> or "
            "one per line. BBCode and a header line are fine."
        ),
    )
    table_text = forms.CharField(
        label="Results table (optional)",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "class": "font-monospace", "placeholder": TABLE_PLACEHOLDER}),
        help_text=(
            "Rows as <code>N | cells | PT | Points</code>. With a table the round is imported final (unknown "
            "matches 0-0, rule 6.3b); without one it stays revealed for results to be entered here."
        ),
    )

    def __init__(self, *args, leagues, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = League.objects.filter(pk__in=[league.pk for league in leagues])


@moderator_required
@require_http_methods(["GET", "POST"])
def import_round_page(request):
    leagues = list(leagues_managed_by(request.user))
    if not leagues:
        messages.info(request, "Create a league first: an imported round belongs to one.")
        return redirect("rounds:moderate-league-create")
    form = ArchiveImportForm(request.POST or None, leagues=leagues, initial={"league": leagues[0].pk})
    result = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        dry_run = request.POST.get("action") != "import"
        try:
            result = import_round(
                actor=request.user,
                league=data["league"],
                title=data["title"],
                hand_size=data["hand_size"],
                deadline=data["deadline"],
                hands_text=data["hands_text"],
                table_text=data["table_text"],
                dry_run=dry_run,
            )
        except ArchiveImportError as error:
            result = error.result
        if result.round is not None:
            round_ = result.round
            state = "final" if round_.state == "final" else "revealed: enter its results"
            messages.success(
                request,
                f"Round {round_.code} \u201c{round_.title}\u201d imported with "
                f"{len(result.entries)} hands ({state}).",
            )
            return redirect("scoring:results", round_.pk)
        for field_name, problems in result.errors.items():
            for problem in problems:
                form.add_error(field_name if field_name in form.fields else None, problem)
    return render(request, "scoring/archive_import.html", {"form": form, "result": result})
