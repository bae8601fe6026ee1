"""A correction reply from the forum applied to an imported round, on the page and in the API."""

import pytest
from django.urls import reverse

from archive.forum.post_import.write import import_post
from rounds.models import RoundState
from scoring.models import Match
from submissions.models import Hand, HandReview
from tests.archive.test_post_import import GOBLIN_POST, NOW, TABLE

CORRECTION = """[quote=TheHost]Hands posted[/quote]
Sorry, I copied Mogg's hand wrong. It should have been:

[b]03 Mogg :: "Kiki Bolt"[/b]
Kiki-Jiki, Mirror Breaker / Mountain / Mox Ruby / Fireblast
"""


@pytest.fixture
def imported(moderator, league31, superbajt):
    return import_post(
        actor=moderator,
        league=league31,
        post=GOBLIN_POST,
        table=TABLE,
        players={"Suberbajt": "Superbajt"},
        now=NOW,
    ).round


def api(client, round_, post, dry_run=False):
    url = reverse("api-round-corrections", args=[round_.pk])
    return client.post(url, {"post": post, "dry_run": dry_run}, content_type="application/json")


def current_cards(round_, number):
    hand = Hand.objects.get(round=round_, number=number)
    return hand.name, hand.versions.get(is_current=True).cards


def test_preview_then_apply_keeps_the_final_results(client, moderator, imported):
    client.force_login(moderator)
    results_before = list(Match.objects.filter(round=imported).values_list("points_a", "points_b"))
    preview = api(client, imported, CORRECTION, dry_run=True)
    assert preview.status_code == 200
    entry = preview.json()["entries"][0]
    assert (entry["number"], entry["name"], entry["changed"]) == (3, "Kiki Bolt", True)
    assert entry["old_cards"][-1] == "Lightning Bolt" and entry["cards"][-1] == "Fireblast"
    assert current_cards(imported, 3)[1][-1] == "Lightning Bolt"  # a preview saves nothing

    applied = api(client, imported, CORRECTION)
    assert applied.status_code == 201 and applied.json()["applied"] == [3]
    assert current_cards(imported, 3) == (
        "Kiki Bolt",
        ["Kiki-Jiki, Mirror Breaker", "Mountain", "Mox Ruby", "Fireblast"],
    )
    review = HandReview.objects.get(hand__round=imported, hand__number=3)
    assert "copied Mogg's hand wrong" in review.message
    imported.refresh_from_db()
    assert imported.state == RoundState.FINAL
    assert list(Match.objects.filter(round=imported).values_list("points_a", "points_b")) == results_before


def test_unknown_cards_and_missing_entries_save_nothing(client, moderator, imported):
    client.force_login(moderator)
    typo = api(client, imported, CORRECTION.replace("Fireblast", "Fireblastt"))
    assert typo.status_code == 400
    problem = typo.json()["problems"][0]
    assert problem["code"] == "unknown_card" and "Fireblast" in problem["suggestions"]
    missing = api(client, imported, CORRECTION.replace("03 Mogg", "07 Mogg"))
    assert missing.status_code == 400 and missing.json()["problems"][0]["code"] == "no_such_entry"
    someone_else = api(client, imported, CORRECTION.replace("03 Mogg", "03 nerdyjoe"))
    assert someone_else.json()["problems"][0]["code"] == "other_player"
    assert current_cards(imported, 3)[1][-1] == "Lightning Bolt"


def test_only_imported_rounds_and_only_their_moderators(
    client, moderator, make_user, imported, revealed_round
):
    client.force_login(moderator)
    played_here, _ = revealed_round(2)
    assert api(client, played_here, CORRECTION).status_code == 409
    client.force_login(make_user("someone"))
    assert api(client, imported, CORRECTION).status_code == 404
    assert client.get(reverse("archive:correction", args=[imported.pk])).status_code == 403


def test_the_page_previews_and_applies(client, moderator, imported):
    client.force_login(moderator)
    url = reverse("archive:correction", args=[imported.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Apply a correction post" in page.content.decode()
    preview = client.post(url, {"post": CORRECTION, "action": "preview"})
    html = preview.content.decode()
    assert "Ready: 1 entry to correct." in html and "Fireblast" in html and "Lightning Bolt" in html
    done = client.post(url, {"post": CORRECTION, "action": "apply"})
    assert done.status_code == 302 and done["Location"] == imported.get_absolute_url()
    assert current_cards(imported, 3)[0] == "Kiki Bolt"
    manage = client.get(reverse("scoring:moderate", args=[imported.pk]))
    assert url in manage.content.decode()
