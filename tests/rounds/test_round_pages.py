from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from rounds.bbcode import announcement
from rounds.models import RoundState
from rounds.services import lifecycle as services
from submissions.models import Hand
from tests.factories import RoundFactory

pytestmark = pytest.mark.django_db


# Deadlines are at most a year ahead of the moment they are set: the 2099 round is set "in" December 2098.
SET_AT = datetime(2098, 12, 20, 12, 0, tzinfo=UTC)


@pytest.fixture
def alphabetized(league, moderator):
    return services.create_round(
        actor=moderator,
        league=league,
        now=SET_AT,
        open_now=True,
        title="5 Card Alphabetized",
        hand_size=5,
        land_rule="LR",
        life_rule=True,
        sanctioned_format="modern",
        extra_banned=["Mox Pearl", "Wear // Tear"],
        format_rule="Each player can't play cards unless their names are the **lowest alphabetically**.\n\n"
        "<script>alert('x')</script>",
        bonus_rule="+10 League points for a hand with no lands.",
        deadline=datetime(2099, 1, 5, 18, 0, tzinfo=UTC),
    )


def test_round_page_lists_the_rules_in_order(client, alphabetized):
    page = client.get(alphabetized.get_absolute_url()).content.decode()
    order = [
        "Hand size",
        "5 cards exactly",
        "Land rule",
        "Land Rule (LR)",
        "Variants",
        "Sanctioned format (7.4): Modern",
        "Life Rule (7.5)",
        "Bonus points (7.7)",
        "Format rule",
        "lowest alphabetically",
        "Banned cards",
        "PHM Banned List",
        "Force of Will",
        "Land Rule Banned List",
        "Black Lotus",
        "Additional bans for this round",
        "Mox Pearl",
        "Wear // Tear",
    ]
    position = 0
    for text in order:  # each one after the one before it
        found = page.find(text, position)
        assert found >= 0, f"{text!r} missing or out of order"
        position = found + len(text)
    assert "Mon 5 Jan 2099, 18:00 UTC" in page
    assert 'data-countdown="2099-01-05T18:00:00+00:00"' in page
    assert 'href="/rules/"' in page
    assert "0 hands submitted" in page


def test_format_rule_markdown_escapes_html(client, alphabetized):
    page = client.get(alphabetized.get_absolute_url()).content.decode()
    assert "<strong>lowest alphabetically</strong>" in page
    assert "&lt;script&gt;alert" in page
    assert "<script>alert('x')</script>" not in page


def test_hand_count_is_a_number_only(client, alphabetized, make_user):
    Hand.objects.create(round=alphabetized, player=make_user("zz_alice", forum_username="ForumAlice"))
    Hand.objects.create(round=alphabetized, player=make_user("zz_bob"))
    for viewer in [None, make_user("zz_carol")]:
        if viewer:
            client.force_login(viewer)
        page = client.get(alphabetized.get_absolute_url()).content.decode()
        assert "2 hands submitted" in page
        for secret in ["zz_alice", "ForumAlice", "zz_bob"]:
            assert secret not in page


def test_announcement_bbcode(client, alphabetized):
    response = client.get(f"/rounds/{alphabetized.pk}/export/announcement.bbcode")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    assert text.startswith("[size=5][b]45:01 — 5 Card Alphabetized[/b][/size]\n")
    assert "[b]Deck Size:[/b] 5" in text
    assert "[b]Land Rule:[/b] LR — basic land rule (7.3a); the Land Rule Banned List applies" in text
    assert (
        "[b]Additional Banned list:[/b] Mox Pearl / Wear // Tear (please remember to check the regular PHM Banned List and the Land Rule Banned List)"
        in text
    )
    assert "[b]Deadline:[/b] Monday 5 January 2099, 18:00 UTC" in text
    assert f"[url=http://testserver/rounds/{alphabetized.pk}/]" in text
    assert "[b]Sanctioned format (7.4):[/b] Modern" in text
    # The format rule's Markdown becomes the forum's BBCode.
    assert "names are the [b]lowest alphabetically[/b]." in text


