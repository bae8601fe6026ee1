from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts import services
from demo.data import DEMO_PASSWORD, DEMO_USERNAME


class Command(BaseCommand):
    help = "Create (or reset) the demo moderator account used by `make run`. Refused unless DEBUG is on."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Create it even when DEBUG is off.")

    def handle(self, *args, force, **options):
        if not settings.DEBUG and not force:
            raise CommandError(
                "The demo moderator has a public password: it is only created when DEBUG is on."
            )
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USERNAME)
        user.set_password(DEMO_PASSWORD)
        user.save()
        profile = services.profile_for(user)
        if not profile.forum_username:
            profile.forum_username = "Demo Moderator"
            profile.save(update_fields=["forum_username"])
        services.make_moderator(user)
        verb = "Created" if created else "Reset"
        self.stdout.write(
            self.style.SUCCESS(f"{verb} demo moderator: username {DEMO_USERNAME}, password {DEMO_PASSWORD}")
        )
