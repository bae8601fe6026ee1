import sys

from django.core.management.base import BaseCommand, CommandError

from rounds.catalog.handlist import parse_hand_list
from rounds.catalog.resolve import is_known_card
from rounds.legality import HandRules, LandRule, RulesError, check_hand
from rounds.models import HandSizeMode

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_USAGE = 0, 1, 2


class Command(BaseCommand):
    help = (
        'Check a hand list such as "Black Lotus / Frost Titan / Nevermore" against the PHM rules. '
        "Exit status: 0 legal, 1 illegal, 2 usage error."
    )

    def add_arguments(self, parser):
        parser.add_argument("hand", help='The hand as posted on the forum: "Card / Card / Card".')
        parser.add_argument("--size", type=int, help="Number of cards the hand must have (1-15).")
        parser.add_argument(
            "--up-to", action="store_true", help="The hand may have 1 to --size cards (an up-to-N round)."
        )
        parser.add_argument(
            "--land-rule", default=LandRule.NONE, help="none, LR, ELR or DLR (default: none)."
        )
        parser.add_argument("--format", dest="sanctioned_format", help="Sanctioned format key, e.g. modern.")
        parser.add_argument("--ban", default="", help='Round\'s extra banned cards, separated by ";".')

    def handle(self, *args, hand, size, up_to, land_rule, sanctioned_format, ban, **options):
        names = parse_hand_list(hand, is_card=is_known_card)
        if not names:
            raise CommandError("The hand list is empty.", returncode=EXIT_USAGE)
        land_rule = {value.casefold(): value for value in LandRule.values}.get(
            land_rule.casefold(), land_rule
        )
        rules = HandRules(
            hand_size=size,
            land_rule=land_rule,
            sanctioned_format=sanctioned_format.lower() if sanctioned_format else None,
            extra_banned=tuple(name.strip() for name in ban.split(";") if name.strip()),
            hand_size_mode=HandSizeMode.UP_TO if up_to else HandSizeMode.EXACTLY,
        )
        try:
            verdict = check_hand(names, rules)
        except RulesError as error:
            raise CommandError(str(error), returncode=EXIT_USAGE) from error
        for card in verdict.cards:
            if card.legal:
                note = " (accepted by a moderator)" if card.accepted else ""
                self.stdout.write(f"{card.index + 1}. {card.name}: legal{note}")
            else:
                self.stdout.write(f"{card.index + 1}. {card.name}: ILLEGAL")
                for problem in card.problems:
                    self.stdout.write(f"     - {problem.message}")
        for problem in verdict.problems:
            self.stdout.write(f"Hand: {problem.message}")
        if verdict.legal:
            self.stdout.write(self.style.SUCCESS("LEGAL"))
            return
        self.stdout.write(self.style.ERROR("ILLEGAL"))
        self.stdout.flush()
        sys.exit(EXIT_ILLEGAL)
