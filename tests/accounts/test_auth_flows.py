import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db


def sign_up(client, **overrides):
    data = {
        "username": "lotus_lover",
        "email": "lotus@example.com",
        "forum_username": "LotusLover",
        "time_zone": "Europe/Berlin",
        "password1": "a-long-unusual-passphrase",
        "password2": "a-long-unusual-passphrase",
        **overrides,
    }
    return client.post(reverse("sign-up"), data)


def test_sign_up_creates_account_and_profile_and_logs_in(client):
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = get_user_model().objects.get(username="lotus_lover")
    assert user.email == "lotus@example.com"
    assert (user.profile.forum_username, user.profile.time_zone) == ("LotusLover", "Europe/Berlin")
    home = client.get(reverse("home"))
    assert home.wsgi_request.user == user
    assert "Welcome, lotus_lover" in home.content.decode()


def test_sign_up_errors_keep_what_was_typed(client):
    response = sign_up(client, password2="something-else-entirely")
    assert response.status_code == 200
    page = response.content.decode()
    assert "The two password fields didn" in page
    assert 'value="lotus_lover"' in page
    assert 'value="LotusLover"' in page
    assert not get_user_model().objects.filter(username="lotus_lover").exists()


def test_sign_up_refuses_taken_forum_name_case_insensitively(client, player):
    response = sign_up(client, forum_username="player one")
    assert response.status_code == 200
    assert "Another account already uses this forum name." in response.content.decode()


def test_sign_up_refuses_unknown_time_zone(client):
    response = sign_up(client, time_zone="Mars/Olympus_Mons")
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()


def test_login_and_logout(client, player, password):
    response = client.post(reverse("login"), {"username": "player", "password": password})
    assert response.status_code == 302
    assert client.get(reverse("home")).wsgi_request.user == player
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not client.get(reverse("home")).wsgi_request.user.is_authenticated


def test_login_with_wrong_password_says_so(client, player):
    response = client.post(reverse("login"), {"username": "player", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_logout_by_get_is_refused(client, player):
    client.force_login(player)
    assert client.get(reverse("logout")).status_code == 405
    assert client.get(reverse("home")).wsgi_request.user.is_authenticated


def test_password_change(client, player, password):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "another-long-passphrase",
            "new_password2": "another-long-passphrase",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("another-long-passphrase")


def test_profile_requires_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_profile_edit_saves_time_zone_and_email(client, player):
    client.force_login(player)
    response = client.post(
        reverse("profile"),
        {"email": "new@example.com", "forum_username": "P1", "time_zone": "America/New_York"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == "new@example.com"
    assert (player.profile.forum_username, player.profile.time_zone) == ("P1", "America/New_York")


def test_profile_is_created_for_accounts_made_elsewhere(client, user_model):
    admin = user_model.objects.create_superuser("root", "root@example.com", "pw-for-root-123")
    client.force_login(admin)
    assert client.get(reverse("profile")).status_code == 200
    assert Profile.objects.filter(user=admin).exists()


def test_sign_up_next_must_stay_on_site(client):
    response = client.post(
        reverse("sign-up") + "?next=https://evil.example/",
        {
            "username": "a",
            "time_zone": "UTC",
            "password1": "a-long-unusual-passphrase",
            "password2": "a-long-unusual-passphrase",
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == reverse("home")
