"""The round's edit form while it is open: the posted deadline (rule 4.2) only moves later there, as with
"Extend the deadline"; ending submissions early stays "End submissions now"."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from audit.selectors import audit_trail
from rounds.forms import DEADLINE_INPUT_FORMAT
from rounds.services import lifecycle as services

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# Set through the API, to the second: the form's box shows minutes.
POSTED = datetime(2026, 12, 5, 20, 0, 30, tzinfo=UTC)


@pytest.fixture
def open_round(league, moderator):
    return services.create_round(
        actor=moderator,
        league=league,
        now=NOW,
        open_now=True,
        title="5 Card Alphabetized",
        hand_size=5,
        deadline=POSTED,
    )


def form_data(client, round_, **changes):
    """What the edit form posts when saved as shown, with `changes` typed over it."""
    form = client.get(f"/moderate/rounds/{round_.pk}/edit/").context["form"]
    data = {
        name: form[name].value()
        for name in form.fields
        if not form.fields[name].disabled and form[name].value() not in (None, False)
    }
    data["deadline"] = form.initial["deadline"].astimezone(UTC).strftime(DEADLINE_INPUT_FORMAT)
    data.update(changes)
    return data


def test_the_edit_form_refuses_an_earlier_deadline_beside_the_field(client, moderator, open_round):
    client.force_login(moderator)
    with time_machine.travel(NOW, tick=False):
        earlier = (POSTED - timedelta(days=2)).strftime(DEADLINE_INPUT_FORMAT)
        response = client.post(
            f"/moderate/rounds/{open_round.pk}/edit/", form_data(client, open_round, deadline=earlier)
        )
    assert response.status_code == 200
    errors = response.context["form"].errors["deadline"]
    assert errors == [services.EARLIER_DEADLINE_REFUSED]
    html = response.content.decode()
    assert "can only move later" in html and "End submissions now" in html
    assert "While the round is open the deadline only moves later" in html  # said up front too
    open_round.refresh_from_db()
    assert open_round.deadline == POSTED
    assert not audit_trail(open_round).filter(action="round.changed").exists()


def test_saving_the_form_as_shown_keeps_a_deadline_set_to_the_second(client, moderator, open_round):
    """The box shows 20:00 for a deadline of 20:00:30: saving a new title must not move the deadline 30
    seconds earlier."""
    client.force_login(moderator)
    with time_machine.travel(NOW, tick=False):
        response = client.post(
            f"/moderate/rounds/{open_round.pk}/edit/", form_data(client, open_round, title="Renamed")
        )
    assert response.status_code == 302
    open_round.refresh_from_db()
    assert (open_round.title, open_round.deadline) == ("Renamed", POSTED)


def test_a_later_deadline_typed_in_the_form_is_saved(client, moderator, open_round):
    client.force_login(moderator)
    with time_machine.travel(NOW, tick=False):
        later = (POSTED + timedelta(days=1)).strftime(DEADLINE_INPUT_FORMAT)
        response = client.post(
            f"/moderate/rounds/{open_round.pk}/edit/", form_data(client, open_round, deadline=later)
        )
    assert response.status_code == 302
    open_round.refresh_from_db()
    assert open_round.deadline == datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
