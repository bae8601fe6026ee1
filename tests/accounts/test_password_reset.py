"""Password reset by e-mail: Django's views, the message queued in the outbox (secret: it holds a login link)."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from outbox.models import Message

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-passphrase-77"


@pytest.fixture
def lotus(make_user):
    return make_user("lotus", email="lotus@example.com")


def page_text(response):
    """The page without its per-request CSRF token."""
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", response.content.decode())


def request_reset(client, address, capture):
    with capture(execute=True):
        return client.post(reverse("password_reset"), {"email": address})


def test_login_page_links_to_the_reset(client):
    page = client.get(reverse("login")).content.decode()
    assert "Forgot your password?" in page
    assert reverse("password_reset") in page


def test_reset_by_email_end_to_end(client, lotus, password, django_capture_on_commit_callbacks, settings):
    settings.SITE_URL = "https://phm.example.org"
    response = request_reset(client, "LOTUS@example.com", django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")

    message = Message.objects.get()
    assert (message.kind, message.recipient, message.to_address) == (
        "account.password_reset",
        lotus,
        "lotus@example.com",
    )
    assert message.secret is True
    assert message.league is None and message.round is None
    assert message.state == Message.State.SENT  # delivered by the (eager) outbox task
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["lotus@example.com"]
    assert sent.subject == "Reset your PHM Moderator password"
    assert sent.extra_headers["X-PHM-Message"] == str(message.pk)
    link = re.search(r"https://phm\.example\.org(/accounts/password/reset/\S+/\S+/)", sent.body)
    assert link, sent.body

    response = client.get(link.group(1), follow=True)
    assert response.status_code == 200
    assert "Choose a new password" in response.content.decode()
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    assert "Your new password is set" in client.get(response["Location"]).content.decode()

    # The link works once.
    assert "does not work any more" in client.get(link.group(1), follow=True).content.decode()
    assert client.post(reverse("login"), {"username": "lotus", "password": password}).status_code == 200
    response = client.post(reverse("login"), {"username": "lotus", "password": NEW_PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).wsgi_request.user == lotus


def test_reset_page_does_not_tell_whether_an_address_has_an_account(
    client, lotus, django_capture_on_commit_callbacks
):
    known = request_reset(client, "lotus@example.com", django_capture_on_commit_callbacks)
    unknown = request_reset(client, "nobody@example.com", django_capture_on_commit_callbacks)
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert page_text(client.get(known["Location"])) == page_text(client.get(unknown["Location"]))
    assert Message.objects.filter(to_address="nobody@example.com").count() == 0
    assert len(mail.outbox) == 1


def test_a_reset_lifts_the_lockout_of_the_account(
    client, lotus, django_capture_on_commit_callbacks, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    for _ in range(5):
        client.post(reverse("login"), {"username": "lotus", "password": "wrong"})
    assert client.post(reverse("login"), {"username": "lotus", "password": "wrong"}).status_code == 429
    request_reset(client, "lotus@example.com", django_capture_on_commit_callbacks)
    link = re.search(r"(/accounts/password/reset/\S+/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    response = client.post(reverse("login"), {"username": "lotus", "password": NEW_PASSWORD})
    assert response.status_code == 302


def test_a_reset_request_does_the_same_work_whether_or_not_the_address_has_an_account(
    client, lotus, monkeypatch, settings
):
    """The request only hands the address to a task: the same statements and the same task either way (the
    accounts are looked up, the link made and the mail queued by the worker), so its timing tells nothing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts import password_reset

    published = []
    monkeypatch.setattr(
        password_reset, "publish", lambda task, *args, **options: published.append((task.name, args)) or True
    )

    def work(address):
        with CaptureQueriesContext(connection) as queries:
            response = client.post(reverse("password_reset"), {"email": address})
        assert response.status_code == 302
        return [query["sql"] for query in queries.captured_queries]

    known, unknown = work("lotus@example.com"), work("nobody@example.com")
    assert known == unknown
    assert published == [
        ("accounts.send_password_reset", ("lotus@example.com", "testserver", False)),
        ("accounts.send_password_reset", ("nobody@example.com", "testserver", False)),
    ]
    assert not Message.objects.exists()  # nothing queued by the request itself


def test_the_reset_task_queues_the_mail_only_for_an_address_with_an_account(
    lotus, django_capture_on_commit_callbacks
):
    from accounts.tasks import send_password_reset

    with django_capture_on_commit_callbacks(execute=True):
        send_password_reset("nobody@example.com", "phm.example.org", True)
        send_password_reset("LOTUS@example.com", "phm.example.org", True)
    assert list(Message.objects.values_list("to_address", flat=True)) == ["lotus@example.com"]
    assert "https://phm.example.org/accounts/password/reset/" in mail.outbox[0].body


def test_with_the_broker_down_the_request_composes_the_mail_itself(
    client, lotus, monkeypatch, django_capture_on_commit_callbacks
):
    from accounts import password_reset

    monkeypatch.setattr(password_reset, "publish", lambda task, *args, **options: False)
    response = request_reset(client, "lotus@example.com", django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert Message.objects.get().to_address == "lotus@example.com"


def test_a_reset_request_the_broker_cannot_take_leaves_the_address_out_of_the_log(
    client, lotus, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    from accounts.tasks import send_password_reset

    def broker_down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(send_password_reset, "apply_async", broker_down)
    with caplog.at_level("WARNING"):
        response = request_reset(client, "lotus@example.com", django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert "accounts.send_password_reset" in caplog.text
    assert "lotus@example.com" not in caplog.text
    assert Message.objects.get().to_address == "lotus@example.com"  # composed in the request instead
