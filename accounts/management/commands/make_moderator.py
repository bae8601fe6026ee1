from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Put a user in the moderators group (or take them out with --remove)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--remove", action="store_true", help="Take the user out of the moderators group."
        )

    def handle(self, *args, username, remove, **options):
        User = get_user_model()
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist:
            similar = list(
                User.objects.filter(username__icontains=username[:3]).values_list("username", flat=True)[:5]
            )
            hint = f" Did you mean: {', '.join(similar)}?" if similar else ""
            raise CommandError(f'No user named "{username}".{hint}') from None
        if remove:
            changed = services.remove_moderator(user)
            message = "is no longer a moderator" if changed else "was not a moderator; nothing changed"
        else:
            changed = services.make_moderator(user)
            message = "is now a moderator" if changed else "is already a moderator; nothing changed"
        self.stdout.write(self.style.SUCCESS(f"{user.username} {message}."))
