"""API for hands (docs/api.md: Hands). The views translate HTTP to submissions.services and back; no rule
lives here."""

import functools

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.fields import SkipField, empty
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.api import Conflict
from phm.api_fields import Choice, Flag, Text, Whole
from phm.pagination import page_of, page_parameters, with_page_headers
from phm.schema import may_conflict, refine
from rounds.catalog.handlist import parse_hand_list
from rounds.catalog.resolve import is_known_card

from . import commitments, errors, selectors
from .models import HandVersion
from .services import inputs, preview, review, submit


class HandInputSerializer(serializers.Serializer):
    """Types only: `cards` (a list of names) or `list` (forum text, `Card / Card / Card`)."""

    name = Text(required=False, allow_blank=True, default="", max_length=500)
    cards = serializers.ListField(
        child=Text(allow_blank=True, max_length=500, trim_whitespace=False),
        required=False,
        max_length=inputs.MAX_CARD_INPUTS,
    )
    list = Text(required=False, allow_blank=True, max_length=5000)
    attest = Flag(
        required=False,
        default=False,
        help_text="True: you attest the rules this round asks (3.1, 7.5b, 7.6a); required when it asks any.",
    )
    decisions = serializers.DictField(
        required=False,
        default=dict,
        help_text="Rule 7.2b: {key: answer} for each decision the round defines.",
    )

    def validate(self, data):
        if "cards" not in data and "list" not in data:
            raise serializers.ValidationError(
                {"cards": ["Send `cards` (a list of names) or `list` (forum text)."]}
            )
        return data

    def card_inputs(self):
        if "cards" in self.validated_data:
            return self.validated_data["cards"]
        return parse_hand_list(self.validated_data["list"], is_card=is_known_card)

    def readable_parts(self):
        """After a failed validation: the parts of the hand whose own fields are valid, as
        submit.check_submission takes them (a part whose field is wrong is left out: its error is known)."""
        values = {}
        for name in ("name", "cards", "list", "attest", "decisions"):
            if name in self.errors:
                continue
            field = self.fields[name]
            raw = self.initial_data.get(name, empty) if hasattr(self.initial_data, "get") else empty
            try:
                values[name] = field.run_validation(raw)
            except (serializers.ValidationError, SkipField):
                continue
        parts = {}
        if "name" in values:
            parts["name"] = values["name"]
        if "cards" in values:
            parts["cards"] = values["cards"]
        elif "list" in values and "cards" not in self.errors:
            parts["cards"] = parse_hand_list(values["list"], is_card=is_known_card)
        if "attest" in values:
            parts["attested"] = submit.EVERY_LISTED_RULE if values["attest"] else ()
        if "decisions" in values:
            parts["decisions"] = values["decisions"]
        return parts


@refine("HandInputRequest")
def _cards_or_list(schema):
    """The hand as `cards` or as `list` (one of them at least)."""
    return {**schema, "anyOf": [{"required": ["cards"]}, {"required": ["list"]}]}


class MyHandSerializer(serializers.Serializer):
    round = Whole(source="hand.round_id")
    player = Text(source="hand.player.username")
    name = Text(source="hand.name")
    cards = serializers.ListField(source="version.cards", child=Text())
    commitment = Text(source="version.commitment")
    decisions = serializers.DictField(source="version.decisions")
    attested = serializers.ListField(source="version.attested", child=Text())
    submitted_at = serializers.DateTimeField(source="version.submitted_at")
    version = Whole(source="version.number")
    status = Text(source="hand.status")
    flagged = Flag(source="hand.flagged")
    flag_message = Text(source="hand.flag_message")
    notice = Text(source="hand.notice")
    replaced = Text(
        source="version.changes_note",
        allow_null=True,
        help_text="Rule 4.2a: what the moderator's similar hand removed or replaced; empty otherwise.",
    )
    card_changes = serializers.JSONField(source="version.card_changes")


