"""Notifications: each person's choices per kind and channel, the e-mail's HTML alternative and one-click
unsubscribe, the daily digest, the bell and its pages, and the notification API."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse

from accounts.services import profile_for
from audit.models import AuditEntry
from outbox import digest, preferences, services
from outbox.models import Message, Notification
from outbox.services import Notice

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]


def tell(users, kind="round.opened", text="Round 45:01 is open", path="/rounds/1/"):
    return services.notify(
        users,
        kind=kind,
        build=lambda user: Notice(
            text=text, path=path, subject=f"[PHM] {text}", template="outbox/email/test_body.txt"
        ),
    )


@pytest.fixture(autouse=True)
def body_template(settings, tmp_path):
    folder = tmp_path / "templates" / "outbox" / "email"
    folder.mkdir(parents=True)
    (folder / "test_body.txt").write_text("Something happened.\n\nSee it here: {{ url }}\n")
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], tmp_path / "templates"]}
    ]


def test_by_default_a_person_is_told_on_the_site_and_by_email_once(carol):
    tell([carol, carol])
    [note] = Notification.objects.all()
    assert (note.recipient, note.text, note.url, note.read_at) == (
        carol,
        "Round 45:01 is open",
        "/rounds/1/",
        None,
    )
    [sent] = mail.outbox
    assert sent.to == ["carol@example.org"] and sent.subject == "[PHM] Round 45:01 is open"


def test_choices_per_kind_and_channel_are_honoured(carol, dave):
    preferences.update(carol, {"round.opened": {"email": False}})
    preferences.update(dave, {"round.opened": {"site": False}})
    tell([carol, dave])
    assert list(Notification.objects.values_list("recipient__username", flat=True)) == ["carol"]
    assert [message.to for message in mail.outbox] == [["dave@example.org"]]
    tell([carol, dave], kind="hands.revealed")  # another kind: both channels for both
    assert Notification.objects.filter(kind="hands.revealed").count() == 2


def test_no_address_means_site_only(make_user):
    eve = make_user("eve")
    tell([eve])
    assert Notification.objects.filter(recipient=eve).exists() and mail.outbox == []


def test_the_email_has_an_html_alternative_absolute_links_and_one_click_unsubscribe(carol, settings):
    settings.SITE_URL = "https://phm.example"
    tell([carol])
    [sent] = mail.outbox
    assert "See it here: https://phm.example/rounds/1/" in sent.body
    html, mime = sent.alternatives[0]
    assert mime == "text/html" and 'href="https://phm.example/rounds/1/"' in html and "PHM Moderator" in html
    unsubscribe = sent.extra_headers["List-Unsubscribe"]
    assert unsubscribe.startswith("<https://phm.example/notifications/unsubscribe/") and unsubscribe.endswith(
        ">"
    )
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe[1:-1] in sent.body and 'Stop e-mails about "Round opened"' in sent.body


def test_password_resets_and_digests_have_no_unsubscribe(carol):
    message = services.email(
        kind="account.password_reset",
        user=carol,
        subject="Reset",
        template="outbox/email/test_body.txt",
        context={"url": "/x"},
    )
    services.queue([message])
    [sent] = mail.outbox
    assert "List-Unsubscribe" not in sent.extra_headers


def unsubscribe_path(user, kind="round.opened"):
    return reverse("outbox:unsubscribe", args=[preferences.unsubscribe_token(user.pk, kind)])


def test_unsubscribe_asks_on_get_and_acts_on_post_without_logging_in(client, carol):
    path = unsubscribe_path(carol)
    page = client.get(path)
    assert page.status_code == 200 and b"Stop e-mails about round opened?" in page.content
    assert preferences.wants(carol, "round.opened", "email")  # a link scanner's GET changes nothing
    done = client.post(path)
    assert done.status_code == 200 and b"Unsubscribed" in done.content
    carol.refresh_from_db()
    assert not preferences.choices_for(carol)["round.opened"]["email"]
    assert preferences.choices_for(carol)["round.opened"]["site"]  # the site is untouched
    assert preferences.choices_for(carol)["hands.revealed"]["email"]  # and other kinds too
    assert AuditEntry.objects.filter(action="notifications.unsubscribed").count() == 1


def test_one_click_post_from_a_mail_client(client, carol, dave):
    response = client.post(
        unsubscribe_path(carol, "match.dispute"),
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    carol.refresh_from_db()
    assert not preferences.wants(carol, "match.dispute", "email")
    assert preferences.wants(dave, "match.dispute", "email")  # only that person


def test_a_tampered_or_foreign_token_does_nothing(client, carol):
    token = preferences.unsubscribe_token(carol.pk, "round.opened")
    for bad in (token[:-2] + "xx", "nonsense", preferences.unsubscribe_token(carol.pk, "not.a.kind")):
        response = client.post(reverse("outbox:unsubscribe", args=[bad]))
        assert response.status_code == 404 and b"not valid" in response.content
    assert preferences.wants(carol, "round.opened", "email")


def test_preferences_refuse_nonsense_with_a_message(carol):
    for choices, field in [
        ({"no.such": {"email": False}}, "no.such"),
        ({"round.opened": {"fax": True}}, "round.opened"),
        ({"round.opened": {"email": "no"}}, "round.opened"),
        ({"hand.receipt": {"site": True}}, "hand.receipt"),
    ]:
        with pytest.raises(preferences.PreferenceError) as raised:
            preferences.update(carol, choices)
        assert field in raised.value.errors


# The daily digest ------------------------------------------------------------------------------------------


def at(hour, day=2):
    return datetime(2026, 12, day, hour, 0, tzinfo=ZoneInfo("Europe/Berlin"))


def test_digest_holds_mail_and_sends_one_a_day_at_the_hour_in_the_person_s_zone(carol, dave, time_machine):
    profile = profile_for(carol)
    profile.time_zone = "Europe/Berlin"
    profile.save()
    preferences.update(carol, digest=True)
    time_machine.move_to(at(9, day=1))
    tell([carol, dave])
    tell([carol], kind="hands.revealed", text="Hands posted")
    assert [message.to for message in mail.outbox] == [["dave@example.org"]]  # carol's wait
    assert Message.objects.filter(recipient=carol, state="held").count() == 2
    assert Notification.objects.filter(recipient=carol).count() == 2  # the site is not delayed
    mail.outbox.clear()
    assert digest.send_digests(now=at(9, day=1)) == 1  # never had one: the first goes at once
    [sent] = mail.outbox
    assert sent.subject == "[PHM] Your daily digest: 2 updates"
    assert "Round 45:01 is open" in sent.body and "Hands posted" in sent.body
    assert Message.objects.filter(recipient=carol, state="bundled").count() == 2
    mail.outbox.clear()
    time_machine.move_to(at(12, day=1))
    tell([carol])
    assert digest.send_digests(now=at(12, day=1)) == 0  # one a day: wait for tomorrow 07:00 Berlin
    assert digest.send_digests(now=at(6, day=2)) == 0
    assert digest.send_digests(now=at(7, day=2)) == 1
    assert digest.send_digests(now=at(7, day=2)) == 0  # never twice
    assert len(mail.outbox) == 1


def test_time_critical_kinds_skip_the_digest(carol):
    preferences.update(carol, digest=True)
    tell([carol], kind="round.reminder", text="1 hour left")
    assert [message.subject for message in mail.outbox] == ["[PHM] 1 hour left"]


def test_turning_the_digest_off_sends_what_was_held(carol):
    preferences.update(carol, digest=True)
    tell([carol])
    assert mail.outbox == []
    preferences.update(carol, digest=False)
    assert [message.subject for message in mail.outbox] == ["[PHM] Round 45:01 is open"]


# Pages -------------------------------------------------------------------------------------------------------


def test_the_bell_counts_unread_and_the_list_marks_read(client, carol, dave, password):
    tell([carol], text="First")
    tell([carol], text="Second", path="/rounds/2/")
    tell([dave], text="Dave's own")
    client.login(username="carol", password=password)
    home = client.get("/rounds/").content.decode()
    assert 'aria-label="Notifications: 2 unread"' in home
    page = client.get(reverse("outbox:notifications")).content.decode()
    assert "First" in page and "Second" in page and "Dave&#x27;s own" not in page and "Dave's own" not in page
    second = Notification.objects.get(text="Second")
    response = client.get(reverse("outbox:open", args=[second.pk]))
    assert response.status_code == 302 and response["Location"] == "/rounds/2/"
    assert 'aria-label="Notifications: 1 unread"' in client.get("/rounds/").content.decode()
    daves = Notification.objects.get(recipient=dave)
    assert client.get(reverse("outbox:open", args=[daves.pk])).status_code == 404
    client.post(reverse("outbox:mark-read"), {"all": "1"})
    assert not Notification.objects.filter(recipient=carol, read_at__isnull=True).exists()
    assert Notification.objects.get(recipient=dave).read_at is None
    assert 'aria-label="Notifications"' in client.get("/rounds/").content.decode()


def test_a_stored_link_never_leaves_the_site(client, carol, password):
    tell([carol], path="//evil.example/")
    client.login(username="carol", password=password)
    note = Notification.objects.get()
    assert client.get(reverse("outbox:open", args=[note.pk]))["Location"] == "/"


def test_the_preferences_page_saves_every_choice(client, carol, password):
    client.login(username="carol", password=password)
    page = client.get(reverse("outbox:preferences")).content.decode()
    assert "Deadline reminders" in page and "e-mail only" in page
    response = client.post(
        reverse("outbox:preferences"),
        {"round.opened:site": "on", "hands.revealed:email": "on", "digest": "on"},
    )
    assert response.status_code == 302
    carol.refresh_from_db()
    choices = preferences.choices_for(carol)
    assert choices["round.opened"] == {"email": False, "site": True}
    assert choices["hands.revealed"] == {"email": True, "site": False}
    assert preferences.digest_enabled(carol)


def test_pages_need_a_login(client):
    for name in ("outbox:notifications", "outbox:preferences"):
        assert client.get(reverse(name)).status_code == 302


# API ---------------------------------------------------------------------------------------------------------


def test_api_lists_own_notifications_newest_first_and_marks_read(api_client, carol, dave):
    tell([carol], text="Older")
    tell([carol], text="Newer", path="/rounds/9/")
    tell([dave], text="Not yours")
    api_client.force_authenticate(carol)
    reply = api_client.get("/api/notifications/").json()
    assert reply["unread"] == 2
    assert [item["text"] for item in reply["results"]] == ["Newer", "Older"]
    assert set(reply["results"][0]) == {"id", "kind", "text", "url", "created", "read"}
    daves = Notification.objects.get(recipient=dave).pk
    marked = api_client.post(
        "/api/notifications/read/", {"ids": [reply["results"][0]["id"], daves]}, format="json"
    ).json()
    assert marked == {"marked": 1, "unread": 1}
    assert Notification.objects.get(pk=daves).read_at is None
    assert api_client.post("/api/notifications/read/", {"all": True}, format="json").json()["unread"] == 0
    bad = api_client.post("/api/notifications/read/", {}, format="json")
    assert bad.status_code == 400 and "ids" in bad.json()


def test_api_preferences_round_trip(api_client, carol):
    api_client.force_authenticate(carol)
    reply = api_client.get("/api/notification-preferences/").json()
    assert reply["digest"] is False and reply["round.opened"] == {"email": True, "site": True}
    assert reply["hand.receipt"] == {"email": True, "site": False}
    changed = api_client.put(
        "/api/notification-preferences/", {"round.opened": {"email": False}, "digest": True}, format="json"
    ).json()
    assert changed["round.opened"] == {"email": False, "site": True} and changed["digest"] is True
    refused = api_client.put("/api/notification-preferences/", {"nope": {"email": True}}, format="json")
    assert refused.status_code == 400 and "nope" in refused.json()
    assert api_client.put("/api/notification-preferences/", [1], format="json").status_code == 400


def test_api_needs_a_login(api_client):
    for path in ("/api/notifications/", "/api/notification-preferences/"):
        assert api_client.get(path).status_code in (401, 403)


def test_the_bell_costs_no_query_once_counted(client, carol, password, django_assert_num_queries):
    from outbox import unread

    tell([carol])
    assert unread.count(carol.pk) == 1
    with django_assert_num_queries(0):
        assert unread.count(carol.pk) == 1
