"""Fuzzing the main endpoints: random strings (NUL and other control characters, huge strings, Unicode oddities,
BBCode, nested and broken JSON) in every field of the API and of the HTML forms, sent as the users allowed to
use them. Whatever comes in, the answer is never a 5xx."""

import json
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services import register_player
from scoring.models import Challenge
from scoring.services.table import build_match_table
from submissions.models import Hand
from tests import builders
from tests.factories import RoundFactory
from tests.scoring.conftest import make_hands, match_between

pytestmark = pytest.mark.django_db

FUZZ_SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)

# Text a browser can send (no lone surrogates: they cannot be encoded in a form).
PLAIN = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40)
CONTROLS = st.text(alphabet=st.characters(max_codepoint=0x9F), min_size=1, max_size=12)
ODD = st.sampled_from(
    [
        "",
        "\x00",
        "a\x00b",
        "\x1b[2J\x07",
        "\u202eevil\u202c",
        "\u200b\u200d\ufeff",
        "\u2066\u2069",
        "\uffff\ufffe",
        "\U0001d518\U0001d52b\U0001d526 \U0001f0a1",
        "e\u0301" * 50,
        "[/code][url=http://evil.example]x[/url]",
        "[img]http://evil.example/x.png[/img]",
        '=HYPERLINK("http://evil.example")',
        "' OR 1=1 --",
        "%00",
        "../../etc/passwd",
        "{{ 7|add:7 }}",
        "<script>alert(1)</script>",
        "9999-12-31T23:59",
        "0001-01-01T00:00",
        "-1",
        "99999999999999999999999",
        "1e309",
        "NaN",
        "Black Lotus / Mox Pearl / Mox Sapphire / Mox Jet / Mox Ruby",
        "6-0",
        "\n".join(["Black Lotus"] * 600),
    ]
)
HUGE = st.sampled_from(["x" * 100_000, "[" * 20_000, "名" * 30_000, "Black Lotus\n" * 5_000])
FORM_TEXT = st.one_of(PLAIN, CONTROLS, ODD, HUGE)
# JSON may also carry lone surrogates (`"\ud800"`), numbers of any size and nested values.
JSON_TEXT = st.one_of(FORM_TEXT, st.text(max_size=20))
JSON_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), JSON_TEXT)
JSON_VALUE = st.recursive(
    JSON_SCALAR,
    lambda children: st.lists(children, max_size=8) | st.dictionaries(PLAIN, children, max_size=4),
    max_leaves=12,
)
RAW_JSON = st.sampled_from(
    [
        "[" * 50_000,
        "{" * 1_000,
        '{"a":' * 5_000,
        "{",
        "",
        "null",
        "[]",
        '"\\ud800"',
        "\x00",
        "\ufeff{}",
        "1e999",
    ]
)


@dataclass
class Endpoint:
    name: str
    method: str  # get (query string), post/put/patch (body)
    path: str  # formatted with the world's ids
    who: str  # anon, player, outsider, moderator
    fields: dict  # field name -> strategy of sensible values (mixed with hostile ones)
    json: bool = True


@dataclass(frozen=True)
class Ref:
    """The id of one of the world's objects (league, open, revealed, match, challenge, hand)."""

    key: str


def _choices(*values):
    return st.sampled_from(values)


CARD_LIST = st.lists(st.one_of(st.sampled_from(["Black Lotus", "Mox Pearl", "Karakas"]), PLAIN), max_size=9)
FUTURE = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")

