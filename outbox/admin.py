"""Undelivered mail for moderators: their leagues' messages, with attempts and the last error, and a way to
send them again. Bodies and addresses are for administrators only, and before a round's deadline its secret
messages (receipts, review notices, reminders: they tell who entered) are shown only to moderators who
declared they will not play in it (outbox.selectors.visible_messages)."""

from django.contrib import admin, messages
from django.template.defaultfilters import pluralize
from django.utils.text import Truncator
from django.utils.timezone import localtime

from accounts.services import is_moderator

from . import deferred, kinds, services
from .models import Message
from .selectors import visible_messages

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


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["what", "recipient", "round", "delivery", "short_error", "created_at"]
    list_display_links = ["what"]
    list_filter = ["state", "kind"]
    list_select_related = ["recipient", "round__league"]
    search_fields = ["subject", "recipient__username"]
    actions = ["send_again"]
    date_hierarchy = "created_at"

    def get_queryset(self, request):
        return visible_messages(request.user, super().get_queryset(request))

    def get_fields(self, request, obj=None):
        if request.user.is_superuser:
            return [*SUMMARY_FIELDS, "to_address", "secret", "body_text"]
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

    @admin.display(description="Message", ordering="kind")
    def what(self, obj):
        return kinds.message_label(obj.kind)

    @admin.display(description="Delivery", ordering="state")
    def delivery(self, obj):
        attempts = f"{obj.attempts} attempt{pluralize(obj.attempts)}"
        if obj.state == Message.State.SENT:
            return f"Sent {localtime(obj.sent_at):%Y-%m-%d %H:%M}"
        if obj.state == Message.State.FAILED:
            return f"Failed after {attempts}"
        if obj.attempts == 0:
            return "Waiting to be sent"
        return f"Pending after {attempts}; next try {localtime(obj.next_attempt_at):%H:%M}"

    @admin.display(description="Body")
    def body_text(self, obj):
        try:
            return deferred.body_of(obj)  # a receipt not sent yet: rendered from its version, as it will be
        except deferred.SourceGone as error:
            return f"(nothing to send: {error})"

    @admin.display(description="Last error")
    def short_error(self, obj):
        return Truncator(obj.last_error).chars(60)

    @admin.action(description="Send the selected messages again now", permissions=["retry"])
    def send_again(self, request, queryset):
        retried = services.retry_now(list(queryset), actor=request.user)
        self.message_user(
            request,
            f"{len(retried)} message(s) queued to be sent again; sent ones were left alone.",
            messages.SUCCESS,
        )
