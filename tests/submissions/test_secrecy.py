"""Secrecy probe: before the deadline, walk every URL pattern and API endpoint as anonymous, as
another player, as a moderator who plays in the round and as a moderator of another league, and find nothing of
Alice's hand: no card, no name, no link between her and a hand."""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from rounds.models import Card
from submissions.models import Hand
from tests import builders

from .conftest import SCEPTER, VOID

pytestmark = pytest.mark.django_db

# Cards on no banned list and in no other hand of the probe: if one shows up, it came from Alice's hand.
SECRET_CARDS = ["Kjeldoran Warrior", "Wheel of Torture", "Leyline of Singularity", "Karakas"]
SECRET_NAME = "Zebra Conspiracy Nine"
ALICE_CARDS = [*SECRET_CARDS, "Mishra's Workshop"]
ALICE_MARKS = ["alice", "WhammeWhamme"]  # her username and forum name: no page may tie her to a hand


def url_patterns(patterns=None, prefix=""):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def concrete_urls(values):
    """Every route with each path parameter filled by each candidate value (admin's regex routes aside)."""
    urls = set()
    for route in url_patterns():
        if route.startswith("^") or route.startswith("admin/"):
            continue
        candidates = [""]
        for piece in re.split(r"(<[^>]+>)", route):
            if piece.startswith("<"):
                kind, name = piece[1:-1].split(":") if ":" in piece else ("str", piece[1:-1])
                options = values.get(name) or values.get(kind) or ["1"]
                candidates = [done + str(option) for done in candidates for option in options]
            else:
                candidates = [done + piece for done in candidates]
        urls.update("/" + url for url in candidates)
    return sorted(urls)


@pytest.fixture
def secret_round(open_round, alice, bob, moderator):
    alice_hand = builders.submit(alice, open_round, ALICE_CARDS, name=SECRET_NAME).hand
    builders.submit(alice, open_round, ALICE_CARDS[::-1], name=SECRET_NAME)
    bob_hand = builders.submit(bob, open_round, SCEPTER, name="Bob's own").hand
    builders.submit(moderator, open_round, VOID, name="Moderator plays")
    return open_round, alice_hand, bob_hand


def leaks(text):
    # Whole words only: "alice" is inside "Chalice of the Void", a card of the moderator's own hand.
    marks = [*SECRET_CARDS, SECRET_NAME, *ALICE_MARKS]
    return [mark for mark in marks if re.search(rf"\b{re.escape(mark)}\b", text, flags=re.IGNORECASE)]


def test_probe_every_url_finds_nothing_of_another_players_hand(secret_round, bob, moderator, other_moderator):
    round_, alice_hand, bob_hand = secret_round
    unrelated_card = Card.objects.get(name="Black Lotus")
    values = {
        "round_id": [round_.pk],
        "hand_id": [alice_hand.pk, bob_hand.pk, 999_999],
        "version": [1, 2],
        "slug": [unrelated_card.slug],
        "action": ["hands", "open", "close"],
        "int": [1, alice_hand.pk],
    }
    urls = concrete_urls(values)
    assert len(urls) > 40
    assert f"/api/rounds/{round_.pk}/hands/" in urls and f"/moderate/rounds/{round_.pk}/hands/" in urls
    urls += [
        f"/rounds/{round_.pk}/my-hand/suggest/?index=1",
        f"/rounds/{round_.pk}/my-hand/check/?index=1&card_1=Mox+Pearl",
        "/cards/autocomplete/?q=Black",
        "/admin/",
        "/admin/submissions/hand/",
        "/admin/submissions/handversion/",
        "/admin/rounds/round/",
    ]
    viewers = {
        "anonymous": None,
        "another player": bob,
        "playing moderator": moderator,
        "other moderator": other_moderator,
    }
    problems = []
    for label, user in viewers.items():
        browser, api = Client(), APIClient()
        if user is not None:
            browser.force_login(user)
            api.force_authenticate(user)
        for url in urls:
            client = api if url.startswith("/api/") else browser
            response = client.get(url)
            body = response.content.decode(errors="replace")
            if response.status_code >= 500:
                problems.append((label, url, response.status_code))
            if leaks(body):
                problems.append((label, url, leaks(body)))
            cache = response.get("Cache-Control", "")
            if (
                url.startswith("/rounds/")
                and response.status_code == 200
                and cache
                and "private" not in cache
            ):
                problems.append((label, url, "cacheable"))
    assert problems == [], "\n".join(map(str, problems))


def test_a_hidden_hand_looks_exactly_like_a_missing_one(secret_round, bob, api_client):
    _, alice_hand, _ = secret_round
    api_client.force_authenticate(bob)
    hidden = api_client.post(
        f"/api/hands/{alice_hand.pk}/review/", {"action": "flag", "message": "x"}, format="json"
    )
    missing = api_client.post("/api/hands/999999/review/", {"action": "flag", "message": "x"}, format="json")
    assert (
        (hidden.status_code, hidden.json())
        == (missing.status_code, missing.json())
        == (
            404,
            {"detail": "No such hand.", "code": "not_found"},
        )
    )


def test_only_the_total_count_is_public(secret_round, client):
    round_, _, _ = secret_round
    page = client.get(round_.get_absolute_url()).content.decode()
    assert "3 hands submitted" in page
    assert Hand.objects.filter(round=round_).count() == 3


def test_the_probe_would_see_a_leak(secret_round, alice):
    """Control: the owner's own page does show her hand, so the probe's silence above means something."""
    round_, _, _ = secret_round
    browser = Client()
    browser.force_login(alice)
    assert set(leaks(browser.get(f"/rounds/{round_.pk}/my-hand/").content.decode())) >= {
        *SECRET_CARDS,
        SECRET_NAME,
    }
