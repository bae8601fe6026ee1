"""My PHM: who sees what on the home page, how it changes, and that its queries stay bounded."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import services as account_services
from home.moderator_home import moderator_home
from outbox.models import Message
from rounds.services import leagues as round_services
from rounds.services import lifecycle as round_lifecycle
from scoring.models import Match
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match, report_row
from scoring.standings import league_standings, standings_of_leagues
from stats.player_selectors import player_page
from submissions import selectors as hand_selectors
from submissions.models import Hand, HandVersion
from submissions.services.preview import declare_not_playing
from submissions.services.review import review_hand
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand
from tests.home.conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db

MARKETING = "Perfect Hand Magic, without the spreadsheet"


def home(client, user, password):
    client.logout()
    client.login(username=user.username, password=password)
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def _challenge(challenger, match, reason="Look again"):
    """A challenge needs a result to challenge: the match's first player reports one first."""
    match = Match.objects.select_related("hand_a").get(pk=match.pk)
    report_match(reporter=match.hand_a.player, match_id=match.pk, points_a=6, points_b=0)
    return challenge_match(challenger=challenger, match_id=match.pk, reason=reason)


def section(html, start_id, end_marker="</section>"):
    start = html.index(f'id="{start_id}"')
    return html[start : html.index(end_marker, start)]


# Anonymous and logging in ------------------------------------------------------------------------------------


def test_anonymous_visitors_get_the_marketing_page(client, open_round):
    open_round()
    response = client.get("/")
    html = response.content.decode()
    assert MARKETING in html
    assert "My PHM" not in html
    assert "Not submitted" not in html


