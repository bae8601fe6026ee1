"""API for the cards a round's moderator accepted (rule 3.2a, docs/api.md: Rounds and cards). The views call
rounds.services.catalog."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.api_fields import Flag, StrictModelSerializer, Text
from phm.schema import may_conflict

from .models import AcceptedCard
from .round_api import require_manager, round_for
from .services import catalog as catalog_services


class AcceptedCardSerializer(StrictModelSerializer):
    accepted_by = Text(source="accepted_by.username", read_only=True)
    not_in_catalog = Flag(
        write_only=True,
        required=False,
        default=False,
        help_text="True: the name is a real card the card catalog lacks (too new for it, or one of its "
        "gaps); without it a name the catalog does not know is refused with suggestions.",
    )

    class Meta:
        model = AcceptedCard
        fields = ["id", "name", "reason", "accepted_by", "accepted_at", "not_in_catalog"]
        read_only_fields = ["id", "accepted_by", "accepted_at"]


@may_conflict
class RoundAcceptedCardsView(APIView):
    """Rule 3.2a: cards the league's moderator accepted for this round: in the catalog but not yet released (a
    previewed card), or a real card the catalog lacks (`not_in_catalog`). POST answers 400, saying why, for a
    card legal or banned in Vintage, one already released, digital-only, silver-bordered or acorn, and for a
    name the catalog does not know unless `not_in_catalog` confirms it."""

    @extend_schema(responses=AcceptedCardSerializer(many=True))
    def get(self, request, round_id):
        round_ = round_for(request, round_id)
        cards = round_.accepted_cards.select_related("accepted_by")
        return Response(AcceptedCardSerializer(cards, many=True).data)

    @extend_schema(request=AcceptedCardSerializer, responses={201: AcceptedCardSerializer})
    def post(self, request, round_id):
        round_ = round_for(request, round_id)
        require_manager(request, round_.league)
        incoming = AcceptedCardSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        # The accepted-card errors answer themselves: 403 with who can do it, 404 for no such accepted card,
        # 409 when the round's state stands in the way, 400 with the reason as the `name` field's problem.
        accepted = catalog_services.accept_unknown_card(
            round_,
            name=incoming.validated_data["name"],
            by=request.user,
            reason=incoming.validated_data["reason"],
            not_in_catalog=incoming.validated_data["not_in_catalog"],
        )
        return Response(AcceptedCardSerializer(accepted).data, status=status.HTTP_201_CREATED)


@may_conflict
class RoundAcceptedCardView(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, round_id, card_id):
        round_ = round_for(request, round_id)
        require_manager(request, round_.league)
        catalog_services.withdraw_accepted_card(round_, card_id=card_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
