import json

import pytest
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def test_token_for_valid_credentials(client, player, password):
    response = client.post(
        "/api/auth/token/", {"username": "player", "password": password}, content_type="application/json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert Token.objects.get(user=player).key == token


def test_token_refused_for_bad_credentials(client, player):
    response = client.post(
        "/api/auth/token/", {"username": "player", "password": "wrong"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "Unable to log in" in str(response.json())


def test_token_authenticates_requests(client, player):
    token = Token.objects.create(user=player)
    response = client.get("/api/schema/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200


def test_bad_token_is_401_with_detail_and_code(client):
    response = client.get(
        "/api/schema/",
        HTTP_AUTHORIZATION="Token not-a-real-token",
        HTTP_ACCEPT="application/vnd.oai.openapi+json",
    )
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert json.loads(response.content) == {"detail": "Invalid token.", "code": "authentication_failed"}


def test_unknown_api_path_is_json_404(client):
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_schema_is_openapi_and_lists_the_token_endpoint(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/auth/token/" in schema["paths"]


def test_docs_are_served_from_vendored_assets(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn" not in page.lower()


def test_exception_handler_adds_code_to_drf_errors():
    from rest_framework import exceptions

    from phm.api import Conflict, exception_handler

    response = exception_handler(Conflict("The deadline has passed."), {})
    assert response.status_code == 409
    assert response.data == {"detail": "The deadline has passed.", "code": "conflict"}
    response = exception_handler(exceptions.PermissionDenied(), {})
    assert response.status_code == 403
    assert response.data["code"] == "permission_denied"
