"""Card and banned-list endpoints (docs/api.md: Rounds and cards). Thin: the resolver and
services do the work."""

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.api_fields import Choice, Text
from phm.query import whole_number_parameter

from .cardquery import QuerySyntaxError, is_filter_query, search_cards_by_query
from .catalog.resolve import AUTOCOMPLETE_LIMIT, resolve_name, search_cards
from .services import catalog as services

MAX_QUERY_LENGTH = 200
QUERY_PAGE_SIZE = 50
QUERY_MAX_LIMIT = 200


def _mana_value(value):
    """1.0 → 1 so clients see the mana value as players do; half points (Un-cards) stay 0.5."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


class CardSummarySerializer(serializers.Serializer):
    name = Text()
    type_line = Text()
    mana_value = serializers.FloatField(allow_null=True)


class ResolvedCardSerializer(CardSummarySerializer):
    oracle_name = Text()
    slug = Text()
    url = Text()


class ResolutionSerializer(serializers.Serializer):
    input = Text()
    status = Choice(choices=["exact", "normalized", "fuzzy", "unknown"])
    card = ResolvedCardSerializer(allow_null=True)
    suggestions = serializers.ListField(child=Text())
    scores = serializers.ListField(
        child=inline_serializer("SuggestionScore", {"name": Text(), "score": serializers.FloatField()})
    )
    catalog_as_of = serializers.DateField(allow_null=True)


class BannedListSerializer(serializers.Serializer):
    key = Text()
    name = Text()
    cards = serializers.ListField(
        child=inline_serializer(
            "BannedListCard",
            {
                "name": Text(),
                "category": Text(),
                "category_key": Text(),
            },
        )
    )


def _text_param(request, name, *, required):
    value = request.query_params.get(name)
    if value is None:
        if required:
            raise ValidationError({name: [f"The {name!r} query parameter is required."]})
        return ""
    if len(value) > MAX_QUERY_LENGTH:
        raise ValidationError({name: [f"At most {MAX_QUERY_LENGTH} characters."]})
    return value


def card_summary(card):
    return {"name": card.name, "type_line": card.type_line, "mana_value": _mana_value(card.mana_value)}


def resolution_data(resolution, as_of):
    card = resolution.card
    return {
        "input": resolution.input,
        "status": resolution.status,
        "card": None
        if card is None
        else {
            **card_summary(card),
            "oracle_name": card.oracle_name,
            "slug": card.slug,
            "url": reverse("rounds:card-detail", kwargs={"slug": card.slug}),
        },
        "suggestions": resolution.suggestion_names,
        "scores": [
            {"name": suggestion.name, "score": suggestion.score} for suggestion in resolution.suggestions
        ],
        "catalog_as_of": as_of,
    }


class CardSearchView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Autocomplete card names, or filter the catalog with a Scryfall-style query",
        description=(
            f"A plain name: up to {AUTOCOMPLETE_LIMIT} cards (a list), the likeliest first: the card named "
            "`q`, then those in whose name (or a face name) every word of `q` starts a word, in order, then "
            "those whose name contains `q`; among equals the cards in the most revealed hands here, then the "
            'most reprinted. A query with filter syntax (`t:dragon mv<=3 -c:u`, `o:"draw a card"`, '
            '`or`, parentheses): `{"results": [...], "total", "limit", "offset"}` sorted by name; '
            '400 `{"detail", "position"}` (0-based) when it does not parse. Syntax: README, Card search.'
        ),
        parameters=[
            OpenApiParameter(
                "q",
                {"type": "string", "maxLength": MAX_QUERY_LENGTH},
                required=True,
                description="What has been typed so far, or a query.",
            ),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": QUERY_MAX_LIMIT},
                description=f"Results per page (default {QUERY_PAGE_SIZE}).",
            ),
            OpenApiParameter(
                "offset",
                {"type": "integer", "minimum": 0, "maximum": 10**6},
                description="Query results to skip.",
            ),
        ],
        responses=CardSummarySerializer(many=True),
    )
    def get(self, request):
        query = _text_param(request, "q", required=True)
        limit = whole_number_parameter(
            request, "limit", default=QUERY_PAGE_SIZE, lowest=1, highest=QUERY_MAX_LIMIT
        )
        offset = whole_number_parameter(request, "offset", default=0, lowest=0, highest=10**6)
        if not is_filter_query(query):
            return Response([card_summary(card) for card in search_cards(query)])
        try:
            cards, total = search_cards_by_query(query, limit=limit, offset=offset)
        except QuerySyntaxError as error:
            return Response(
                {"detail": error.message, "position": error.position, "code": "query_syntax"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(
            {
                "results": [
                    {
                        **card_summary(card),
                        "slug": card.slug,
                        "url": reverse("rounds:card-detail", kwargs={"slug": card.slug}),
                    }
                    for card in cards
                ],
                "total": total,
                "limit": limit,
                "offset": offset,
            }
        )


class CardResolveView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Resolve a typed card name",
        description=(
            "exact (case-insensitive) → normalized (accents, quotes, punctuation, `//` spacing, face "
            "names) → fuzzy. A fuzzy match is never accepted: `card` is null and `suggestions` (best "
            "first) must be confirmed by the user. `unknown`: nothing close enough; the catalog may lack "
            "a new card."
        ),
        parameters=[
            OpenApiParameter(
                "name",
                {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_LENGTH},
                required=True,
                description="The card name as typed.",
            )
        ],
        responses=ResolutionSerializer,
    )
    def get(self, request):
        name = _text_param(request, "name", required=True)
        if not name.strip():
            raise ValidationError({"name": ["A card name is required."]})
        return Response(resolution_data(resolve_name(name), services.catalog_as_of()))


class BannedListsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="The PHM and Land Rule banned lists", responses=BannedListSerializer(many=True))
    def get(self, request):
        return Response(
            [
                {
                    "key": banned_list.key,
                    "name": banned_list.name,
                    "cards": [
                        {
                            "name": entry.card_name,
                            "category": entry.get_category_display(),
                            "category_key": entry.category,
                        }
                        for entry in banned_list.entries.all()
                    ],
                }
                for banned_list in services.banned_lists()
            ]
        )
