"""Moderator forms for leagues and rounds. They only collect input; rounds.services.leagues decides."""

import math
import re
from datetime import timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from accounts.timezones import zone_description

from .card_rules import rules_from_text, rules_to_text, text_line_problems
from .catalog.sources import CORE_FORMATS
from .formats import format_label
from .models import MAX_HAND_SIZE, USUAL_MAX_HAND_SIZE, DeadlinePrecision, HandSizeMode, LandRule, League
from .services.round_rules import MAXIMUM_LEAD_TIME, MINIMUM_LEAD_TIME
from .variants import DEFAULT_VARIANT_ORDER, decisions_text, parse_decisions_text, variant_order

FORMAT_CHOICES = [("", "None — any Vintage-legal card")] + [(key, format_label(key)) for key in CORE_FORMATS]


def split_card_names(text):
    """Extra bans as typed: one card per line, or separated by " / " (a split card's " // " stays whole)."""
    names = []
    for line in (text or "").splitlines():
        names += [part.strip() for part in re.split(r"(?<!/)\s/\s(?!/)", line) if part.strip()]
    return names


class DeadlineInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format=DEADLINE_INPUT_FORMAT, **kwargs)


DEADLINE_INPUT_FORMAT = "%Y-%m-%dT%H:%M"


def show_deadline_bounds(field, now=None):
    """Say up front what the round services will check of a deadline, in the viewer's zone (the active one):
    the zone itself, the earliest and latest moments as the input's `min` and `max`, and the help text."""
    now = now or timezone.now()
    zone = timezone.get_current_timezone()
    earliest = now + MINIMUM_LEAD_TIME
    # The first whole minute after the earliest moment: the input takes minutes; the check is "later than".
    earliest = earliest.replace(second=0, microsecond=0) + (
        timedelta(minutes=1) if earliest.second or earliest.microsecond else timedelta()
    )
    latest = now + MAXIMUM_LEAD_TIME
    field.widget.attrs.update(
        min=timezone.localtime(earliest, zone).strftime(DEADLINE_INPUT_FORMAT),
        max=timezone.localtime(latest, zone).strftime(DEADLINE_INPUT_FORMAT),
    )
    minutes = math.ceil(MINIMUM_LEAD_TIME.total_seconds() / 60)
    field.help_text = format_html(
        'In your time zone: <strong>{}</strong> (<a href="{}">change it in your profile</a>). '
        "At least {} minutes from now, at most {} days ahead.",
        zone_description(zone, now),
        reverse("profile"),
        minutes,
        MAXIMUM_LEAD_TIME.days,
    )


class LeagueForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text='For example "League 45": a name of that form gives the league its number, used in round '
        "codes (45:01).",
    )
    number = forms.IntegerField(
        required=False,
        min_value=1,
        label="League number",
        help_text='Only for a name not of the form "League 45" that should still number its rounds '
        "(7 → round codes 7:01, 7:02…). Leave empty otherwise.",
    )
    rounds_planned = forms.IntegerField(
        min_value=1, max_value=20, initial=4, help_text="Normally 4 (rule 5.1)."
    )
    tiebreak_rounds_allowed = forms.IntegerField(
        label="Tie-break rounds allowed",
        min_value=0,
        max_value=20,
        initial=1,
        help_text="Rule 5.3a: players still level for first after this many tie-break rounds are joint "
        "winners.",
    )
    moderators = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Leave empty to let every site moderator manage this league.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["moderators"].queryset = (
            get_user_model()
            .objects.filter(Q(is_superuser=True) | Q(groups__name="moderators"))
            .distinct()
            .order_by("username")
        )


def show_archived_deadline_bounds(field, now=None):
    """An imported round's deadline: a moment in the past, in the viewer's zone."""
    now = now or timezone.now()
    zone = timezone.get_current_timezone()
    field.widget.attrs.pop("min", None)
    field.widget.attrs["max"] = timezone.localtime(now, zone).strftime(DEADLINE_INPUT_FORMAT)
    field.help_text = format_html(
        "In your time zone: <strong>{}</strong>. Imported from the forum: the deadline it had, in the past.",
        zone_description(zone, now),
    )