API = [
    Endpoint(
        "my-hand",
        "put",
        "/api/rounds/{open}/my-hand/",
        "outsider",
        {"name": PLAIN, "cards": CARD_LIST, "list": ODD},
    ),
    Endpoint(
        "reports",
        "post",
        "/api/matches/{match}/reports/",
        "player",
        {"points_a": _choices(6, 4, 2, 1, 0), "points_b": _choices(0, 1, 2, 4, 6), "comment": PLAIN},
    ),
    Endpoint("challenges", "post", "/api/matches/{match}/challenges/", "player", {"reason": PLAIN}),
    Endpoint(
        "resolve",
        "post",
        "/api/challenges/{challenge}/resolve/",
        "moderator",
        {
            "decision": _choices("upheld", "rejected"),
            "points_a": _choices(6, 0),
            "points_b": _choices(0, 6),
            "note": PLAIN,
        },
    ),
    Endpoint(
        "result",
        "put",
        "/api/matches/{match}/result/",
        "moderator",
        {"points_a": _choices(6, 0), "points_b": _choices(0, 6), "note": PLAIN},
    ),
    Endpoint(
        "bonus",
        "post",
        "/api/rounds/{revealed}/bonus/",
        "moderator",
        {"player": _choices("p1", "p2"), "points": st.integers(), "reason": PLAIN},
    ),
    Endpoint(
        "rows",
        "post",
        "/api/rounds/{revealed}/rows/",
        "player",
        {"row": _choices("1 | X 6 | PT | Points", "1 | X ?")},
    ),
    Endpoint("reopen", "post", "/api/rounds/{revealed}/reopen/", "moderator", {"reason": PLAIN}),
    Endpoint("finalize", "post", "/api/rounds/{revealed}/finalize/", "moderator", {"force": st.booleans()}),
    Endpoint(
        "round-create",
        "post",
        "/api/rounds/",
        "moderator",
        {
            "league": st.just(Ref("league")),
            "title": PLAIN,
            "hand_size": st.integers(),
            "deadline": _choices(FUTURE, "9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00"),
            "land_rule": _choices("none", "LR", "ELR", "DLR"),
            "extra_banned": CARD_LIST,
            "allowed_sets": st.lists(PLAIN, max_size=5),
            "sanctioned_format": _choices("modern", "chess", None),
            "format_rule": PLAIN,
            "commentary": PLAIN,
            "bonus_rule": PLAIN,
            "backbuild_hands": PLAIN,
        },
    ),
    Endpoint(
        "round-patch",
        "patch",
        "/api/rounds/{open}/",
        "moderator",
        {
            "title": PLAIN,
            "deadline": _choices(FUTURE, "9999-12-31T23:59:59Z"),
            "extra_banned": CARD_LIST,
            "format_rule": PLAIN,
            "commentary": PLAIN,
        },
    ),
    Endpoint(
        "league-create",
        "post",
        "/api/leagues/",
        "moderator",
        {"name": PLAIN, "rounds_planned": st.integers()},
    ),
    Endpoint(
        "review",
        "post",
        "/api/hands/{hand}/review/",
        "moderator",
        {
            "action": _choices("flag", "unflag", "notice", "rename"),
            "message": PLAIN,
            "cards": CARD_LIST,
            "name": PLAIN,
        },
    ),
    Endpoint("token", "post", "/api/auth/token/", "anon", {"username": _choices("p1"), "password": PLAIN}),
    Endpoint("card-search", "get", "/api/cards/", "anon", {"q": PLAIN}),
    Endpoint("card-resolve", "get", "/api/cards/resolve/", "anon", {"name": PLAIN}),
]

