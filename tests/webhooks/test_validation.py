"""What a moderator may enter for a webhook: https URLs only (http to this machine only with DEBUG), known
events, a secret for JSON webhooks."""

import pytest

from webhooks import services
from webhooks.models import Webhook
from webhooks.validation import WebhookInputError, url_problem

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.com/api/webhooks/123/abcDEF",
        "https://example.org:8443/hooks/phm?league=45",
        "https://hooks.example.org",
    ],
)
def test_https_urls_are_accepted(url):
    assert url_problem(url) == ""


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("", "Give the webhook's URL"),
        ("http://example.org/hook", "Use an https:// URL"),
        ("ftp://example.org/hook", "Use an https:// URL"),
        ("javascript:alert(1)", "Use an https:// URL"),
        ("discord.com/api/webhooks/1/x", "Use an https:// URL"),
        ("https://", "no host name"),
        ("https://user:pw@example.org/hook", "user name and password"),
        ("https://exa mple.org/", "no spaces"),
        ("https://example.org:99999/", "not a valid URL"),
        ("https://10.0.0.5/hook", "local or private address"),
        ("https://192.168.1.1/hook", "local or private address"),
        ("https://169.254.169.254/latest/meta-data", "local or private address"),
        ("https://[::1]/hook", "local or private address"),
        ("https://localhost/hook", "local or private address"),
        ("https://100.64.0.1/hook", "local or private address"),
        ("https://255.255.255.255/hook", "local or private address"),
        ("https://[::]/hook", "local or private address"),
        ("https://[fe80::1]/hook", "local or private address"),
        ("https://[fe80::1%25eth0]/hook", "local or private address"),
        ("https://[fc00::1]/hook", "local or private address"),
        ("https://[fd12:3456::1]/hook", "local or private address"),
        ("https://app.localhost/hook", "local or private address"),
        ("http://127.0.0.1:8000/hook", "only while DEBUG is on"),
        ("http://localhost/hook", "only while DEBUG is on"),
        ("https://example.org/" + "a" * 2000, "at most 2000 characters"),
    ],
)
def test_other_urls_are_refused_with_a_reason(settings, url, says):
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = False
    assert says in url_problem(url)


@pytest.mark.parametrize(
    ("url", "means"),
    [
        ("https://127.1/hook", "127.0.0.1"),
        ("https://0x7f000001/hook", "127.0.0.1"),
        ("https://2130706433/hook", "127.0.0.1"),
        ("https://0177.0.0.1/hook", "127.0.0.1"),
        ("https://0x7f.0.0.1/hook", "127.0.0.1"),
        ("https://127.0.0.1./hook", "127.0.0.1"),
        ("https://0/hook", "0.0.0.0"),  # noqa: S104
        ("https://2852039166/latest/meta-data", "169.254.169.254"),
        ("https://167772161/hook", "10.0.0.1"),
        ("https://224.0.0.1/hook", ""),
        ("https://[::ffff:7f00:1]/hook", "127.0.0.1"),
        ("https://[::ffff:127.0.0.1]/hook", "127.0.0.1"),
        ("https://[::7f00:1]/hook", ""),
        ("https://[64:ff9b::a9fe:a9fe]/hook", ""),
        ("https://[2002:c0a8:101::1]/hook", ""),
        ("https://[fec0::1]/hook", ""),
        ("https://[ff02::1]/hook", ""),
        ("https://localhost./hook", ""),
        ("https://LOCALHOST/hook", ""),
        ("https://metadata.google.internal/computeMetadata/v1/", ""),
        ("https://printer.local/hook", ""),
        ("https://intranet/hook", ""),
    ],
)
def test_every_spelling_of_a_local_or_private_address_is_refused_when_saved(settings, url, means):
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = True  # the development exception is for http:// only
    problem = url_problem(url)
    assert "is a local or private address" in problem and "public https:// address" in problem
    if means:
        assert f"means {means}" in problem


@pytest.mark.parametrize(
    "url", ["https://8.8.8.8/hook", "https://134744072/hook", "https://[2606:4700::1111]/hook"]
)
def test_a_public_address_written_as_a_number_is_accepted(url):
    assert url_problem(url) == ""


