from axes.utils import reset as reset_login_failures
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from phm import limits
from phm.client_address import client_ip

from . import services
from .forms import ProfileForm, SignUpForm
from .password_reset import OutboxPasswordResetForm


def _safe_next(request):
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return reverse("home")


@require_http_methods(["GET", "POST"])
def sign_up(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        verdict = limits.take(
            "sign-up-address", client_ip(request), settings.SIGN_UP_LIMIT_PER_ADDRESS, request=request
        )
        if not verdict.allowed:
            return limits.refused_page(
                request, verdict, f"Too many accounts were made from your address (at most {verdict.rate})."
            )
        if form.is_valid():
            user = services.register_player(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
                forum_username=form.cleaned_data["forum_username"],
                time_zone=form.cleaned_data["time_zone"],
            )
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.username}! Your account is ready.")
            return redirect(_safe_next(request))
        limits.give_back(verdict)  # a form with errors made no account: it does not count
    return render(request, "accounts/sign_up.html", {"form": form, "next": request.GET.get("next", "")})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=services.profile_for(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form, **_calendar_links(request, request.user)})


def _calendar_links(request, user):
    """The personal calendar's address (https://…/calendar/<secret>.ics) and its webcal:// twin."""
    secret = services.calendar_token_for(user)
    address = request.build_absolute_uri(reverse("submissions:personal-calendar", args=[secret]))
    return {"calendar_url": address, "calendar_webcal": "webcal://" + address.split("://", 1)[1]}


@login_required
@require_POST
def calendar_renew(request):
    services.renew_calendar_token(request.user)
    messages.success(
        request, "Your calendar has a new link; the old one no longer works. Subscribe with the new one."
    )
    return redirect(reverse("profile") + "#calendar")


class PasswordReset(auth_views.PasswordResetView):
    """Django's view, limited per address and per e-mail address (PASSWORD_RESET_LIMIT_*): each request that
    gets through may queue an e-mail. The limits count unknown addresses the same as known ones."""

    form_class = OutboxPasswordResetForm

    def post(self, request, *args, **kwargs):
        verdict = limits.take(
            "password-reset-address",
            client_ip(request),
            settings.PASSWORD_RESET_LIMIT_PER_ADDRESS,
            request=request,
        )
        if not verdict.allowed:
            return limits.refused_page(
                request,
                verdict,
                f"Too many password resets were asked for from your address (at most {verdict.rate}).",
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        verdict = limits.take(
            "password-reset-email",
            form.cleaned_data["email"].casefold(),
            settings.PASSWORD_RESET_LIMIT_PER_EMAIL,
            request=self.request,
        )
        if not verdict.allowed:
            return limits.refused_page(
                self.request,
                verdict,
                f"Reset links for this e-mail address were asked for {verdict.rate.count} times within "
                f"{verdict.rate.period_text}: look for them in that mailbox (and its spam folder).",
            )
        return super().form_valid(form)


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """Django's view; a new password set through the e-mailed link also lifts the lock on the account (only
    the mailbox's owner can get here), so its owner can log in at once."""

    def form_valid(self, form):
        response = super().form_valid(form)
        reset_login_failures(username=form.user.get_username())
        return response