FORMS = [
    Endpoint(
        "sign-up",
        "post",
        "/accounts/sign-up/",
        "anon",
        {
            "username": PLAIN,
            "forum_username": PLAIN,
            "email": PLAIN,
            "time_zone": _choices("UTC", "Europe/Paris"),
            "password1": PLAIN,
            "password2": PLAIN,
        },
        json=False,
    ),
    Endpoint(
        "profile",
        "post",
        "/accounts/profile/",
        "player",
        {"email": PLAIN, "forum_username": PLAIN, "time_zone": _choices("UTC", "Asia/Tokyo")},
        json=False,
    ),
    Endpoint(
        "match",
        "post",
        "/matches/{match}/",
        "player",
        {
            "action": _choices("report", "challenge"),
            "result": _choices("6-0", "0-6", "2-2"),
            "comment": PLAIN,
            "reason": PLAIN,
        },
        json=False,
    ),
    Endpoint(
        "match-moderator",
        "post",
        "/matches/{match}/",
        "moderator",
        {
            "action": _choices("set", "resolve"),
            "result": _choices("6-0", "2-2"),
            "note": PLAIN,
            "decision": _choices("upheld", "rejected"),
            "challenge": st.just(Ref("challenge")),
        },
        json=False,
    ),
    Endpoint(
        "results-row",
        "post",
        "/rounds/{revealed}/results/",
        "player",
        {"row": _choices("1 | X 6 | PT | Points")},
        json=False,
    ),
    Endpoint(
        "moderate-results",
        "post",
        "/moderate/rounds/{revealed}/results/",
        "moderator",
        {
            "action": _choices("bonus", "reopen", "finalize"),
            "player": _choices("p1", "p2"),
            "points": st.integers().map(str),
            "reason": PLAIN,
            "force": _choices("on"),
        },
        json=False,
    ),
    Endpoint(
        "round-form",
        "post",
        "/moderate/rounds/new/",
        "moderator",
        {
            "league": st.just(Ref("league")),
            "title": PLAIN,
            "hand_size": _choices("1", "5", "7", "99"),
            "deadline": _choices(FUTURE, "9999-12-31T23:59", "0001-01-01T00:00"),
            "land_rule": _choices("none", "LR"),
            "extra_banned": _choices("Black Lotus", "Mox Pearl / Karakas"),
            "allowed_sets": _choices("ISD, DKA", "ZZZ"),
            "format_rule": PLAIN,
            "bonus_rule": PLAIN,
            "commentary": PLAIN,
            "backbuild_hands": PLAIN,
            "open": _choices("1"),
        },
        json=False,
    ),
    Endpoint(
        "round-edit",
        "post",
        "/moderate/rounds/{open}/edit/",
        "moderator",
        {
            "title": PLAIN,
            "deadline": _choices(FUTURE, "9999-12-31T23:59"),
            "hand_size": _choices("5"),
            "land_rule": _choices("none"),
            "extra_banned": PLAIN,
            "format_rule": PLAIN,
        },
        json=False,
    ),
    Endpoint(
        "extend",
        "post",
        "/moderate/rounds/{open}/extend/",
        "moderator",
        {"deadline": _choices(FUTURE, "9999-12-31T23:59")},
        json=False,
    ),
    Endpoint(
        "league-form",
        "post",
        "/moderate/leagues/new/",
        "moderator",
        {"name": PLAIN, "rounds_planned": _choices("4", "0", "999999999999")},
        json=False,
    ),
    Endpoint(
        "winners",
        "post",
        "/moderate/leagues/{league}/winners/",
        "moderator",
        {"winners": _choices("p1"), "note": PLAIN},
        json=False,
    ),
    Endpoint(
        "my-hand-form",
        "post",
        "/rounds/{open}/my-hand/",
        "outsider",
        {
            "name": PLAIN,
            "paste": PLAIN,
            "attest": _choices("on"),
            "fill": _choices("1"),
            "card_1": PLAIN,
            "card_2": PLAIN,
            "card_5": PLAIN,
        },
        json=False,
    ),
    Endpoint(
        "review-form",
        "post",
        "/moderate/hands/{hand}/review/",
        "moderator",
        {"action": _choices("flag", "rename", "notice"), "message": PLAIN, "cards": PLAIN, "name": PLAIN},
        json=False,
    ),
    Endpoint(
        "archive-import",
        "post",
        "/moderate/archive/import/",
        "moderator",
        {
            "league": st.just(Ref("league")),
            "post": PLAIN,
            "table": PLAIN,
            "understood": PLAIN,
            "round_code": _choices("45:01", "0", "99999999:9", "x"),
            "round_hand_size": _choices("5", "0", "99"),
            "round_deadline": _choices("2020-01-01", "0001-01-01", "9999-12-31T00:00", "never"),
            "round_land_rule": _choices("LR", "none", "??"),
            "round_extra_banned": PLAIN,
            "standings": _choices("counts", "archive", "maybe"),
            "player-1": PLAIN,
            "player-1-name": PLAIN,
            "action": _choices("preview", "import"),
        },
        json=False,
    ),
    Endpoint(
        "archive-preview-api",
        "post",
        "/api/archive/preview/",
        "moderator",
        {
            "league": st.just(Ref("league")),
            "post": PLAIN,
            "table": PLAIN,
            "round": st.fixed_dictionaries(
                {},
                optional={
                    "code": PLAIN,
                    "hand_size": st.integers(-5, 100),
                    "deadline": _choices("2020-01-01", "9999-12-31T00:00", "never"),
                    "land_rule": PLAIN,
                    "extra_banned": st.lists(PLAIN, max_size=3),
                },
            ),
            "players": st.dictionaries(PLAIN, PLAIN, max_size=2),
        },
    ),
    Endpoint(
        "archive-import-api",
        "post",
        "/api/archive/import/",
        "moderator",
        {"league": st.just(Ref("league")), "post": PLAIN, "counts_in_standings": st.booleans()},
    ),
    Endpoint("verify", "post", "/hands/verify/", "anon", {"text": PLAIN, "commitment": PLAIN}, json=False),
    Endpoint("card-page-search", "get", "/cards/", "anon", {"q": PLAIN}, json=False),
    Endpoint("card-check", "get", "/cards/check/", "anon", {"name": PLAIN, "q": PLAIN}, json=False),
]


