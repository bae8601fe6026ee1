from django.contrib import admin, messages

from accounts.services import is_moderator

from .models import (
    AcceptedCard,
    BannedCard,
    BannedList,
    BannedListChange,
    Card,
    CardFace,
    CardLegalityChange,
    CardSet,
    CatalogVersion,
    League,
    Printing,
    Round,
)
from .permissions import leagues_managed_by
from .services import catalog as services


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records that change only through the pages, the API or an import, which audit or own them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(League)
class LeagueAdmin(ReadOnlyAdmin):
    list_display = ["name", "rounds_planned", "created_at"]
    search_fields = ["name"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["title", "league", "number", "hand_size", "state", "deadline"]
    list_filter = ["state", "league"]
    search_fields = ["title"]


class ModeratorsMayView:
    """Moderators (superusers and the moderators group) see these records."""

    def has_module_permission(self, request):
        return is_moderator(request.user)

    def has_view_permission(self, request, obj=None):
        return is_moderator(request.user)


class ModeratorPermissions(ModeratorsMayView):
    """Moderators keep the banned lists."""

    def has_add_permission(self, request, obj=None):
        return is_moderator(request.user)

    def has_change_permission(self, request, obj=None):
        return is_moderator(request.user)

    def has_delete_permission(self, request, obj=None):
        return is_moderator(request.user)


class BannedCardInline(ModeratorPermissions, admin.TabularInline):
    model = BannedCard
    fields = ["card_name", "category", "position"]
    extra = 1


@admin.register(BannedList)
class BannedListAdmin(ModeratorPermissions, admin.ModelAdmin):
    list_display = ["name", "key", "entry_count"]
    readonly_fields = ["key"]
    fields = ["key", "name", "description"]
    inlines = [BannedCardInline]

    def has_add_permission(self, request, obj=None):
        return False  # the two lists are fixed; their cards are what moderators edit

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Cards")
    def entry_count(self, obj):
        return obj.entries.count()

    def save_formset(self, request, form, formset, change):
        """Every edit goes through the services, which record who changed what and when."""
        if formset.model is not BannedCard:
            return super().save_formset(request, form, formset, change)
        formset.save(commit=False)
        try:
            for entry in formset.deleted_objects:
                services.remove_banned_card(entry, by=request.user)
            for entry in formset.new_objects:
                services.add_banned_card(
                    form.instance, card_name=entry.card_name, category=entry.category, by=request.user
                )
            for entry, _ in formset.changed_objects:
                services.change_banned_card(
                    entry, card_name=entry.card_name, category=entry.category, by=request.user
                )
        except services.BannedListError as error:
            messages.error(request, str(error))


@admin.register(BannedListChange)
class BannedListChangeAdmin(ModeratorPermissions, admin.ModelAdmin):
    list_display = [
        "changed_at",
        "banned_list",
        "action",
        "card_name",
        "category_before",
        "category_after",
        "changed_by",
    ]
    list_filter = ["banned_list", "action"]
    search_fields = ["card_name"]
    list_select_related = ["banned_list", "changed_by"]

    def has_add_permission(self, request, obj=None):
        return False  # the history is written by the services, never by hand

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AcceptedCard)
class AcceptedCardAdmin(ModeratorsMayView, ReadOnlyAdmin):
    """Read-only, and only the leagues the moderator manages: cards are accepted on the round's own page
    (services.accept_unknown_card checks the league, the playing-moderator rule, and audits)."""

    list_display = ["name", "round", "accepted_by", "accepted_at"]
    list_select_related = ["round__league", "accepted_by"]
    fields = ["round", "name", "reason", "accepted_by", "accepted_at"]
    readonly_fields = fields
    search_fields = ["name"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(round__league__in=[league.pk for league in leagues_managed_by(request.user)])


class CardFaceInline(admin.TabularInline):
    model = CardFace
    fields = ["position", "name"]
    readonly_fields = fields
    extra = 0
    can_delete = False


class LegalityChangeInline(admin.TabularInline):
    model = CardLegalityChange
    fields = ["effective_at", "format", "before", "after", "catalog_version"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class PrintingInline(admin.TabularInline):
    model = Printing
    fields = ["card_set"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Card)
class CardAdmin(ReadOnlyAdmin):
    """Read-only: the catalog is written by `import_cards`, so a refresh never fights hand edits."""

    list_display = ["name", "type_line", "mana_value", "layout", "data_quality", "first_printed"]
    list_filter = ["data_quality", "layout", "paper"]
    search_fields = ["name", "oracle_name", "normalized_name"]
    inlines = [CardFaceInline, PrintingInline, LegalityChangeInline]


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "release_date"]
    search_fields = ["code", "name"]


@admin.register(CatalogVersion)
class CatalogVersionAdmin(admin.ModelAdmin):
    list_display = ["loaded_at", "as_of", "source", "cards_added", "cards_changed", "card_count"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
