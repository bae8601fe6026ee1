from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from demo import data
from demo.build import DemoError, seed_demo
from demo.data import DEMO_PASSWORD, DEMO_USERNAME
from rounds.models import RoundState


class Command(BaseCommand):
    help = (
        "Fill the site with a living demo built through the services: League 52 (three final rounds and one "
        "open for hands) and the finished League 51, with their players. Running it again changes nothing. "
        "Refused unless DEBUG is on or --force is given: the demo's accounts have published passwords."
    )

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Seed it even when DEBUG is off.")
        parser.add_argument(
            "--url",
            default=settings.SITE_URL or "http://127.0.0.1:8000",
            help="The site's address, for the links printed at the end (default: SITE_URL or "
            "http://127.0.0.1:8000).",
        )

    def handle(self, *args, force, url, **options):
        if not settings.DEBUG and not force:
            raise CommandError(
                f"The demo's accounts have published passwords ({DEMO_USERNAME} / {DEMO_PASSWORD}, every "
                f"player / {data.PLAYER_PASSWORD}): the demo is only seeded when DEBUG is on. Pass --force "
                "to seed it anyway."
            )
        try:
            seeded = seed_demo()
        except DemoError as error:
            raise CommandError(f"The demo was not seeded, nothing was stored: {error}") from None
        for item in seeded:
            self.stdout.write(self._league_line(item))
        self._print_visit(seeded, url.rstrip("/"))

    def _league_line(self, item):
        league = item.league
        rounds = list(league.rounds.order_by("number"))
        final = sum(round_.state == RoundState.FINAL for round_ in rounds)
        text = f"{league.name}: {final} final round{'s' if final != 1 else ''}"
        text += "".join(
            f", round {round_.code} open until {round_.deadline:%Y-%m-%d %H:%M} UTC"
            for round_ in rounds
            if round_.state == RoundState.OPEN
        )
        winners = ", ".join(user.profile.display_name for user in league.winners.select_related("profile"))
        if winners:
            text += f", won by {winners}"
        if item.created:
            return self.style.SUCCESS(f"Created {text}.")
        return f"Already there, left as it was: {text}."

    def _print_visit(self, seeded, url):
        living = seeded[-1].league
        rounds = list(living.rounds.order_by("number"))
        open_round = next((r for r in rounds if r.state == RoundState.OPEN), None)
        last_final = next((r for r in reversed(rounds) if r.state == RoundState.FINAL), None)
        players = ", ".join(player.username for player in data.PLAYERS[1:6])
        lines = [
            "",
            "Log in as",
            f"  the demo moderator: username {DEMO_USERNAME}, password {DEMO_PASSWORD}",
            f"  a player: username {data.PLAYERS[0].username} (or {players}, …), password "
            f"{data.PLAYER_PASSWORD}",
            "",
            "Visit",
            f"  {url}/  the home page",
            f"  {url}{reverse('scoring:league', args=[living.pk])}  {living.name}'s standings",
        ]
        if last_final is not None:
            results = reverse("scoring:results", args=[last_final.pk])
            lines.append(f"  {url}{results}  round {last_final.code}'s results")
        if open_round is not None:
            lines.append(
                f"  {url}{reverse('rounds:round-detail', args=[open_round.pk])}  round {open_round.code}, "
                "open for hands"
            )
        lines.append(f"  {url}{reverse('players:player', args=[data.PLAYERS[0].username])}  a player's page")
        self.stdout.write("\n".join(lines))
