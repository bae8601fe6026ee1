"""Every power a moderator could use in their own interest follows one rule (rounds.permissions): in a league
that names no moderators, every site moderator can manage it, so "another moderator" is any other site
moderator (or administrator). A moderator who plays is then refused each power, with a 403 naming who can act;
only where nobody else can manage the league may the playing moderator act. Checked power by power: bonus
awards (to themselves, to a rival), withdrawing a bonus, setting results (their own match, a rival's),
resolving a challenge, finalizing, reopening, reviewing a hand, accepting a card, importing players' rows and
declaring the league's winners."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from phm.errors import Forbidden
from rounds.services.catalog import accept_unknown_card
from rounds.services.leagues import create_league
from scoring.models import BonusAward
from scoring.services.bonus import award_bonus, withdraw_bonus
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.errors import ScoringInputError
from scoring.services.finalization import finalize_round, reopen_round
from scoring.services.league import declare_winners
from scoring.services.posted_rows import import_posted_rows
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from submissions.services.review import review_hand
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def unnamed(moderator, make_players):
    """A league naming no moderator, and a revealed round of it in which the site moderator has hand 01
    against 02 and 03; 01 v 02 reported 6-0 by 02's player."""
    league = create_league(actor=moderator, name="Open Summer Cup")
    assert not league.moderators.exists()
    round_ = RoundFactory(league=league)
    players = [moderator, *make_players(2)]
    make_hands(round_, players)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    round_.refresh_from_db()
    report_match(reporter=players[1], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)
    return league, round_, players


def _bonus_to_self(actor, round_, players, helper):
    return award_bonus(actor=actor, round_id=round_.pk, player_username="mod", points=10_000, reason="Mine")


def _bonus_to_rival(actor, round_, players, helper):
    return award_bonus(
        actor=actor, round_id=round_.pk, player_username=players[1].username, points=5, reason="7.7"
    )


def _withdraw_bonus(actor, round_, players, helper):
    award = award_bonus(
        actor=helper, round_id=round_.pk, player_username=players[2].username, points=5, reason="7.7"
    )
    return withdraw_bonus(actor=actor, award_id=award.pk, reason="Not earned")


def _set_own_result(actor, round_, players, helper):
    return set_result(actor=actor, match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)


def _set_rivals_result(actor, round_, players, helper):
    return set_result(actor=actor, match_id=match_between(round_, 2, 3).pk, points_a=0, points_b=6)


def _resolve_challenge(actor, round_, players, helper):
    challenge = challenge_match(
        challenger=players[2], match_id=match_between(round_, 1, 2).pk, reason="Lotus wins"
    )
    return resolve_challenge(actor=actor, challenge_id=challenge.pk, decision="rejected", note="No")


def _finalize(actor, round_, players, helper):
    return finalize_round(actor=actor, round_id=round_.pk, force=True)


def _reopen(actor, round_, players, helper):
    finalize_round(actor=helper, round_id=round_.pk, force=True)
    return reopen_round(actor=actor, round_id=round_.pk, reason="Recount")


def _review_a_rivals_hand(actor, round_, players, helper):
    hand = round_.hands.get(player=players[1])
    return review_hand(actor=actor, hand_id=hand.pk, action="rename", name="Renamed")


def _accept_a_card(actor, round_, players, helper):
    return accept_unknown_card(
        round_, name="Unheard Of Dragon", by=actor, reason="Spoiled yesterday", not_in_catalog=True
    )


def _import_rows(actor, round_, players, helper):
    result = import_posted_rows(actor=actor, round_id=round_.pk, text="2 | 0 X 4", dry_run=True)
    if result.problems:
        raise ScoringInputError({"text": result.problems})
    return result


def _declare_winners(actor, round_, players, helper):
    return declare_winners(actor=actor, league_id=round_.league_id, usernames=["mod"], note="Me")


POWERS = {
    "a bonus to themselves": _bonus_to_self,
    "a bonus to a rival": _bonus_to_rival,
    "withdrawing a bonus": _withdraw_bonus,
    "their own match's result": _set_own_result,
    "a rival match's result": _set_rivals_result,
    "resolving a challenge": _resolve_challenge,
    "finalizing": _finalize,
    "reopening": _reopen,
    "reviewing a rival's hand": _review_a_rivals_hand,
    "accepting a card": _accept_a_card,
    "importing players' rows": _import_rows,
    "declaring the winners": _declare_winners,
}


@pytest.mark.parametrize("power", list(POWERS))
def test_a_playing_moderator_is_refused_while_another_site_moderator_can_manage_the_league(
    power, unnamed, moderator, other_moderator
):
    _, round_, players = unnamed
    with pytest.raises((Forbidden, ScoringInputError)) as refused:
        POWERS[power](moderator, round_, players, other_moderator)
    refusal = refused.value
    if isinstance(refusal, ScoringInputError):
        text = " ".join(sentence for sentences in refusal.errors.values() for sentence in sentences)
    else:
        text = str(refusal)
    assert "Other Moderator" in text, text
    assert not BonusAward.objects.filter(player=moderator).exists()


@pytest.mark.parametrize("power", list(POWERS))
def test_where_nobody_else_can_manage_the_league_the_playing_moderator_may(power, unnamed, moderator):
    """The rule's other half: the site's only moderator, with no administrator, may act (and the pages say it
    was decided by a moderator who played)."""
    _, round_, players = unnamed
    assert POWERS[power](moderator, round_, players, moderator) is not None


def test_the_api_refuses_a_ten_thousand_point_self_bonus_with_another_site_moderator(
    unnamed, moderator, other_moderator
):
    _, round_, _ = unnamed
    api = APIClient()
    api.force_authenticate(moderator)
    body = {"player": "mod", "points": 10_000, "reason": "I deserve it"}
    response = api.post(f"/api/rounds/{round_.pk}/bonus/", body, format="json")
    assert response.status_code == 403 and "Other Moderator" in response.json()["detail"]
    assert not BonusAward.objects.exists()


def test_the_league_page_does_not_offer_a_playing_moderator_the_declaration(
    unnamed, moderator, other_moderator, client, password
):
    league, _, _ = unnamed
    client.login(username=moderator.username, password=password)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert 'id="winners-refusal"' in page and "declare this league&#x27;s winners" in page
    assert "Other Moderator" in page and 'name="winners"' not in page
    client.logout()
    client.force_login(other_moderator)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert 'name="winners"' in page and 'id="winners-refusal"' not in page
