"""The hand form: one field per card of the round's hand size, a paste box, a name, one field per decision of
the round (rule 7.2b), the attestation."""

from django import forms

from rounds.catalog.handlist import parse_hand_list
from rounds.catalog.resolve import is_known_card
from rounds.variants import MAX_DECISION_TEXT

from .services.inputs import MAX_CARD_NAME_LENGTH, MAX_NAME_LENGTH

DECISION_FIELD_PREFIX = "decision_"

ATTESTATION_TEXT = {
    "3.1": (
        "3.1 — My hand cannot, before an opponent's second turn would begin, force a win, an infinite "
        "number of turns, or a card leaving an opponent's hand (apart from the exceptions 3.1a to 3.1e)."
    ),
    "7.5b": "7.5b — My hand enables me to win both games of a match against at least one legal hand.",
    "7.6a": "7.6a — My hand enables me to win both games of a match against the specified hand or hands.",
}


class HandForm(forms.Form):
    name = forms.CharField(
        label="Hand name",
        max_length=MAX_NAME_LENGTH,
        required=False,
        help_text="Optional (rule 4.3); the moderator may rename it.",
    )
    paste = forms.CharField(
        label="Paste your hand",
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Card / Card / Card"}),
        help_text="The forum format fills the card fields: Card / Card / Card, or one card per line.",
    )
    attest = forms.BooleanField(
        label="I attest that my hand follows these rules",
        required=True,
        error_messages={"required": "Confirm that your hand follows the rules above before submitting."},
    )

    def __init__(self, *args, hand_size, attestations, up_to=False, decisions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.hand_size = hand_size
        self.up_to = up_to  # "up to N cards": empty card fields are left out, not errors
        self.decisions = list(decisions)
        # (rule, its text, its anchor on the rules page)
        self.attestations = [
            (rule, ATTESTATION_TEXT[rule], "rule-" + rule.replace(".", "-")) for rule in attestations
        ]
        for position in range(1, hand_size + 1):
            self.fields[f"card_{position}"] = forms.CharField(
                label=f"Card {position}{' (optional)' if up_to and position > 1 else ''}",
                max_length=MAX_CARD_NAME_LENGTH,
                required=False,
            )
        for decision in self.decisions:
            self.fields[DECISION_FIELD_PREFIX + decision["key"]] = _decision_field(decision)

    @property
    def decision_fields(self):
        return [self[DECISION_FIELD_PREFIX + decision["key"]] for decision in self.decisions]

    def decision_answers(self):
        """{key: answer} as typed; the submission service checks them (choices, card names, numbers)."""
        return {
            decision["key"]: self.cleaned_data.get(DECISION_FIELD_PREFIX + decision["key"])
            for decision in self.decisions
        }

    @property
    def card_fields(self):
        return [self[f"card_{position}"] for position in range(1, self.hand_size + 1)]

    def card_inputs(self):
        """What the player typed in the card fields, empty fields dropped only when all are empty (or, in an
        "up to N" round, the trailing ones)."""
        source = self.cleaned_data if hasattr(self, "cleaned_data") else self.data
        cards = [(source.get(f"card_{n}") or "").strip() for n in range(1, self.hand_size + 1)]
        if self.up_to:
            # Trailing empty fields are the cards left out; a gap before a card stays (and is reported where
            # it is), so each verdict sits next to its own field.
            while cards and not cards[-1]:
                cards.pop()
        return cards if any(cards) else []


def _decision_field(decision):
    """The input for one decision; every decision is required (rule 7.2b)."""
    label, kind = decision["label"], decision["kind"]
    required = {"required": f"“{label}” is required in this round (rule 7.2b)."}
    if kind == "choice":
        choices = [("", "Choose…")] + [(choice, choice) for choice in decision.get("choices", [])]
        select = forms.Select(attrs={"class": "form-select"})
        return forms.ChoiceField(label=label, choices=choices, error_messages=required, widget=select)
    if kind == "number":
        number = forms.NumberInput(attrs={"class": "form-control"})
        return forms.IntegerField(
            label=label, help_text="A whole number.", error_messages=required, widget=number
        )
    help_text = "A card name, as the card catalog spells it." if kind == "card" else ""
    text = forms.TextInput(attrs={"class": "form-control", "autocomplete": "off"})
    return forms.CharField(
        label=label, max_length=MAX_DECISION_TEXT, help_text=help_text, error_messages=required, widget=text
    )


def fill_from_paste(data, hand_size):
    """A copy of the POST data with the card fields filled from the paste box, the names that did not fit,
    and how many names the paste held."""
    data = data.copy()
    names = parse_hand_list(data.get("paste", ""), is_card=is_known_card)
    for position in range(1, hand_size + 1):
        data[f"card_{position}"] = names[position - 1] if position <= len(names) else ""
    data["paste"] = ""
    return data, names[hand_size:], len(names)