class RevealedHandSerializer(serializers.Serializer):
    id = Whole()
    number = Whole(source="display_number")
    player = Text(source="player.username")
    name = Text()
    cards = serializers.ListField(source="current_version.cards", child=Text())
    decisions = serializers.DictField(source="current_version.decisions")
    commitment = Text(
        source="committed_version.commitment",
        allow_null=True,
        help_text="The commitment of the player's own last version — never of a version a moderator made "
        "(a similar hand, 4.2a): that is what the player committed to, and what the nonce verifies.",
    )
    nonce = serializers.SerializerMethodField()
    status = Text()
    notice = Text()
    committed_text = serializers.SerializerMethodField()
    replaced = serializers.SerializerMethodField(
        help_text="Rule 4.2a: the moderator's note of the cards their similar hand removed or replaced; null "
        "when the hand was not replaced."
    )
    card_changes = serializers.SerializerMethodField(
        help_text='{"removed": [names], "replaced": [{"card", "by"}], "added": [names]}, or null.'
    )
    decided_by_player = Flag(
        read_only=True,
        help_text="A moderator who plays in this round reviewed this hand (flag, notice, rename, disqualify "
        "or replace): allowed only where nobody else can manage the league, and shown publicly.",
    )

    def to_representation(self, hand):
        data = super().to_representation(hand)
        # The moderator's comment and the forum's accepted problems exist only after the reveal: a reviewing
        # moderator before the deadline gets neither key.
        if self.context["revealed"]:
            data["comment"] = hand.comment
            data["accepted_problems"] = list(hand.accepted_problems or [])
        return data

    def get_replaced(self, hand) -> str | None:
        version = hand.current_version
        return (version.changes_note or None) if version is not None else None

    def get_card_changes(self, hand) -> dict | None:
        version = hand.current_version
        return (version.card_changes or None) if version is not None and version.changes_note else None

    def get_nonce(self, hand) -> str | None:
        # Published at the reveal only: a reviewing moderator before the deadline sees cards, not nonces.
        version = hand.committed_version
        return version.nonce if self.context["revealed"] and version is not None else None

    def get_committed_text(self, hand) -> str | None:
        version = hand.committed_version
        return commitments.version_text(version) if self.context["revealed"] and version is not None else None


def _mine(hand, version):
    return {"hand": hand, "version": version}


@functools.cache
def _my_hand_fields():
    return list(MyHandSerializer()._readable_fields)


def my_hand_body(hand, version):
    """MyHandSerializer(_mine(hand, version)).data, with the serializer's fields bound once per process rather
    than deep-copied for every answer (what Serializer.to_representation does, field by field)."""
    instance, body = _mine(hand, version), {}
    for field in _my_hand_fields():
        attribute = field.get_attribute(instance)
        body[field.field_name] = None if attribute is None else field.to_representation(attribute)
    return body


def illegal_hand_body(verdict, field_errors=None):
    """400 body (docs/api.md): {"cards": [{"index","input","problem","suggestions"}]}, one per problem, and
    the request's other problems under their own fields (`attest`, `decisions`, `name`…) as a 400 of field
    errors has them: every problem in one answer."""
    entries = [
        {
            "index": card.index,
            "input": card.input,
            "problem": problem.message,
            "code": problem.code,
            "suggestions": list(card.suggestions),
        }
        for card in verdict.cards
        for problem in card.problems
    ]
    entries += [
        {"index": None, "input": "", "problem": problem.message, "code": problem.code, "suggestions": []}
        for problem in verdict.problems
    ]
    body = {"detail": "The hand is not legal for this round.", "code": "illegal_hand", "cards": entries}
    for field, problems in (field_errors or {}).items():
        body.setdefault(field, problems)  # never in place of the body's own members
    return body


SERVICE_ERRORS = (
    errors.HandNotFound,
    errors.ReviewNotAllowed,
    errors.HandInputError,
    errors.IllegalHand,
    errors.HandConflict,
)


def _error_response(error):
    """The API's answer to a service error (docs/api.md): 404 hidden or unknown, 403, 400, 409."""
    if isinstance(error, errors.IllegalHand):
        return Response(illegal_hand_body(error.verdict, error.errors), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(error, errors.HandNotFound):
        raise NotFound(str(error)) from error
    if isinstance(error, errors.ReviewNotAllowed):
        raise PermissionDenied(str(error)) from error
    if isinstance(error, errors.HandInputError):
        raise ApiValidationError(error.errors) from error
    raise Conflict(str(error)) from error


@may_conflict
class MyHandView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MyHandSerializer)
    def get(self, request, round_id):
        try:
            round_ = submit.submittable_round(round_id)
        except errors.HandNotFound as error:
            raise NotFound(str(error)) from error
        hand = selectors.own_hand(request.user, round_)
        if hand is None or hand.current_version is None:
            raise NotFound("You have no hand in this round.")
        return Response(my_hand_body(hand, hand.current_version))

    @extend_schema(request=HandInputSerializer, responses={200: MyHandSerializer, 201: MyHandSerializer})
    def put(self, request, round_id):
        incoming = HandInputSerializer(data=request.data)
        if not incoming.is_valid():
            return _every_problem(incoming, round_id)
        try:
            result = submit.submit_hand(
                player=request.user,
                round_id=round_id,
                name=incoming.validated_data["name"],
                cards=incoming.card_inputs(),
                attested=submit.EVERY_LISTED_RULE if incoming.validated_data["attest"] else (),
                decisions=incoming.validated_data["decisions"],
            )
        except SERVICE_ERRORS as error:
            return _error_response(error)
        code = status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
        return Response(my_hand_body(result.hand, result.version), status=code)


