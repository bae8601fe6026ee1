"""Withdrawing a bonus award: since a bonus can only be positive (6.2, 7.7a), a mistaken one is corrected by
withdrawing it — a moderator of the league, with a reason, audited; the award stays on record, marked, and
counts nowhere any more (standings, round table, exports, API, player pages)."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from archive.transfer import export_league
from audit.models import AuditEntry
from scoring.models import BonusAward
from scoring.services.bonus import award_bonus, withdraw_bonus
from scoring.services.errors import ScoringConflict, ScoringForbidden, ScoringInputError
from scoring.services.finalization import finalize_round
from scoring.standings import league_standings
from stats.player_selectors import player_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def awarded(revealed_round, moderator):
    """A revealed round of two hands and a mistaken +25 bonus for its first player."""
    round_, players = revealed_round(2)
    award = award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[0].username, points=25, reason="Typo"
    )
    return round_, players, award


def _withdraw(moderator, award, reason="Meant for someone else"):
    return withdraw_bonus(actor=moderator, award_id=award.pk, reason=reason)


def test_the_service_marks_the_award_withdrawn_and_keeps_it(awarded, moderator):
    _, _, award = awarded
    withdrawn = _withdraw(moderator, award)
    award.refresh_from_db()
    assert award.withdrawn and award.withdrawn_by == moderator and award.withdrawn_at is not None
    assert award.withdrawal_reason == "Meant for someone else"
    assert withdrawn.pk == award.pk
    assert BonusAward.objects.count() == 1 and not BonusAward.objects.counted().exists()


def test_it_is_audited_on_the_round(awarded, moderator):
    round_, players, award = awarded
    _withdraw(moderator, award, reason="Wrong player")
    entry = AuditEntry.objects.get(action="round.bonus_withdrawn")
    assert entry.actor == moderator and entry.note == "Wrong player"
    assert entry.object_id == round_.pk
    assert entry.before == {"player": players[0].username, "points": 25, "reason": "Typo"}


def test_a_reason_is_required(awarded, moderator):
    _, _, award = awarded
    for blank in ("", "   ", None):
        with pytest.raises(ScoringInputError) as raised:
            withdraw_bonus(actor=moderator, award_id=award.pk, reason=blank)
        assert "reason" in raised.value.errors
    award.refresh_from_db()
    assert not award.withdrawn and not AuditEntry.objects.filter(action="round.bonus_withdrawn").exists()


def test_only_a_moderator_of_the_league_can_withdraw(awarded, other_moderator):
    _, players, award = awarded
    for someone in (players[0], players[1], other_moderator):
        with pytest.raises(ScoringForbidden):
            withdraw_bonus(actor=someone, award_id=award.pk, reason="Mine")
    award.refresh_from_db()
    assert not award.withdrawn


def test_twice_is_a_conflict_and_keeps_the_first_reason(awarded, moderator):
    _, _, award = awarded
    _withdraw(moderator, award, reason="First")
    with pytest.raises(ScoringConflict, match="already withdrawn: First"):
        _withdraw(moderator, award, reason="Second")
    award.refresh_from_db()
    assert award.withdrawal_reason == "First"
    assert AuditEntry.objects.filter(action="round.bonus_withdrawn").count() == 1


def test_a_final_round_follows_the_awarding_rule(awarded, moderator):
    """Bonus is kept apart from the frozen table and can be awarded after finalization: so can it be withdrawn."""
    round_, _, award = awarded
    finalize_round(actor=moderator, round_id=round_.pk, force=True)
    _withdraw(moderator, award)
    assert league_standings(round_.league).rows[0].bonus_points == 0


def test_the_database_wants_a_complete_withdrawal(awarded, moderator):
    _, _, award = awarded
    with pytest.raises(IntegrityError), transaction.atomic():
        BonusAward.objects.filter(pk=award.pk).update(withdrawn_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():
        BonusAward.objects.filter(pk=award.pk).update(
            withdrawn_at=timezone.now(), withdrawn_by=moderator, withdrawal_reason=""
        )


def test_it_stops_counting_everywhere(awarded, moderator, client, api_client):
    round_, players, award = awarded
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[0].username, points=3, reason="Right one"
    )

    def figures():
        standing = next(row for row in league_standings(round_.league).rows if row.player == players[0])
        table = api_client.get(f"/api/rounds/{round_.pk}/table/").json()
        in_table = next(row for row in table if row["player"] == players[0].username)
        in_api = next(
            row
            for row in api_client.get(f"/api/leagues/{round_.league_id}/standings/").json()
            if row["player"] == players[0].username
        )
        (total,) = player_page(players[0]).leagues
        return standing.bonus_points, in_table["bonus_points"], in_api["bonus_points"], total.bonus_points

    assert figures() == (28, 28, 28, 28)
    _withdraw(moderator, award)
    assert figures() == (3, 3, 3, 3)
    standing = next(row for row in league_standings(round_.league).rows if row.player == players[0])
    assert standing.bonus_reasons == [f"{round_.code}: +3 (Right one)"]
    csv = client.get(f"/leagues/{round_.league_id}/export/standings.csv").content.decode()
    rows = [f",{line}," for line in csv.splitlines()[1:]]  # the header names rounds by code, ids and all
    assert ",3," in rows[0] and not any(",28," in row for row in rows)
    bbcode = client.get(f"/leagues/{round_.league_id}/export/standings.bbcode").content.decode()
    assert "Typo" not in bbcode and "Right one" in bbcode
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "+28" not in results and "+3" in results


def test_the_league_export_keeps_the_withdrawal(awarded, moderator):
    round_, _, award = awarded
    _withdraw(moderator, award, reason="Wrong player")
    document = export_league(round_.league_id)
    (row,) = next(r for r in document["rounds"] if r["number"] == round_.number)["bonus_awards"]
    assert (row["points"], row["withdrawn_by"], row["withdrawal_reason"]) == (25, "mod", "Wrong player")
    assert row["withdrawn_at"] and "mod" in {user["username"] for user in document["users"]}


# API: DELETE /api/rounds/<id>/bonus/<award id>/ with {"reason"}


def _url(round_id, award_id):
    return f"/api/rounds/{round_id}/bonus/{award_id}/"


def test_api_withdraws_with_a_reason(awarded, moderator, api_client):
    round_, _, award = awarded
    api_client.force_authenticate(moderator)
    response = api_client.delete(_url(round_.pk, award.pk), {"reason": "Wrong player"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["id"] == award.pk and body["withdrawn"] is True
    assert (body["withdrawn_by"], body["withdrawal_reason"]) == ("mod", "Wrong player")
    again = api_client.delete(_url(round_.pk, award.pk), {"reason": "Again"}, format="json")
    assert again.status_code == 409 and "already withdrawn" in again.json()["detail"]


def test_a_new_award_says_it_is_not_withdrawn(revealed_round, moderator, api_client):
    round_, players = revealed_round(2)
    api_client.force_authenticate(moderator)
    body = {"player": players[0].username, "points": 4, "reason": "7.7"}
    created = api_client.post(f"/api/rounds/{round_.pk}/bonus/", body, format="json").json()
    assert (created["withdrawn"], created["withdrawn_at"], created["withdrawn_by"]) == (False, None, None)


def test_api_without_a_reason_is_a_400(awarded, moderator, api_client):
    round_, _, award = awarded
    api_client.force_authenticate(moderator)
    for body in ({}, {"reason": ""}, {"reason": "  "}):
        response = api_client.delete(_url(round_.pk, award.pk), body, format="json")
        assert response.status_code == 400 and "reason" in response.json(), response.content
    award.refresh_from_db()
    assert not award.withdrawn


def test_api_an_award_of_another_round_is_a_404(awarded, revealed_round, moderator, api_client):
    round_, _, award = awarded
    other, _ = revealed_round(2)
    api_client.force_authenticate(moderator)
    body = {"reason": "x"}
    assert api_client.delete(_url(other.pk, award.pk), body, format="json").status_code == 404
    assert api_client.delete(_url(round_.pk, award.pk + 1000), body, format="json").status_code == 404
    award.refresh_from_db()
    assert not award.withdrawn


def test_api_a_non_moderator_is_refused(awarded, other_moderator, api_client):
    round_, players, award = awarded
    body = {"reason": "Mine"}
    assert api_client.delete(_url(round_.pk, award.pk), body, format="json").status_code in (401, 403)
    for someone in (players[0], other_moderator):
        api_client.force_authenticate(someone)
        assert api_client.delete(_url(round_.pk, award.pk), body, format="json").status_code == 403
    award.refresh_from_db()
    assert not award.withdrawn


# The moderator's page


def test_page_lists_awards_with_a_withdraw_form_and_shows_withdrawn_ones_struck(awarded, moderator, client):
    round_, _, award = awarded
    client.force_login(moderator)
    page = f"/moderate/rounds/{round_.pk}/results/"
    html = client.get(page).content.decode()
    assert 'value="withdraw_bonus"' in html and f'name="award" value="{award.pk}"' in html
    assert "Withdraw</button>" in html and "csrfmiddlewaretoken" in html

    missing = client.post(page, {"action": "withdraw_bonus", "award": award.pk, "reason": ""})
    assert (
        missing.status_code == 200 and "Give the reason for withdrawing the bonus" in missing.content.decode()
    )
    award.refresh_from_db()
    assert not award.withdrawn

    done = client.post(page, {"action": "withdraw_bonus", "award": award.pk, "reason": "Wrong player"})
    assert done.status_code == 302
    award.refresh_from_db()
    assert award.withdrawn
    html = client.get(page).content.decode()
    assert "<s " in html and "Withdrawn</span>" in html and "Wrong player" in html
    assert f'name="award" value="{award.pk}"' not in html  # no second Withdraw button


def test_page_refuses_an_unknown_award(awarded, revealed_round, moderator, client):
    _, _, award = awarded
    other, _ = revealed_round(2)
    client.force_login(moderator)
    for bad in ("x", award.pk):  # not a number; an award of another round
        response = client.post(
            f"/moderate/rounds/{other.pk}/results/", {"action": "withdraw_bonus", "award": bad, "reason": "r"}
        )
        assert response.status_code == 200 and "No such bonus award" in response.content.decode()
    award.refresh_from_db()
    assert not award.withdrawn