@pytest.mark.parametrize(
    "url", ["https://1.2.3.4.5/", "https://256.1.1.1/", "https://09.1.1.1/", "https://a.1/"]
)
def test_a_host_that_ends_in_a_number_but_is_no_address_is_refused(url):
    assert "not a valid URL" in url_problem(url)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/hook", "http://localhost/hook"])
def test_this_machine_over_http_only_when_local_http_is_allowed(settings, url):
    settings.DEBUG = True
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = True
    assert url_problem(url) == ""
    assert "https://" in url_problem("http://10.0.0.1/hook")  # still only this machine
    # The exception is plain http to these two names only: never https to this machine, nor another spelling.
    assert "local or private address" in url_problem("https://localhost:9/x")
    assert "https://" in url_problem("http://127.1:8000/hook")
    assert "https://" in url_problem("http://[::1]:8000/hook")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/hook", "http://localhost/hook"])
def test_local_http_needs_debug_even_when_the_setting_is_on(settings, url):
    settings.DEBUG = False
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = True
    assert "only while DEBUG is on" in url_problem(url)


def test_local_http_follows_debug_by_default(settings):
    from webhooks.validation import allow_local_http

    del settings.WEBHOOK_ALLOW_LOCAL_HTTP
    settings.DEBUG = True
    assert allow_local_http() is True
    settings.DEBUG = False
    assert allow_local_http() is False


def create(moderator, league, **fields):
    values = {"url": "https://example.org/hook", "kind": "discord", "events": ["round_opened"], **fields}
    return services.create_webhook(actor=moderator, league=league, **values)


@pytest.mark.parametrize(
    ("fields", "field", "says"),
    [
        ({"events": []}, "events", "at least one event"),
        ({"events": ["round_opened", "hands_leaked"]}, "events", "Unknown event 'hands_leaked'"),
        ({"events": "round_opened"}, "events", "Give a list of events"),
        ({"kind": "slack"}, "kind", 'Choose "discord" or "json"'),
        ({"secret": "abcdefghijklmnopqrstuvwxyz"}, "secret", "A Discord webhook has no secret"),
        ({"kind": "json", "secret": "short"}, "secret", "16 to 200 printable characters"),
        ({"kind": "json", "secret": "with spaces in the secret"}, "secret", "16 to 200 printable characters"),
        ({"url": "http://example.org/"}, "url", "Use an https:// URL"),
    ],
)
def test_bad_input_is_refused_field_by_field(moderator, league, fields, field, says):
    with pytest.raises(WebhookInputError) as raised:
        create(moderator, league, **fields)
    assert says in " ".join(raised.value.errors[field])
    assert not Webhook.objects.exists()


def test_events_are_kept_in_the_order_of_a_round(moderator, league):
    webhook, secret = create(moderator, league, events=["results_final", "round_opened", "round_opened"])
    assert webhook.events == ["round_opened", "results_final"]
    assert secret == "" and webhook.secret == ""


def test_a_json_webhook_gets_a_generated_secret(moderator, league):
    webhook, secret = create(moderator, league, kind="json")
    assert len(secret) >= 40 and webhook.secret == secret
    assert webhook.secret_hint == "…" + secret[-4:]
    _other, other_secret = create(moderator, league, kind="json", url="https://example.org/other")
    assert other_secret != secret


def test_the_same_url_twice_and_too_many_webhooks_are_refused(moderator, league):
    create(moderator, league)
    with pytest.raises(services.WebhookConflict, match="already has a webhook with this URL"):
        create(moderator, league)
    for n in range(2, services.MAX_WEBHOOKS_PER_LEAGUE + 1):
        create(moderator, league, url=f"https://example.org/hook/{n}")
    with pytest.raises(services.WebhookConflict, match="remove one"):
        create(moderator, league, url="https://example.org/one-too-many")


def test_a_discord_url_is_shown_without_its_token(moderator, league):
    webhook, _ = create(
        moderator, league, url="https://discord.com/api/webhooks/1234567/abcdefghijklmnopqrstuvwxyz"
    )
    assert webhook.url_display == "https://discord.com/api/webhooks/1234567/abcd…wxyz"


def test_a_query_string_is_not_shown_either(moderator, league):
    webhook, _ = create(moderator, league, url="https://hooks.example.org/in?token=abcdef")
    assert webhook.url_display == "https://hooks.example.org/in?…"
    short, _ = create(moderator, league, url="https://hooks.example.org")
    assert short.url_display == "https://hooks.example.org"
