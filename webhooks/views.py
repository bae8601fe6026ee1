"""The moderator's page of a league's webhooks: add one, see the last deliveries, send a test, remove."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from rounds.moderation_views import moderator_required

from . import selectors, services
from .forms import WebhookForm
from .models import EVENTS

# The secret of a webhook just added, kept in the (server-side) session until the next page shows it once.
SHOW_ONCE_SESSION_KEY = "webhooks.new_secret"


def _guarded(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except services.WebhookNotFound as error:
        raise Http404(str(error)) from error
    except services.WebhookForbidden as error:
        raise PermissionDenied(str(error)) from error


@moderator_required
@require_http_methods(["GET", "POST"])
def league_webhooks(request, league_id):
    league = _guarded(services.league_for, request.user, league_id)
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            webhook, secret = services.create_webhook(actor=request.user, league=league, **form.cleaned_data)
        except services.WebhookInputError as error:
            for field, problems in error.errors.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        except services.WebhookConflict as error:
            form.add_error(None, str(error))
        else:
            if webhook.kind == webhook.Kind.JSON:
                request.session[SHOW_ONCE_SESSION_KEY] = {"webhook": webhook.pk, "secret": secret}
            messages.success(request, "Webhook added. Send a test message to check that it works.")
            return redirect("webhooks:league", league.pk)
    new_secret = request.session.pop(SHOW_ONCE_SESSION_KEY, None) if request.method == "GET" else None
    context = {
        "league": league,
        "form": form,
        "webhooks": selectors.webhooks_of_league(league),
        "new_secret": new_secret,
        "events": EVENTS,
        "site_url_missing": not settings.SITE_URL,
    }
    return render(request, "webhooks/league_webhooks.html", context)


@moderator_required
@require_POST
def webhook_test(request, webhook_id):
    delivery = _guarded(services.send_test, actor=request.user, webhook_id=webhook_id)
    messages.info(request, "Test message queued: its delivery and the receiver's answer are listed below.")
    return redirect("webhooks:league", delivery.webhook.league_id)


@moderator_required
@require_POST
def webhook_delete(request, webhook_id):
    webhook = _guarded(services.webhook_for, request.user, webhook_id)
    league_id = webhook.league_id
    _guarded(services.delete_webhook, actor=request.user, webhook_id=webhook_id)
    messages.success(request, "Webhook removed; nothing more will be sent to it.")
    return redirect("webhooks:league", league_id)
