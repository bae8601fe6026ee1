"""The card page answers "can I play this in PHM?" first, and lists the public rounds whose own rules ban the
card or lift it from a standing list; drafts never show."""

import pytest

from rounds.models import RoundState
from tests.factories import LeagueFactory, RoundFactory

pytestmark = pytest.mark.django_db


def page(client, slug):
    response = client.get(f"/cards/{slug}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("slug", "headline", "kind"),
    [
        ("forest", "Legal in PHM", "legal"),
        ("sol-ring", "Legal in PHM", "legal"),
        ("force-of-will", "Banned in PHM: on the PHM Banned List (Disruption)", "phm_banned"),
        ("black-lotus", "Legal in PHM, but banned in rounds with a land rule", "land_rule_banned"),
        ("chaos-orb", "Not legal in PHM: banned in Vintage", "vintage_banned"),
        ("mox-poison", "Not legal in PHM: not legal in Vintage", "not_vintage_legal"),
    ],
)
def test_the_verdict_box_comes_first(client, catalog_index, slug, headline, kind):
    html = page(client, slug)
    assert f'<h2 id="verdict-title" class="h5 mb-1">{headline}</h2>' in html
    assert f"phm-verdict-{kind}" in html
    assert html.index('id="verdict-title"') < html.index('id="legality-title"')


def test_restricted_is_explained_as_legal(client, catalog_index):
    html = page(client, "sol-ring")
    assert "PHM has no restricted list" in html


def test_a_card_known_only_by_name_says_what_is_known(client, catalog_index):
    html = page(client, "aboleth-spawn")
    assert "only by its name and the sets it was printed in" in html


def test_rounds_that_banned_or_lifted_the_card(client, catalog_index):
    league = LeagueFactory()
    banned = RoundFactory(league=league, title="No Counterspells", extra_banned=["force of will"])
    final = RoundFactory(
        league=league, title="Old Bans", extra_banned=["Force of Will"], state=RoundState.FINAL
    )
    lifted = RoundFactory(league=league, title="Free Will", unbanned=["Force of Will"])
    draft = RoundFactory(
        league=league, title="Secret Draft", extra_banned=["Force of Will"], state=RoundState.DRAFT
    )
    RoundFactory(league=league, title="Unrelated Bans", extra_banned=["Mox Pearl"])
    html = page(client, "force-of-will")
    assert "Rounds that banned or lifted it" in html
    for round_ in (banned, final, lifted):
        assert f'href="/rounds/{round_.pk}/"' in html
    assert "Banned there" in html and "Lifted there" in html
    assert "Secret Draft" not in html and f'href="/rounds/{draft.pk}/"' not in html
    assert "Unrelated Bans" not in html


def test_a_ban_typed_as_a_face_name_counts(client, catalog_index):
    round_ = RoundFactory(title="No Split Cards", extra_banned=["Tear"])
    assert f'href="/rounds/{round_.pk}/"' in page(client, "wear-tear")


def test_no_rounds_section_when_no_round_names_the_card(client, catalog_index):
    RoundFactory(extra_banned=["Mox Pearl"])
    assert "Rounds that banned or lifted it" not in page(client, "forest")


@pytest.mark.parametrize("rounds", [1, 12])
def test_card_page_queries_do_not_grow_with_rounds(
    client, catalog_index, django_assert_max_num_queries, rounds
):
    league = LeagueFactory()
    for number in range(rounds):
        RoundFactory(
            league=league, extra_banned=["Force of Will"], unbanned=["Black Lotus"], title=f"R{number}"
        )
    client.get("/cards/force-of-will/")  # warm the catalog's per-process caches
    with django_assert_max_num_queries(8):
        html = page(client, "force-of-will")
    assert html.count("Banned there") == rounds