@pytest.fixture
def world(league, moderator, password):
    """A league with an open round (one hand in it, for review) and a revealed round of two hands with their
    match and an open challenge; a client per kind of user."""
    p1 = register_player(username="p1", password=password, forum_username="Forum p1")
    p2 = register_player(username="p2", password=password, forum_username="Forum p2")
    outsider = register_player(username="outsider", password=password)
    open_round = builders.open_round(
        league=league,
        actor=moderator,
        now=timezone.now(),
        title="Open",
        hand_size=5,
        deadline=timezone.now() + timedelta(days=2),
    )
    make_hands(open_round, [p2])
    revealed = RoundFactory(league=league, number=99)
    make_hands(revealed, [p1, p2])
    revealed.deadline = timezone.now() - timedelta(minutes=1)
    revealed.save(update_fields=["deadline"])
    build_match_table(revealed.pk)
    match = match_between(revealed, 1, 2)
    challenge = Challenge.objects.create(match=match, challenger=outsider, reason="Fuzzing")
    clients = {}
    for who, user in {"anon": None, "player": p1, "outsider": outsider, "moderator": moderator}.items():
        client = Client()
        client.raise_request_exception = False  # a 500 is a status here, not an exception
        if user is not None:
            client.force_login(user)
        clients[who] = client
    ids = {
        "league": league.pk,
        "open": open_round.pk,
        "revealed": revealed.pk,
        "match": match.pk,
        "challenge": challenge.pk,
        "hand": Hand.objects.get(round=open_round).pk,
    }
    return clients, ids


def _value(value, ids):
    return ids[value.key] if isinstance(value, Ref) else value


def _body(draw, endpoint, ids):
    as_text = not endpoint.json or endpoint.method == "get"  # forms and query strings carry only text
    hostile = FORM_TEXT if as_text else JSON_VALUE
    body = {}
    for name, sensible in endpoint.fields.items():
        choice = draw(st.sampled_from(["skip", "sensible", "hostile"]))
        if choice == "sensible":
            body[name] = _value(draw(sensible), ids)
        elif choice == "hostile":
            body[name] = draw(hostile)
    if not as_text and draw(st.booleans()):
        body[draw(PLAIN)] = draw(JSON_VALUE)  # a field nobody asked for
    if as_text:
        body = {name: value if isinstance(value, str) else str(value) for name, value in body.items()}
    return body


def _send(client, endpoint, path, body):
    if endpoint.method == "get":
        return client.get(path, body)
    if not endpoint.json:
        return client.post(path, body)
    data = body if isinstance(body, str) else json.dumps(body)
    return getattr(client, endpoint.method)(path, data, content_type="application/json")


def _fuzz(world, endpoint, data):
    clients, ids = world
    path = endpoint.path.format(**ids)
    if endpoint.json and endpoint.method != "get" and data.draw(st.integers(0, 5)) == 0:
        body = data.draw(RAW_JSON)
    else:
        body = _body(data.draw, endpoint, ids)
    response = _send(clients[endpoint.who], endpoint, path, body)
    assert response.status_code < 500, (
        endpoint.name,
        body if len(repr(body)) < 2000 else "(large)",
        response,
    )


@pytest.mark.parametrize("endpoint", API, ids=[endpoint.name for endpoint in API])
@FUZZ_SETTINGS
@given(data=st.data())
def test_api_fields_never_cause_a_server_error(world, endpoint, data):
    _fuzz(world, endpoint, data)


@pytest.mark.parametrize("endpoint", FORMS, ids=[endpoint.name for endpoint in FORMS])
@FUZZ_SETTINGS
@given(data=st.data())
def test_form_fields_never_cause_a_server_error(world, endpoint, data):
    _fuzz(world, endpoint, data)
