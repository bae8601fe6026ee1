"""An imported round's rules: the forum post only described them, so a moderator may set them right
after the import whatever the round's state (audited), and choose whether it counts in the standings; its
deadline is history, set right too; what the hands were entered with stays locked. Rounds played here keep
their rules once submissions ended."""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEntry
from rounds.models import Round, RoundState
from rounds.services.errors import RoundConflict
from rounds.services.lifecycle import update_round
from tests.factories import RoundFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(league):
    return RoundFactory(
        league=league,
        state=RoundState.FINAL,
        deadline=timezone.now() - timedelta(days=400),
        imported_fingerprint="a" * 64,
        title="Forum round",
    )


@pytest.fixture
def played_here(league):
    return RoundFactory(league=league, state=RoundState.REVEALED, deadline=timezone.now() - timedelta(days=1))


def test_imported_final_round_gets_its_described_rules_and_archive_flag(imported, moderator, catalog_index):
    update_round(
        actor=moderator,
        round_id=imported.pk,
        now=timezone.now(),
        changes={
            "title": "5 Card Land Rule",
            "land_rule": "LR",
            "extra_banned": ["mishras workshop"],
            "commentary": "As the host wrote it.",
            "counts_in_standings": False,
        },
    )
    imported.refresh_from_db()
    assert (imported.title, imported.land_rule, imported.extra_banned, imported.counts_in_standings) == (
        "5 Card Land Rule", "LR", ["Mishra's Workshop"], False,
    )  # fmt: skip
    assert imported.state == RoundState.FINAL
    entry = AuditEntry.objects.get(action="round.changed", object_id=imported.pk)
    assert entry.before["land_rule"] == "none" and entry.after["land_rule"] == "LR"
    assert entry.after["counts_in_standings"] is False and "imported" in entry.note


@pytest.mark.parametrize(
    "changes",
    [{"hand_size": 3}, {"hand_size_mode": "up_to"}, {"card_rules": []}, {"title": "x", "decisions": []}],
)
def test_what_the_hands_were_entered_with_stays_locked(imported, moderator, changes):
    with pytest.raises(RoundConflict, match="imported from the forum") as error:
        update_round(actor=moderator, round_id=imported.pk, now=timezone.now(), changes=changes)
    assert sorted(changes)[0] in str(error.value)
    assert Round.objects.get(pk=imported.pk).title == "Forum round"  # nothing saved


def test_round_played_here_cannot_become_archive_only(played_here, moderator, league):
    for round_ in (played_here, RoundFactory(league=league)):  # revealed, open
        with pytest.raises(RoundConflict, match="Only a round imported from the forum"):
            update_round(
                actor=moderator,
                round_id=round_.pk,
                now=timezone.now(),
                changes={"counts_in_standings": False},
            )
    with pytest.raises(RoundConflict, match="Submissions for this round have ended"):
        update_round(actor=moderator, round_id=played_here.pk, now=timezone.now(), changes={"title": "Late"})


def test_api_patch_of_an_imported_round(api_client, moderator, imported, played_here):
    api_client.force_authenticate(moderator)
    response = api_client.patch(
        f"/api/rounds/{imported.pk}/", {"land_rule": "LR", "counts_in_standings": False}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["land_rule"], body["counts_in_standings"], body["imported"]) == ("LR", False, True)
    response = api_client.patch(f"/api/rounds/{imported.pk}/", {"hand_size": 3}, format="json")
    assert response.status_code == 409 and "hand_size" in response.json()["detail"]
    response = api_client.patch(
        f"/api/rounds/{played_here.pk}/", {"counts_in_standings": False}, format="json"
    )
    assert response.status_code == 409 and "imported" in response.json()["detail"]
    assert api_client.get(f"/api/rounds/{played_here.pk}/").json()["imported"] is False
    response = api_client.patch(
        f"/api/rounds/{imported.pk}/", {"counts_in_standings": "maybe"}, format="json"
    )
    assert response.status_code == 400


def test_api_create_refuses_an_archive_only_round(api_client, moderator, league):
    api_client.force_authenticate(moderator)
    body = {
        "league": league.pk,
        "title": "New",
        "hand_size": 5,
        "deadline": (timezone.now() + timedelta(days=2)).isoformat(),
        "counts_in_standings": False,
    }
    response = api_client.post("/api/rounds/", body, format="json")
    assert response.status_code == 409 and not Round.objects.filter(title="New").exists()


def test_edit_page_of_an_imported_round(client, moderator, imported, played_here):
    client.force_login(moderator)
    page = client.get(f"/moderate/rounds/{imported.pk}/edit/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Counts in the league" in html and "As imported from the forum." in html
    form = page.context["form"]
    assert form.fields["hand_size"].disabled and not form.fields["deadline"].disabled
    assert not form.fields["land_rule"].disabled and not form.fields["title"].disabled
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    data.update(title="Fixed title", land_rule="LR", deadline="2020-01-01 10:00", hand_size=9)
    data.pop("counts_in_standings")  # unticked: archive only
    response = client.post(f"/moderate/rounds/{imported.pk}/edit/", data)
    assert response.status_code == 302
    imported.refresh_from_db()
    assert (imported.title, imported.land_rule, imported.counts_in_standings) == ("Fixed title", "LR", False)
    assert imported.hand_size == 5  # locked: the posted value is ignored
    assert imported.deadline.year == 2020  # the deadline it had, set right
    # A round played here, once submissions ended, still cannot be edited (nor offers the archive flag).
    response = client.get(f"/moderate/rounds/{played_here.pk}/edit/")
    assert response.status_code == 302


def test_land_rule_set_right_brings_the_land_rule_list(imported, moderator):
    from rounds.services.effective_banned import effective_banned_entries, standing_banned_entries

    standing = standing_banned_entries()
    assert standing.get("land-rule"), "the initial data has a Land Rule Banned List"
    imported.banned_snapshot = list(standing["phm"])  # as taken for a round played without a land rule
    imported.save(update_fields=["banned_snapshot"])
    assert not any(entry["list"] == "land-rule" for entry in effective_banned_entries(imported))
    update_round(actor=moderator, round_id=imported.pk, now=timezone.now(), changes={"land_rule": "LR"})
    imported.refresh_from_db()
    lists = [entry["list"] for entry in effective_banned_entries(imported)]
    assert lists.count("land-rule") == len(standing["land-rule"]) and lists[0] == "phm"
    update_round(actor=moderator, round_id=imported.pk, now=timezone.now(), changes={"land_rule": "none"})
    imported.refresh_from_db()
    assert "land-rule" not in {entry["list"] for entry in effective_banned_entries(imported)}
