"""Which messages a person may see in the outbox's lists (the admin, the dashboard's undelivered mail).

Before a round's deadline its secret messages (receipts, review notices, reminders, announcements owed to a
hand still secret: they tell who entered) are shown only to moderators a registered rule lets see them. The
app that knows who may (submissions: the moderators who declared they will not play in the round) registers
its rule in its AppConfig.ready(); the outbox imports none of the apps above it."""

from collections.abc import Callable

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import Message

# rule(user) -> a condition on Message: the secret messages of an open round that `user` may see anyway.
SecretFilter = Callable[[User], Q]
_secret_filters: list[SecretFilter] = []


def register_secret_filter(rule: SecretFilter) -> None:
    """Let the people `rule` names see a round's secret messages before its deadline (idempotent)."""
    if rule not in _secret_filters:
        _secret_filters.append(rule)


def visible_messages(user: User, queryset: QuerySet[Message] | None = None) -> QuerySet[Message]:
    """The messages (of `queryset`, else all) `user` may see: everything for a superuser; a moderator's
    leagues' messages for the others, without the secret ones of a round still open unless a registered rule
    lets them see those."""
    queryset = Message.objects.all() if queryset is None else queryset
    if user.is_superuser:
        return queryset
    hidden = Q(secret=True, round__deadline__gt=timezone.now())
    for rule in _secret_filters:
        hidden &= ~rule(user)
    return queryset.filter(league__moderators=user).exclude(hidden)