class RoundForm(forms.Form):
    league = forms.ModelChoiceField(queryset=League.objects.none(), empty_label=None)
    title = forms.CharField(max_length=200, help_text='For example "5 Card Alphabetized".')
    hand_size = forms.TypedChoiceField(
        choices=[
            (n, f"{n} card{'s' if n > 1 else ''}{' (beyond rule 7.1)' if n > USUAL_MAX_HAND_SIZE else ''}")
            for n in range(1, MAX_HAND_SIZE + 1)
        ],
        coerce=int,
        initial=5,
    )
    hand_size_mode = forms.ChoiceField(
        choices=HandSizeMode.choices,
        initial=HandSizeMode.EXACTLY,
        required=False,
        label="Cards per hand",
        help_text="“Up to N”: a hand may have any number of cards from 1 to N.",
    )
    confirm_large_hand = forms.BooleanField(
        required=False,
        label=f"Yes, hands of more than {USUAL_MAX_HAND_SIZE} cards",
        help_text=f"Rule 7.1 tells of hands of 1 to {USUAL_MAX_HAND_SIZE} cards; tick this to go beyond.",
    )
    deadline = forms.DateTimeField(widget=DeadlineInput())  # help: show_deadline_bounds, in __init__
    land_rule = forms.ChoiceField(choices=LandRule.choices, initial=LandRule.NONE, label="Land rule (7.3)")
    life_rule = forms.BooleanField(required=False, label="Life Rule (7.5)")
    backbuild = forms.BooleanField(required=False, label="Backbuild (7.6)")
    backbuild_hands = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="The specified hands, as forum text.",
    )
    sanctioned_format = forms.ChoiceField(
        choices=FORMAT_CHOICES,
        required=False,
        label="Sanctioned format (7.4)",
        help_text="Only cards from sets legal in the format (Pauper: cards printed at common in them).",
    )
    allowed_sets = forms.CharField(
        required=False, help_text='Set codes, comma-separated (e.g. "ISD, DKA"). Empty: any set.'
    )
    extra_banned = forms.CharField(
        required=False,
        label="Additional banned cards",
        widget=forms.Textarea(attrs={"rows": 3, "class": "font-monospace"}),
        help_text="One card per line (or Card / Card). Unknown names are refused with suggestions.",
    )
    card_rules = forms.CharField(
        required=False,
        label="Card rules",
        widget=forms.Textarea(attrs={"rows": 3, "class": "font-monospace"}),
        help_text=(
            "One card filter per line, in the card search syntax: every card must match it "
            "(<code>t:dragon t:creature | Only Dragon creature cards</code>), or prefix counts "
            '(<code>at most 1: o:"draw a card"</code>, <code>at least 1, at most 2: t:land</code>). '
            "Text after “ | ” is the message players see. Fixed once the round is open."
        ),
    )
    unbanned = forms.CharField(
        required=False,
        label="Lifted from the standing banned lists",
        widget=forms.Textarea(attrs={"rows": 2, "class": "font-monospace"}),
        help_text="Cards of the PHM or Land Rule Banned List that are allowed in this round (rule 3.3: "
        "“unless otherwise specified by the round rules”). One card per line (or Card / Card).",
    )
    variant_order = forms.CharField(
        required=False,
        label="Order of the variants (7.2a)",
        help_text="Continuous effects of variants get timestamps in this order. Keys, comma-separated: "
        + ", ".join(DEFAULT_VARIANT_ORDER)
        + ". Empty: that usual order; keys left out follow in it.",
    )
    decisions = forms.CharField(
        required=False,
        label="Decisions each player makes with their hand (7.2b)",
        widget=forms.Textarea(attrs={"rows": 3, "class": "font-monospace"}),
        help_text="One per line: key | question | kind (text, choice, card or number) | choice | choice… — "
        "e.g. “tribe | Your creature type | choice | Goblin | Elf”. Secret like the hand until the deadline.",
    )
    format_rule = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 5}), help_text="The round's own rule. Markdown."
    )
    bonus_rule = forms.CharField(
        required=False, label="Bonus points (7.7)", widget=forms.Textarea(attrs={"rows": 2})
    )
    commentary = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}), help_text="Markdown."
    )
    deadline_precision = forms.ChoiceField(
        choices=DeadlinePrecision.choices,
        label="The deadline is",
        help_text="Approximate: about that day (shown as “about 4 March 2014”). Unknown: the date only "
        "places the round among the league's rounds.",
    )
    counts_in_standings = forms.BooleanField(
        required=False,
        label="Counts in the league's standings",
        help_text="Untick for an archive-only round: shown on the players' and cards' pages, left out of "
        "the standings.",
    )

    def __init__(self, *args, leagues=(), locked_fields=(), imported=False, **kwargs):
        super().__init__(*args, **kwargs)
        show_deadline_bounds(self.fields["deadline"])
        self.fields["league"].queryset = League.objects.filter(pk__in=[league.pk for league in leagues])
        if imported:  # its deadline is history: any moment in the past
            show_archived_deadline_bounds(self.fields["deadline"])
        else:  # only an imported round may be archive-only, or have a deadline not known exactly
            del self.fields["counts_in_standings"]
            del self.fields["deadline_precision"]
        for name in locked_fields:
            self.fields[name].disabled = True
            self.fields[name].help_text = (
                "As imported from the forum." if imported else "Fixed once the round is open."
            )

    def clean(self):
        cleaned = super().clean()
        size = cleaned.get("hand_size")
        if (
            size
            and size > USUAL_MAX_HAND_SIZE
            and not self.fields["hand_size"].disabled
            and not cleaned.get("confirm_large_hand")
        ):
            self.add_error(
                "hand_size",
                f"Rule 7.1 tells of hands of 1 to {USUAL_MAX_HAND_SIZE} cards. To have {size}, tick "
                f"“Yes, hands of more than {USUAL_MAX_HAND_SIZE} cards”.",
            )
        return cleaned

    def clean_card_rules(self):
        text = self.cleaned_data.get("card_rules", "")
        problems = text_line_problems(text)
        if problems:
            raise forms.ValidationError(problems)
        return text

    def rule_values(self):
        """The cleaned values in the shape the round services take."""
        values = dict(self.cleaned_data)
        values.pop("league", None)
        values.pop("confirm_large_hand", None)
        values["hand_size_mode"] = values.get("hand_size_mode") or HandSizeMode.EXACTLY
        values["extra_banned"] = split_card_names(values.get("extra_banned", ""))
        values["unbanned"] = split_card_names(values.get("unbanned", ""))
        values["variant_order"] = [
            key for key in re.split(r"[\s,>]+", values.get("variant_order", "")) if key
        ]
        values["decisions"] = parse_decisions_text(values.get("decisions", ""))
        values["allowed_sets"] = [c for c in re.split(r"[\s,]+", values.get("allowed_sets", "")) if c]
        values["card_rules"] = rules_from_text(values.get("card_rules", ""))
        return values

    @staticmethod
    def initial_for(round_):
        return {
            "league": round_.league_id,
            "title": round_.title,
            "hand_size": round_.hand_size,
            "hand_size_mode": round_.hand_size_mode,
            "confirm_large_hand": round_.hand_size > USUAL_MAX_HAND_SIZE,
            "deadline": round_.deadline,
            "land_rule": round_.land_rule,
            "life_rule": round_.life_rule,
            "backbuild": round_.backbuild,
            "backbuild_hands": round_.backbuild_hands,
            "sanctioned_format": round_.sanctioned_format,
            "allowed_sets": ", ".join(round_.allowed_sets),
            "extra_banned": "\n".join(round_.extra_banned),
            "card_rules": rules_to_text(round_.card_rules),
            "unbanned": "\n".join(round_.unbanned),
            "variant_order": ", ".join(variant_order(round_)) if round_.variant_order else "",
            "decisions": decisions_text(round_.decisions),
            "format_rule": round_.format_rule,
            "bonus_rule": round_.bonus_rule,
            "commentary": round_.commentary,
            "counts_in_standings": round_.counts_in_standings,
            "deadline_precision": round_.deadline_precision,
        }


class ExtendDeadlineForm(forms.Form):
    deadline = forms.DateTimeField(widget=DeadlineInput(), label="New deadline")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        show_deadline_bounds(self.fields["deadline"])