def test_announcement_without_extras_reminds_of_the_phm_list(league):
    round_ = RoundFactory(league=league, title="3 Card Vintage", hand_size=3)
    text = announcement(round_, "https://phm.example/rounds/1/")
    assert (
        "[b]Additional Banned list:[/b] None (please remember to check the regular PHM Banned List)" in text
    )
    assert "[b]Land Rule:[/b] None" in text


def test_rounds_list_groups_by_visible_state(client, league):
    now = timezone.now()
    RoundFactory(league=league, title="Open one", deadline=now + timedelta(days=1))
    RoundFactory(league=league, title="Past deadline", deadline=now - timedelta(hours=1))
    RoundFactory(league=league, title="Finished", deadline=now - timedelta(days=9), state=RoundState.FINAL)
    page = client.get("/rounds/").content.decode()
    open_part = page[page.index("Open for hands") : page.index("Revealed — results")]
    revealed_part = page[page.index("Revealed — results") : page.index(">Final<")]
    final_part = page[page.index(">Final<") :]
    assert "Open one" in open_part and "data-countdown" in open_part
    assert "Past deadline" in revealed_part
    assert "Finished" in final_part


def test_rules_page_renders_the_rules_text(client):
    page = client.get("/rules/").content.decode()
    assert '<section id="section-3"' in page
    assert 'id="rule-7-3"' in page
    assert "A hand may contain any number of copies of any card legal in Vintage." in page
    assert "Card catalog as of" in page


def test_round_list_and_page_queries_do_not_grow(
    catalog_index, client, league, player, make_user, django_assert_max_num_queries
):
    def populate(count, offset):
        for n in range(count):
            round_ = RoundFactory(league=league, deadline=timezone.now() + timedelta(days=n - 2))
            for m in range(3):
                Hand.objects.create(round=round_, player=make_user(f"p{offset}-{n}-{m}"))
        return round_

    sample = populate(3, 0)
    # Counts are read straight away: the next request resets Django's query log.
    with django_assert_max_num_queries(3) as few:
        client.get("/rounds/")
    list_queries = len(few.captured_queries)
    # Round, entries, hands and their versions, the accepted cards, the public history.
    with django_assert_max_num_queries(8) as few:
        client.get(sample.get_absolute_url())
    page_queries = len(few.captured_queries)
    populate(12, 1)
    with django_assert_max_num_queries(list_queries):
        client.get("/rounds/")
    with django_assert_max_num_queries(page_queries):
        client.get(sample.get_absolute_url())


def test_moderator_page_shows_the_history_readably(client, moderator, alphabetized):
    services.extend_deadline(
        actor=moderator,
        round_id=alphabetized.pk,
        now=SET_AT,
        new_deadline=alphabetized.deadline + timedelta(days=1),
    )
    client.force_login(moderator)
    page = client.get(f"/moderate/rounds/{alphabetized.pk}/").content.decode()
    for text in [
        "Deadline extended",
        "Round opened",
        "Round created",
        "Extra bans",
        "Mox Pearl / Wear // Tear",
    ]:
        assert text in page
    assert page.index("Deadline extended") < page.index("Round opened") < page.index("Round created")
    assert "Mon 5 Jan 2099, 18:00 UTC" in page and "Tue 6 Jan 2099, 18:00 UTC" in page


def test_markdown_to_bbcode_covers_what_moderators_write():
    from rounds.markdown import markdown_to_bbcode

    text = "Play **fast**, *think*.\n\nSee [the rules](https://phm.example/rules/).\n\n- one\n- two `Black Lotus`"
    assert markdown_to_bbcode(text) == (
        "Play [b]fast[/b], [i]think[/i].\n\n"
        "See [url=https://phm.example/rules/]the rules[/url].\n\n"
        "[list]\n[*]one\n[*]two [font=monospace]Black Lotus[/font]\n[/list]"
    )