def test_a_logged_in_player_gets_my_phm_instead_and_it_is_never_cached(client, player, password):
    html = home(client, player, password)
    assert "My PHM" in html and MARKETING not in html
    response = client.get("/")
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_logging_in_lands_on_my_phm_and_next_still_wins(client, player, password):
    response = client.post("/accounts/login/", {"username": "player", "password": password})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "My PHM" in client.get(response["Location"]).content.decode()
    client.logout()
    response = client.post("/accounts/login/?next=/rounds/", {"username": "player", "password": password})
    assert response["Location"] == "/rounds/"
    client.logout()
    response = client.post(
        "/accounts/login/", {"username": "player", "password": password, "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_empty_states_read_well(client, player, password):
    html = home(client, player, password)
    assert "No round is open for you right now." in html
    assert "Nothing needs you right now." in html
    assert "No results yet." in html
    assert "To do as a moderator" not in html  # a player has no to-do list


# Open rounds ------------------------------------------------------------------------------------------------


def test_open_round_status_changes_after_submitting_and_changing(client, player, password, open_round):
    round_ = open_round()
    html = section(home(client, player, password), "open-title")
    assert "Not submitted" in html
    assert f'href="/rounds/{round_.pk}/my-hand/"' in html and "Submit" in html
    assert f'data-countdown="{round_.deadline.isoformat()}"' in html
    assert (
        f'<time class="badge text-bg-success phm-countdown" datetime="{round_.deadline.isoformat()}"' in html
    )

    submit_hand(
        player=player,
        round_id=round_.pk,
        name="The Might of Kjeld",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
    )
    html = section(home(client, player, password), "open-title")
    assert "Submitted — version 1" in html and "The Might of Kjeld" in html
    assert "Not submitted" not in html and "Change" in html

    submit_hand(
        player=player,
        round_id=round_.pk,
        name="Kjeld again",
        cards=KJELD[::-1],
        attested=EVERY_LISTED_RULE,
    )
    html = section(home(client, player, password), "open-title")
    assert "Submitted — version 2" in html and "Kjeld again" in html


def test_deadlines_show_in_the_players_time_zone_and_utc(client, make_user, password, open_round):
    round_ = open_round()
    tokyo = make_user("tokyo", time_zone="Asia/Tokyo")
    html = section(home(client, tokyo, password), "open-title")
    assert "JST" in html and "UTC)" in html
    assert round_.code in html


def test_player_a_never_sees_player_b_before_the_deadline(client, player, make_user, password, open_round):
    round_ = open_round()
    rival = make_user("rival", forum_username="nerdyjoe")
    before = section(home(client, player, password), "open-title")
    submit_hand(
        player=rival,
        round_id=round_.pk,
        name="Scepter Tricks",
        cards=SCEPTER,
        attested=EVERY_LISTED_RULE,
    )
    html = home(client, player, password)
    assert "Scepter Tricks" not in html and "nerdyjoe" not in html and "rival" not in html
    assert "Not submitted" in section(html, "open-title")
    # Nothing on the player's page moved because someone else entered (the countdown's text aside).
    strip = lambda text: text.split("phm-countdown")[0]  # noqa: E731
    assert strip(section(html, "open-title")) == strip(before)
    rival_html = section(home(client, rival, password), "open-title")
    assert "Submitted — version 1" in rival_html and "Scepter Tricks" in rival_html


def test_open_round_status_shows_the_owners_decisions_to_the_owner_only(
    client, player, make_user, password, open_round
):
    """Rule 7.2b: the owner sees their own answers on My PHM; another player and an anonymous visitor never."""
    decisions = [
        {"key": "tribe", "label": "Creature type", "kind": "choice", "choices": ["Goblin", "Elf"]},
        {"key": "motto", "label": "Motto", "kind": "text"},
    ]
    round_ = open_round(decisions=decisions)
    rival = make_user("rival")
    secret = "Platypus Overture Three"
    submit_hand(
        player=player,
        round_id=round_.pk,
        name="Kjeld",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
        decisions={"tribe": "Elf", "motto": secret},
    )
    html = section(home(client, player, password), "open-title")
    assert "Creature type: <span" in html and f'Motto: <span class="text-body">{secret}</span>' in html
    assert html.index("Creature type") < html.index("Motto")
    assert secret not in home(client, rival, password)
    client.logout()
    assert secret not in client.get("/").content.decode()


def test_tiebreak_rounds_only_for_eligible_players(client, player, make_user, password, league, open_round):
    outsider = make_user("outsider")
    round_ = open_round(title="Tie-break")
    round_.tiebreak = True
    round_.save(update_fields=["tiebreak"])
    round_.eligible_players.set([player])
    assert "Tie-break" in section(home(client, player, password), "open-title")
    assert "Tie-break" not in home(client, outsider, password)
    round_.eligible_players.clear()  # nobody named: anyone
    assert "Tie-break" in section(home(client, outsider, password), "open-title")


def test_a_moderator_who_saw_the_hands_is_not_offered_the_round(client, moderator, password, open_round):
    round_ = open_round()
    assert f"/rounds/{round_.pk}/my-hand/" in home(client, moderator, password)
    declare_not_playing(moderator=moderator, round_id=round_.pk)
    assert f"/rounds/{round_.pk}/my-hand/" not in home(client, moderator, password)


def test_rounds_past_their_deadline_or_drafts_are_not_open(
    client, player, password, open_round, league, moderator
):
    round_ = open_round()
    submit_hand(player=player, round_id=round_.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE)
    round_lifecycle.create_round(
        actor=moderator,
        league=league,
        now=timezone.now(),
        title="A draft",
        hand_size=5,
        deadline=timezone.now() + timedelta(days=3),
    )
    type(round_).objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    html = home(client, player, password)
    assert "A draft" not in html
    assert "No round is open for you right now." in html


# Results that need the player --------------------------------------------------------------------------------


def test_matches_needing_a_result_are_listed_and_go_away_once_reported(
    client, player, make_players, password, revealed_round
):
    others = make_players(3)
    round_ = revealed_round([player, *others])
    html = section(home(client, player, password), "needs-title")
    assert "3 matches of your hand 01 need your result" in html
    assert f'href="/rounds/{round_.pk}/results/#row-title"' in html and "Score your whole row" in html
    mine = list(Match.objects.filter(round=round_, hand_a__player=player).order_by("hand_b__number"))
    for match in mine:
        assert f'href="/matches/{match.pk}/"' in html
    # The opponent's report does not count as the player's.
    report_match(reporter=others[0], match_id=mine[0].pk, points_a=6, points_b=0)
    assert "3 matches" in section(home(client, player, password), "needs-title")
    report_match(reporter=player, match_id=mine[0].pk, points_a=6, points_b=0)
    html = section(home(client, player, password), "needs-title")
    assert "2 matches of your hand 01 need your result" in html
    assert f'href="/matches/{mine[0].pk}/"' not in html
    report_row(player=player, round_id=round_.pk, row="1 | X 6 4 2 | PT | Points")
    html = section(home(client, player, password), "needs-title")
    assert "Nothing needs you right now." in html


def test_finalized_rounds_need_nothing(client, player, make_players, moderator, password, revealed_round):
    round_ = revealed_round([player, *make_players(2)])
    finalize_round(actor=moderator, round_id=round_.pk)
    assert "Nothing needs you right now." in section(home(client, player, password), "needs-title")


def test_disputes_and_challenges_involving_the_player(client, player, make_players, password, revealed_round):
    rival, bystander, stranger = make_players(3)
    round_ = revealed_round([player, rival, bystander, stranger])
    match = Match.objects.get(round=round_, hand_a__player=player, hand_b__player=rival)
    report_match(reporter=player, match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=rival, match_id=match.pk, points_a=0, points_b=6)
    other = Match.objects.get(round=round_, hand_a__player=bystander, hand_b__player=stranger)
    _challenge(player, other, "That hand cannot win")

    html = section(home(client, player, password), "needs-title")
    assert "is disputed: your reports differ" in html and f'href="/matches/{match.pk}/"' in html
    assert "challenged by you" in html and f'href="/matches/{other.pk}/"' in html
    html = section(home(client, stranger, password), "needs-title")
    assert "challenged by Player One" in html
    assert "is disputed" not in html  # not the stranger's match


# Latest results and league positions -------------------------------------------------------------------------


def test_latest_results_and_league_positions_come_from_scoring(
    client, player, make_players, moderator, password, revealed_round
):
    others = make_players(2)
    round_ = revealed_round([player, *others])
    report_row(player=player, round_id=round_.pk, row="1 | X 6 4 | PT | Points")
    finalize_round(actor=moderator, round_id=round_.pk)
    entry = player_page(player).entries[-1]
    row = next(row for row in league_standings(round_.league).rows if row.player == player)

    html = home(client, player, password)
    latest = section(html, "latest-title")
    assert round_.code in latest
    assert f'<td class="text-end">{entry.points}</td>' in latest
    assert f'<td class="text-end fw-semibold">{entry.league_points}</td>' in latest
    assert f"{entry.rank}<span" in latest
    positions = section(html, "positions-title")
    assert "League 45" in positions and f"#{row.rank}" in positions
    assert f"{row.league_points} League points" in positions


def test_open_rounds_count_nowhere_in_results(client, player, make_players, password, open_round):
    round_ = open_round()
    submit_hand(player=player, round_id=round_.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE)
    html = home(client, player, password)
    assert "No results yet." in html and "No position yet" in html


def test_standings_of_several_leagues_match_league_standings(
    player, make_players, moderator, league, revealed_round
):
    second = round_services.create_league(actor=moderator, name="League 46", moderators=[moderator])
    others = make_players(3)
    first_round = revealed_round([player, *others])
    report_row(player=player, round_id=first_round.pk, row="1 | X 6 4 2 | PT | Points")
    revealed_round([others[0], player, others[2]], league=second)
    both = standings_of_leagues([league, second])
    for each in (league, second):
        alone = league_standings(each)
        assert [(r.player.pk, r.rank, r.league_points) for r in both[each.pk].rows] == [
            (r.player.pk, r.rank, r.league_points) for r in alone.rows
        ]
        assert both[each.pk].rounds == alone.rounds


# Moderators --------------------------------------------------------------------------------------------------


@pytest.fixture
def two_moderator_league(moderator, other_moderator):
    return round_services.create_league(
        actor=moderator, name="League 47", moderators=[moderator, other_moderator]
    )


def _flag(actor, hand, message="Karakas is banned here"):
    review_hand(actor=actor, hand_id=hand.pk, action="flag", message=message)


def test_undeclared_moderator_gets_only_a_link_to_the_review_page(
    client, moderator, other_moderator, player, password, open_round, two_moderator_league
):
    round_ = open_round(league=two_moderator_league)
    submit_hand(
        player=player,
        round_id=round_.pk,
        name="The Might of Kjeld",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
    )
    declare_not_playing(moderator=other_moderator, round_id=round_.pk)
    _flag(other_moderator, Hand.objects.get(round=round_))

    todo = section(home(client, moderator, password), "todo-title", "</section>")
    assert f"Round {round_.code}: review hands" in todo
    assert f'href="/moderate/rounds/{round_.pk}/hands/"' in todo
    assert "Kjeld" not in todo and "Player One" not in todo and "flagged" not in todo
    assert "1 hand" not in todo


def test_declared_moderator_sees_flagged_and_suspicious_hands(
    client, moderator, player, make_user, password, open_round, league
):
    round_ = open_round()
    submit_hand(
        player=player,
        round_id=round_.pk,
        name="The Might of Kjeld",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
    )
    rival = make_user("rival", forum_username="nerdyjoe")
    submit_hand(
        player=rival,
        round_id=round_.pk,
        name="Scepter Tricks",
        cards=SCEPTER,
        attested=EVERY_LISTED_RULE,
    )
    odd = make_user("odd", forum_username="Oddball")
    submit_hand(player=odd, round_id=round_.pk, name="Mystery", cards=SCEPTER, attested=EVERY_LISTED_RULE)
    HandVersion.objects.filter(hand__player=odd).update(cards=[*SCEPTER[:4], "Totally Made Up Card"])
    declare_not_playing(moderator=moderator, round_id=round_.pk)
    _flag(moderator, Hand.objects.get(round=round_, player=player))

    todo = section(home(client, moderator, password), "todo-title", "</section>")
    assert "2 hands to review before the deadline" in todo
    assert "Player One" in todo and "The Might of Kjeld" in todo and "flagged" in todo
    assert "Oddball" in todo and "not in the catalog: Totally Made Up Card" in todo
    assert "Scepter Tricks" not in todo  # nothing wrong with it


def test_a_playing_moderator_sees_nothing_secret(
    client, moderator, other_moderator, player, password, open_round, two_moderator_league
):
    round_ = open_round(league=two_moderator_league)
    submit_hand(
        player=moderator,
        round_id=round_.pk,
        name="Mod's own",
        cards=SCEPTER,
        attested=EVERY_LISTED_RULE,
    )
    submit_hand(
        player=player,
        round_id=round_.pk,
        name="The Might of Kjeld",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
    )
    declare_not_playing(moderator=other_moderator, round_id=round_.pk)
    _flag(other_moderator, Hand.objects.get(round=round_, player=player))

    html = home(client, moderator, password)
    assert "Kjeld" not in html and "Player One" not in html and "flagged" not in html.lower()
    assert f"/moderate/rounds/{round_.pk}/hands/" not in html
    assert "Nothing needs you right now." in section(html, "todo-title", "</section>")
    assert "Submitted — version 1" in section(html, "open-title")  # their own hand, as for any player
    # The bulk access check agrees with submissions.selectors.early_access for each moderator.
    for user in (moderator, other_moderator):
        todo = moderator_home(user)
        assert [(item.round.pk, item.access) for item in todo.reviews] == [
            (round_.pk, hand_selectors.early_access(user, round_))
        ]


def test_moderators_of_other_leagues_see_nothing_of_this_one(
    client, moderator, other_moderator, player, make_players, password, league, revealed_round, open_round
):
    open_round()
    round_ = revealed_round([player, *make_players(2)])
    match = Match.objects.filter(round=round_).first()
    _challenge(player, match, "Look again")
    Message.objects.create(
        kind="hand.receipt", to_address="p@example.org", subject="x", body="x", league=league, state="failed"
    )
    round_services.create_league(actor=other_moderator, name="League 50", moderators=[other_moderator])
    todo = section(home(client, other_moderator, password), "todo-title", "</section>")
    assert "Nothing needs you right now." in todo
    assert round_.code not in todo and "Undelivered" not in todo


def test_results_items_disputes_challenges_and_ready_to_finalize(
    client, moderator, player, make_players, password, revealed_round
):
    rival, third = make_players(2)
    round_ = revealed_round([player, rival, third])
    todo = section(home(client, moderator, password), "todo-title", "</section>")
    assert "no disputes or challenges, can be finalized" in todo and "3 of 3 matches still unreported" in todo
    assert f'href="/moderate/rounds/{round_.pk}/results/"' in todo

    match = Match.objects.get(round=round_, hand_a__player=player, hand_b__player=rival)
    report_match(reporter=player, match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=rival, match_id=match.pk, points_a=0, points_b=6)
    other = Match.objects.get(round=round_, hand_a__player=rival, hand_b__player=third)
    _challenge(player, other, "Check the stack")
    todo = section(home(client, moderator, password), "todo-title", "</section>")
    assert "open items — 1 disputed, 1 challenged" in todo
    assert f'href="/matches/{match.pk}/"' in todo and "is disputed" in todo
    assert "challenged by Player One" in todo and "Check the stack" in todo

    set_result(actor=moderator, match_id=match.pk, points_a=6, points_b=0)
    challenge = other.challenges.get()
    resolve_challenge(
        actor=moderator, challenge_id=challenge.pk, decision="rejected", note="ok"
    )
    for each in Match.objects.filter(round=round_).exclude(pk=match.pk):
        set_result(actor=moderator, match_id=each.pk, points_a=2, points_b=2)
    todo = section(home(client, moderator, password), "todo-title", "</section>")
    assert "every match reported — ready to finalize" in todo

    finalize_round(actor=moderator, round_id=round_.pk)
    assert "Nothing needs you right now." in section(
        home(client, moderator, password), "todo-title", "</section>"
    )


def test_undelivered_mail_of_their_leagues(client, moderator, password, league):
    now = timezone.now()
    fields = {
        "kind": "match.dispute",
        "to_address": "p@example.org",
        "subject": "s",
        "body": "b",
        "league": league,
    }
    Message.objects.create(state="pending", created_at=now - timedelta(minutes=2), **fields)  # just queued
    todo = section(home(client, moderator, password), "todo-title", "</section>")
    assert "Undelivered" not in todo and "Nothing needs you right now." in todo
    Message.objects.create(state="failed", attempts=5, last_error="550", **fields)
    Message.objects.create(state="pending", created_at=now - timedelta(hours=1), **fields)
    Message.objects.create(state="sent", sent_at=now, **fields)
    todo = section(home(client, moderator, password), "todo-title", "</section>")
    assert "1 message failed, 1 waiting for over 15 minutes" in todo
    assert 'href="/admin/outbox/message/?state__exact=failed"' in todo
    assert client.get("/admin/outbox/message/?state__exact=failed").status_code == 200


def test_a_moderator_without_leagues_is_invited_to_create_one(client, make_user, password):
    user = make_user("newmod")
    account_services.make_moderator(user)
    todo = section(home(client, user, password), "todo-title", "</section>")
    assert "Nothing needs you right now." in todo and "You do not manage any league yet." in todo


# Queries -----------------------------------------------------------------------------------------------------


def _queries(client, user, password):
    client.logout()
    client.login(username=user.username, password=password)
    client.get("/")  # the navbar's counts are cached from the first page on
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    return len(queries)


MAX_QUERIES = 45


def _player_with_rounds(count, player, make_players, open_round, revealed_round, moderator):
    for _ in range(count):
        round_ = open_round()
        submit_hand(player=player, round_id=round_.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE)
        open_round(title="Not entered")
        others = make_players(3)
        revealed = revealed_round([player, *others])
        rival_match = Match.objects.get(round=revealed, hand_a__player=player, hand_b__player=others[0])
        report_match(reporter=player, match_id=rival_match.pk, points_a=6, points_b=0)
        report_match(reporter=others[0], match_id=rival_match.pk, points_a=0, points_b=6)
        _challenge(others[1], Match.objects.filter(round=revealed, hand_b__player=others[2]).first(), "Again")
        final = revealed_round([player, *others])
        finalize_round(actor=moderator, round_id=final.pk)


def test_a_players_page_runs_the_same_queries_for_one_round_or_many(
    client,
    player,
    make_players,
    password,
    open_round,
    revealed_round,
    moderator,
    django_assert_max_num_queries,
):
    _player_with_rounds(1, player, make_players, open_round, revealed_round, moderator)
    few = _queries(client, player, password)
    _player_with_rounds(4, player, make_players, open_round, revealed_round, moderator)
    many = _queries(client, player, password)
    assert many == few
    with django_assert_max_num_queries(MAX_QUERIES):
        client.get("/")


def test_a_moderators_page_runs_the_same_queries_for_one_league_or_many(
    client,
    moderator,
    player,
    make_players,
    password,
    open_round,
    revealed_round,
    django_assert_max_num_queries,
):
    def add_league(number):
        league = round_services.create_league(
            actor=moderator, name=f"League {number}", moderators=[moderator]
        )
        declared = open_round(league=league, title="Declared")
        submit_hand(
            player=player,
            round_id=declared.pk,
            name="Kjeld",
            cards=KJELD,
            attested=EVERY_LISTED_RULE,
        )
        declare_not_playing(moderator=moderator, round_id=declared.pk)
        _flag(moderator, Hand.objects.get(round=declared))
        open_round(league=league, title="Undeclared")
        others = make_players(3)
        revealed = revealed_round([player, *others], league=league)
        match = Match.objects.filter(round=revealed).first()
        _challenge(others[2], match, "Again")
        Message.objects.create(
            kind="x", to_address="a@example.org", subject="s", body="b", league=league, state="failed"
        )

    add_league(60)
    few = _queries(client, moderator, password)
    for number in (61, 62, 63):
        add_league(number)
    many = _queries(client, moderator, password)
    assert many == few
    with django_assert_max_num_queries(MAX_QUERIES):
        client.get("/")
