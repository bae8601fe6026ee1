"""Pages: the notification list (the bell's page), preferences, and the one-click unsubscribe."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from . import inbox, preferences, unread
from .kinds import BY_KEY

PAGE_SIZE = 30


@login_required
def notification_list(request):
    notifications = inbox.for_user(request.user)
    only_unread = request.GET.get("unread") == "1"
    if only_unread:
        notifications = notifications.filter(read_at__isnull=True)
    page = Paginator(notifications, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "outbox/notifications.html",
        {"page": page, "only_unread": only_unread, "unread": unread.count(request.user.pk)},
    )


@login_required
@require_POST
def mark_read(request):
    ids = [int(value) for value in request.POST.getlist("id") if value.isdigit()]
    marked = inbox.mark_read(request.user, ids=ids, everything=request.POST.get("all") == "1")
    if request.POST.get("all") == "1":
        messages.success(request, f"Marked {marked} notification{'s' if marked != 1 else ''} read.")
    return redirect("outbox:notifications")


@login_required
def open_notification(request, notification_id):
    path = inbox.open_notification(request.user, notification_id)
    if path is None:
        raise Http404("No such notification.")
    return redirect(path)


@login_required
@require_http_methods(["GET", "POST"])
def preference_page(request):
    shown = preferences.kinds_for(request.user)
    if request.method == "POST":
        choices = {
            kind.key: {
                "email": request.POST.get(f"{kind.key}:email") == "on",
                **({"site": request.POST.get(f"{kind.key}:site") == "on"} if kind.site else {}),
            }
            for kind in shown
        }
        preferences.update(request.user, choices, digest=request.POST.get("digest") == "on")
        messages.success(request, "Your notification choices are saved.")
        return redirect("outbox:preferences")
    choices = preferences.choices_for(request.user)
    rows = [(kind, choices[kind.key]) for kind in shown]
    return render(
        request,
        "outbox/preferences.html",
        {
            # A moderator's kinds in a section of their own, after the players' (empty for a player).
            "rows": [row for row in rows if not row[0].for_moderators],
            "moderator_rows": [row for row in rows if row[0].for_moderators],
            "digest": preferences.digest_enabled(request.user),
            "digest_hour": f"{settings.DIGEST_HOUR:02d}:00",
        },
    )


@csrf_exempt  # RFC 8058: mail clients POST here without a session; the signed token is the authority
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """GET asks (link scanners must not unsubscribe anyone); POST — the page's button or the mail client's
    one-click `List-Unsubscribe=One-Click` — turns the kind's e-mail off. No login needed."""
    found = preferences.read_unsubscribe_token(token)
    person = get_user_model().objects.filter(pk=found[0]).first() if found else None
    if person is None:
        return render(request, "outbox/unsubscribe.html", {"invalid": True}, status=404)
    kind = BY_KEY[found[1]]
    done = False
    if request.method == "POST":
        preferences.unsubscribe(person, kind.key)
        done = True
    return render(
        request,
        "outbox/unsubscribe.html",
        {
            "kind": kind,
            "person": person,
            "done": done,
            "email_on": preferences.wants(person, kind.key, "email"),
        },
    )
