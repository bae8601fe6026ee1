"""Webhook deliveries for administrators, read only: what was sent where, with attempts and answers. Secrets
and payloads are for superusers only (a payload after the reveal is public, but the URL's token is not)."""

from django.contrib import admin

from rounds.admin import ReadOnlyAdmin

from .models import Webhook, WebhookDelivery


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["id", "league", "kind", "url_display", "events", "active", "created_by", "created_at"]
    list_filter = ["kind", "active"]
    list_select_related = ["league", "created_by"]
    fields = ["league", "kind", "url_display", "events", "secret_hint", "active", "created_by", "created_at"]
    readonly_fields = ["league", "kind", "url_display", "events", "secret_hint", "created_by", "created_at"]

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_add_permission(self, request):
        return False  # added by moderators on the league's webhooks page, where the URL is checked

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser  # switching a webhook off or on

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = ["id", "webhook", "event", "round", "state", "last_status_code", "attempts", "created_at"]
    list_filter = ["state", "event"]
    list_select_related = ["webhook", "round__league"]
    date_hierarchy = "created_at"
    fields = [
        "webhook",
        "event",
        "round",
        "state",
        "attempts",
        "last_status_code",
        "last_error",
        "created_at",
        "next_attempt_at",
        "last_attempt_at",
        "sent_at",
        "payload",
    ]

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser
