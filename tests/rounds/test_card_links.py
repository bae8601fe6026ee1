"""Card names as links with a preview (`{% card %}`), the preview fragment, card texts face by face, and the
optional card images (CARD_IMAGES)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.template import Context, Template

from rounds.catalog import texts
from rounds.templatetags.card_links import card_image_url

pytestmark = pytest.mark.django_db

PROJECT_DIR = Path(__file__).resolve().parents[2]


def render(source, **context):
    return Template("{% load card_links %}" + source).render(Context(context))


def test_a_known_card_links_to_its_page_with_the_preview_class(catalog_index):
    html = render("{% card name %}", name="Black Lotus")
    assert html == '<a class="phm-card" href="/cards/black-lotus/">Black Lotus</a>'


def test_a_link_without_preview_where_the_text_is_shown_beside_it(catalog_index):
    assert render("{% card 'Black Lotus' preview=False %}") == '<a href="/cards/black-lotus/">Black Lotus</a>'


def test_a_name_the_catalog_does_not_know_is_plain_escaped_text(catalog_index):
    assert render("{% card name %}", name="Brand <New> Card") == "Brand &lt;New&gt; Card"
    assert render("{% card name %}", name="") == ""
    assert render("{% card name %}", name=None) == ""


def test_split_cards_keep_both_halves_and_other_faces_show_the_front(catalog_index):
    assert (
        render("{% card 'Wear // Tear' %}") == '<a class="phm-card" href="/cards/wear-tear/">Wear // Tear</a>'
    )
    # A double-faced card's full Oracle name is shown the way players write it, by its front face.
    delver = render("{% card 'Delver of Secrets // Insectile Aberration' %}")
    assert delver == '<a class="phm-card" href="/cards/delver-of-secrets/">Delver of Secrets</a>'
    # A face name finds the card and is shown as typed.
    assert 'href="/cards/wear-tear/">Tear</a>' in render("{% card 'Tear' %}")


def test_links_cost_no_query_whatever_the_number_of_cards(catalog_index, django_assert_num_queries):
    names = ["Black Lotus", "Mox Pearl", "Wear // Tear", "Not A Card At All", "Time Walk"] * 40
    with django_assert_num_queries(0):
        html = render("{% for name in names %}{% card name %}{% endfor %}", names=names)
    assert html.count('class="phm-card"') == 160 and html.count("Not A Card At All") == 40


def test_card_texts_reads_every_face_in_one_query(catalog_index, django_assert_num_queries):
    with django_assert_num_queries(1):
        found = texts.card_texts(["Wear // Tear", "Black Lotus", "Bonecrusher Giant", "Unknown Thing"])
    assert set(found) == {"Wear // Tear", "Black Lotus", "Bonecrusher Giant"}
    wear = found["Wear // Tear"]
    assert [(face.name, face.mana_cost, face.type_line) for face in wear.faces] == [
        ("Wear", "{1}{R}", "Instant"),
        ("Tear", "{W}", "Instant"),
    ]
    assert wear.faces[0].text.startswith("Destroy target artifact.")
    assert wear.faces[1].text.startswith("Destroy target enchantment.")
    giant = found["Bonecrusher Giant"]
    assert [face.name for face in giant.faces] == ["Bonecrusher Giant", "Stomp"]
    assert "Adventure" in giant.faces[1].type_line
    lotus = found["Black Lotus"]
    assert not lotus.multi_face and lotus.mana_cost == "{0}" and lotus.url == "/cards/black-lotus/"
    with django_assert_num_queries(0):
        assert texts.card_texts(["Unknown Thing", ""]) == {}


def test_a_double_faced_back_without_mana_cost_keeps_its_faces_apart(catalog_index):
    delver = texts.card_texts(["Delver of Secrets"])["Delver of Secrets"]
    front, back = delver.faces
    assert (front.name, front.mana_cost, back.name, back.mana_cost) == (
        "Delver of Secrets",
        "{U}",
        "Insectile Aberration",
        "",
    )
    assert back.text == "Flying" and delver.text.endswith("\n//\nFlying")


def test_the_preview_fragment_is_public_cacheable_catalog_text(client, catalog_index):
    response = client.get("/cards/wear-tear/preview/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "public" in response["Cache-Control"] and "max-age=3600" in response["Cache-Control"]
    body = response.content.decode()
    assert "<html" not in body and "<nav" not in body  # a fragment, not a page
    assert (
        "Wear // Tear" in body
        and "Destroy target artifact." in body
        and "Destroy target enchantment." in body
    )
    assert "{1}{R}" in body and "{W}" in body
    assert "<img" not in body  # CARD_IMAGES is off by default: nothing from elsewhere
    assert client.get("/cards/no-such-card-here/preview/").status_code == 404
    assert client.post("/cards/wear-tear/preview/").status_code == 405


def test_the_preview_is_small(client, catalog_index):
    """A preview is fetched once per card on hover: it stays a few hundred bytes, not a page."""
    body = client.get("/cards/black-lotus/preview/").content
    assert len(body) < 800, len(body)


def test_a_card_without_oracle_text_says_so(client, catalog_index):
    from rounds.models import Card

    card = (
        Card.objects.filter(oracle_text="", data_quality="partial")
        .exclude(type_line="")
        .order_by("name")
        .first()
    )
    body = client.get(f"/cards/{card.slug}/preview/").content.decode()
    assert "The catalog has no Oracle text for this card yet." in body


def test_a_card_with_no_rules_text_is_not_said_to_miss_its_oracle_text(client, catalog_index):
    """Savannah Lions has a complete record and no rules text: the page says so, it does not blame the data."""
    for path in ("/cards/savannah-lions/preview/", "/cards/savannah-lions/"):
        body = client.get(path).content.decode()
        assert "No rules text." in body, path
        assert "no Oracle text" not in body, path


def test_card_images_are_off_by_default_and_by_name_from_scryfall_when_on(settings, client, catalog_index):
    assert card_image_url("Black Lotus") is None
    settings.CARD_IMAGES = True
    assert card_image_url("Wear // Tear") == (
        "https://api.scryfall.com/cards/named?exact=Wear+%2F%2F+Tear&format=image&version=normal"
    )
    preview = client.get("/cards/wear-tear/preview/").content.decode()
    assert 'src="https://api.scryfall.com/cards/named?exact=Wear+%2F%2F+Tear&amp;format=image' in preview
    assert "Destroy target artifact." in preview  # the text stays: the fallback when the image fails
    page = client.get("/cards/black-lotus/").content.decode()
    assert "https://api.scryfall.com/cards/named?exact=Black+Lotus" in page and "data-card-image" in page


def test_the_card_page_loads_no_image_by_default(client, catalog_index):
    assert "data-card-image" not in client.get("/cards/black-lotus/").content.decode()


PROBE = """
import json
from django.conf import settings
print(json.dumps({"images": settings.CARD_IMAGES,
                  "img_src": settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["img-src"]}))
"""


@pytest.mark.parametrize(
    ("value", "images", "img_src"),
    [
        (None, False, ["'self'", "data:"]),
        ("0", False, ["'self'", "data:"]),
        ("1", True, ["'self'", "data:", "https://api.scryfall.com", "https://cards.scryfall.io"]),
    ],
)
def test_the_policy_allows_scryfall_images_only_when_card_images_is_on(value, images, img_src):
    env = {key: item for key, item in os.environ.items() if key != "CARD_IMAGES"}
    env.update(DJANGO_SETTINGS_MODULE="phm.settings", DEBUG="1")
    if value is not None:
        env["CARD_IMAGES"] = value
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"images": images, "img_src": img_src}
