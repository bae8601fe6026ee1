"""Undelivered mail for moderators: their leagues' messages, with attempts and the last error, and a way to
send them again. Bodies and addresses are for administrators only, and a moderator who plays in a round does
not see, before its deadline, the receipts and review notices of that round (they would tell who entered)."""

from django.contrib import admin, messages
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.services import is_moderator
from submissions.models import Hand

from . import services
from .models import Message

SUMMARY_FIELDS = [
    "kind",
    "recipient",
    "subject",
    "league",
    "round",
    "state",
    "attempts",
    "last_error",
    "created_at",
    "next_attempt_at",
    "last_attempt_at",
    "sent_at",
]


def visible_messages(user, queryset=None):
    queryset = Message.objects.all() if queryset is None else queryset
    if user.is_superuser:
        return queryset
    playing = Hand.objects.filter(round=OuterRef("round"), player=user)
    hidden = Q(secret=True, round__deadline__gt=timezone.now()) & Q(Exists(playing))
    return queryset.filter(league__moderators=user).exclude(hidden)


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["created_at", "kind", "recipient", "round", "state", "attempts", "short_error", "sent_at"]
    list_filter = ["state", "kind"]
    list_select_related = ["recipient", "round__league"]
    search_fields = ["subject", "recipient__username"]
    actions = ["send_again"]
    date_hierarchy = "created_at"

    def get_queryset(self, request):
        return visible_messages(request.user, super().get_queryset(request))

    def get_fields(self, request, obj=None):
        if request.user.is_superuser:
            return [*SUMMARY_FIELDS, "to_address", "secret", "body"]
        return SUMMARY_FIELDS

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def has_module_permission(self, request):
        return is_moderator(request.user)

    def has_view_permission(self, request, obj=None):
        return is_moderator(request.user)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_retry_permission(self, request):
        return is_moderator(request.user)

    @admin.display(description="Last error")
    def short_error(self, obj):
        return obj.last_error[:80]

    @admin.action(description="Send the selected messages again now", permissions=["retry"])
    def send_again(self, request, queryset):
        retried = services.retry_now(list(queryset), actor=request.user)
        self.message_user(
            request,
            f"{len(retried)} message(s) queued to be sent again; sent ones were left alone.",
            messages.SUCCESS,
        )
