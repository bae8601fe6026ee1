"""The project's one error model (phm.errors) and the one place the API answers it (phm.api.exception_handler)."""

import json

import pytest
from rest_framework.renderers import JSONRenderer

from archive.transfer import LeagueTransferError, TransferConflict, TransferFormatError
from outbox.preferences import PreferenceError
from phm import errors
from phm.api import exception_handler
from rounds.services.catalog import (
    AcceptCardConflict,
    AcceptCardError,
    AcceptCardForbidden,
    AcceptedCardNotFound,
    BannedListError,
)
from rounds.services.errors import RoundConflict, RoundInputError
from scoring.services.errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound
from submissions.errors import HandConflict, HandInputError, HandNotFound, IllegalHand, ReviewNotAllowed
from webhooks.services import WebhookConflict, WebhookForbidden, WebhookNotFound
from webhooks.validation import WebhookInputError


def answer(error):
    """Status and JSON body the API gives for `error`."""
    response = exception_handler(error, {})
    return response.status_code, json.loads(JSONRenderer().render(response.data))


# The base classes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "status", "code"),
    [
        (errors.InputError, 400, "invalid"),
        (errors.Forbidden, 403, "permission_denied"),
        (errors.NotFound, 404, "not_found"),
        (errors.Conflict, 409, "conflict"),
    ],
)
def test_each_kind_of_domain_error_has_its_status_and_stable_code(kind, status, code):
    assert issubclass(kind, errors.DomainError)
    assert kind.http_status == status
    assert kind.code == code


def test_a_domain_error_carries_its_message_field_errors_and_details():
    error = errors.Conflict("The round is final.", details={"items": [1, 2]})
    assert str(error) == error.message == "The round is final."
    assert error.field_errors == {}
    assert error.details == {"items": [1, 2]}


def test_an_input_error_is_built_from_field_errors_and_is_a_value_error():
    error = errors.InputError({"name": ["Too long."], "cards": ["Too many.", "Not a card."]})
    assert isinstance(error, ValueError)
    assert (
        error.errors == error.field_errors == {"name": ["Too long."], "cards": ["Too many.", "Not a card."]}
    )
    assert str(error) == "name: Too long.; cards: Too many. Not a card."
    assert error.sentences == "Too long. Too many. Not a card."


def test_an_input_error_may_have_a_message_of_its_own_or_no_fields():
    assert str(errors.InputError({"name": ["Taken."]}, "That name is taken.")) == "That name is taken."
    alone = errors.InputError(message="Nothing to import.")
    assert alone.errors == {} and alone.sentences == "Nothing to import."


def test_a_page_shows_the_reasons_of_an_input_error_and_the_message_of_the_others():
    assert errors.message_for(errors.InputError({"row": ["Not a row."]})) == "Not a row."
    assert errors.message_for(errors.Forbidden("Moderators only.")) == "Moderators only."


@pytest.mark.parametrize(
    ("error_class", "kind"),
    [
        (ScoringNotFound, errors.NotFound),
        (ScoringInputError, errors.InputError),
        (ScoringForbidden, errors.Forbidden),
        (ScoringConflict, errors.Conflict),
        (RoundInputError, errors.InputError),
        (RoundConflict, errors.Conflict),
        (BannedListError, errors.InputError),
        (AcceptCardError, errors.InputError),
        (AcceptCardConflict, errors.Conflict),
        (AcceptedCardNotFound, errors.NotFound),
        (AcceptCardForbidden, errors.Forbidden),
        (HandNotFound, errors.NotFound),
        (HandInputError, errors.InputError),
        (IllegalHand, errors.InputError),
        (HandConflict, errors.Conflict),
        (ReviewNotAllowed, errors.Forbidden),
        (WebhookNotFound, errors.NotFound),
        (WebhookForbidden, errors.Forbidden),
        (WebhookInputError, errors.InputError),
        (WebhookConflict, errors.Conflict),
        (PreferenceError, errors.InputError),
        (TransferConflict, errors.Conflict),
        (TransferFormatError, LeagueTransferError),
        (LeagueTransferError, errors.DomainError),
    ],
)
def test_every_app_error_is_one_of_the_kinds(error_class, kind):
    assert issubclass(error_class, kind)


def test_app_errors_keep_their_attributes_and_messages():
    assert ScoringConflict("Final.", items=[{"hand": 3}]).items == [{"hand": 3}]
    assert ScoringConflict("Final.").items == []
    assert str(RoundInputError({"title": ["Required."]})) == "title: Required."
    assert ScoringInputError({"row": ["Not a row."]}).sentences == "Not a row."
    assert str(IllegalHand(verdict=None)) == "The hand is not legal for this round."
    assert IllegalHand.code == "illegal_hand"
    assert str(BannedListError("Already banned.")) == "Already banned."
    accept = AcceptCardError("A real card in Vintage.")
    assert str(accept) == "A real card in Vintage." and accept.errors == {"name": ["A real card in Vintage."]}
    # Callers that catch every accepted-card error still catch the 404 and the 409.
    assert isinstance(AcceptCardConflict("Final."), AcceptCardError)
    assert isinstance(AcceptedCardNotFound("No such card."), AcceptCardError)


# The API's answer ---------------------------------------------------------------------------------------------


def test_the_api_answers_an_input_error_with_its_field_errors_as_drf_gives_them():
    assert answer(ScoringInputError({"points_a": ["Not a result."]})) == (
        400,
        {"points_a": ["Not a result."]},
    )
    assert answer(AcceptCardError("Banned in Vintage.")) == (400, {"name": ["Banned in Vintage."]})


def test_the_api_answers_an_input_error_without_fields_with_its_detail_and_code():
    assert answer(errors.InputError(message="Nothing to import.")) == (
        400,
        {"detail": "Nothing to import.", "code": "invalid"},
    )


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (ScoringForbidden("Only a moderator of this league can do this."), 403, "permission_denied"),
        (AcceptCardForbidden("Only a moderator of this league can do this."), 403, "permission_denied"),
        (ScoringNotFound("No such match."), 404, "not_found"),
        (AcceptedCardNotFound("No such match."), 404, "not_found"),
        (RoundConflict("The round is final."), 409, "conflict"),
        (AcceptCardConflict("The round is final."), 409, "conflict"),
        (WebhookConflict("The round is final."), 409, "conflict"),
    ],
)
def test_the_api_answers_other_domain_errors_with_detail_and_code(error, status, code):
    assert answer(error) == (status, {"detail": str(error), "code": code})


def test_the_api_adds_what_stands_in_the_way_of_a_conflict():
    items = [{"match": 7, "state": "challenged"}]
    assert answer(ScoringConflict("Open challenges remain.", items=items)) == (
        409,
        {"detail": "Open challenges remain.", "code": "conflict", "items": items},
    )


def test_a_subclass_may_give_its_own_code():
    class Duplicate(errors.Conflict):
        code = "duplicate"

    assert answer(Duplicate("Imported already.", details={"round": 4})) == (
        409,
        {"detail": "Imported already.", "code": "duplicate", "round": 4},
    )


@pytest.mark.django_db
def test_a_view_lets_its_domain_errors_through_to_the_one_answer(client):
    response = client.get("/api/rounds/999999/table/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