def _every_problem(incoming, round_id):
    """The 400 of a PUT whose fields are not all of the right type: those fields' errors, and with them what
    the submission service finds wrong with the fields that are (an illegal card, a missing attestation), so
    that one answer tells everything. A round that takes no hands leaves the field errors alone."""
    parts = incoming.readable_parts()
    check = submit.check_submission_to(round_id, **parts)
    field_errors = dict(incoming.errors)
    if check is not None:
        for field, problems in check.errors.items():
            field_errors.setdefault(field, problems)
        if check.verdict is not None and not check.verdict.legal:
            body = illegal_hand_body(check.verdict, field_errors)
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
    raise ApiValidationError(field_errors)


HANDS_PAGE, HANDS_MAX_PAGE = 500, 2000


class RoundHandsView(APIView):
    @extend_schema(
        responses=RevealedHandSerializer(many=True),
        parameters=page_parameters(HANDS_PAGE, HANDS_MAX_PAGE),
        description="The round's hands in entry order, a page at a time (docs/api.md: Pages of a list).",
    )
    @may_conflict  # a moderator of the league who has not declared they will not play (POST …/preview/)
    def get(self, request, round_id):
        now = timezone.now()
        try:
            round_ = submit.submittable_round(round_id)
        except errors.HandNotFound as error:
            raise NotFound(str(error)) from error
        if selectors.needs_declaration(request.user, round_, now):
            raise Conflict(preview.DECLARE_FIRST_MESSAGE.format(id=round_.pk))
        if not selectors.can_see_all_hands(request.user, round_, now):
            raise NotFound("The hands of this round are not revealed yet.")
        page = page_of(request, default=HANDS_PAGE, maximum=HANDS_MAX_PAGE)
        hands = selectors.hands_of_round(round_, page)
        context = {"revealed": selectors.is_revealed(round_, now)}
        response = Response(RevealedHandSerializer(hands, many=True, context=context).data)
        return with_page_headers(response, request, page, selectors.count_hands(round_))


class PreviewSerializer(serializers.Serializer):
    round = Whole()
    moderator = Text()
    declared_at = serializers.DateTimeField(
        allow_null=True, help_text="Null past the deadline: nothing to declare."
    )
    plays = Flag(help_text="Always false: a moderator who saw the hands may not play.")


@may_conflict
class RoundPreviewView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: PreviewSerializer},
        summary="Declare you will not play in the round, and see its hands before the deadline",
    )
    def post(self, request, round_id):
        try:
            declared = preview.declare_not_playing(moderator=request.user, round_id=round_id)
        except SERVICE_ERRORS as error:
            return _error_response(error)
        body = {
            "round": round_id,
            "moderator": request.user.get_username(),
            "declared_at": declared.first_seen_at if declared else None,
            "plays": False,
        }
        return Response(PreviewSerializer(body).data)


class ReviewInputSerializer(serializers.Serializer):
    action = Choice(choices=review.REVIEW_ACTIONS)
    message = Text(required=False, allow_blank=True, default="", max_length=2000)
    cards = serializers.ListField(
        child=Text(max_length=500), required=False, max_length=inputs.MAX_CARD_INPUTS
    )
    name = Text(required=False, allow_blank=True, default="", max_length=500)


@may_conflict
@refine("ReviewInputRequest")
def _what_each_action_needs(schema):
    """A flag says what is wrong, a rename gives the name, a replacement its cards; the rest need nothing."""

    def action(kind, needed=None, schema=None):
        properties = {"action": {"const": kind}, **({needed: schema} if needed else {})}
        return {"properties": properties, "required": ["action", *([needed] if needed else [])]}

    nonblank = {"minLength": 1, "pattern": "\\S"}
    needs = [
        action("flag", "message", nonblank),
        action("rename", "name", nonblank),
        action("replace", "cards", {"minItems": 1}),
        *(action(kind) for kind in review.REVIEW_ACTIONS if kind not in ("flag", "rename", "replace")),
    ]
    return {**schema, "oneOf": needs}


@may_conflict
class HandReviewView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReviewInputSerializer, responses=MyHandSerializer)
    def post(self, request, hand_id):
        try:
            review.reviewable_hand(request.user, hand_id)
        except SERVICE_ERRORS as error:
            return _error_response(error)
        incoming = ReviewInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            hand = review.review_hand(actor=request.user, hand_id=hand_id, **incoming.validated_data)
        except SERVICE_ERRORS as error:
            return _error_response(error)
        version = HandVersion.objects.filter(hand=hand, is_current=True).first()
        return Response(MyHandSerializer(_mine(hand, version)).data)
