from django import forms

from .models import EVENT_LABELS, EVENTS, Webhook
from .validation import url_problem


class WebhookForm(forms.Form):
    url = forms.CharField(
        label="Webhook URL",
        max_length=2000,
        widget=forms.URLInput(
            attrs={"placeholder": "https://discord.com/api/webhooks/…", "autocomplete": "off"}
        ),
        help_text="In Discord: channel settings → Integrations → Webhooks → Copy Webhook URL.",
    )
    kind = forms.ChoiceField(
        label="Kind",
        choices=Webhook.Kind.choices,
        initial=Webhook.Kind.DISCORD,
        widget=forms.RadioSelect,
        help_text="Generic JSON posts are signed with an HMAC-SHA256 header (X-PHM-Signature).",
    )
    events = forms.MultipleChoiceField(
        label="Send a message when",
        choices=[(event, EVENT_LABELS[event]) for event in EVENTS],
        initial=EVENTS,
        widget=forms.CheckboxSelectMultiple,
    )
    secret = forms.CharField(
        label="Secret (JSON webhooks)",
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text="Leave empty to have one generated; it is shown once, after adding the webhook.",
    )

    def clean_url(self):
        url = self.cleaned_data["url"].strip()
        problem = url_problem(url)
        if problem:
            raise forms.ValidationError(problem)
        return url
