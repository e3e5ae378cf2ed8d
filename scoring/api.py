"""The scoring API under /api/: the same services and selectors as the pages.

Errors are JSON {"error": {"code", "message", "fields"?}} with the engine's and the
services' codes. Match endpoints accept logged-in users (session or token) and browsers
that opened a table link; who may do what is decided by scoring.access and the services.
"""

from __future__ import annotations

import functools

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from ginclub.api_errors import error_body
from scoring import access, ledger, selectors, services
from scoring import serializers as s
from ginclub.errors import Forbidden, ServiceError
from scoring.hands import hand_input_from
from scoring.models import Club, Hand, Match, Player
from scoring.rules import RulesError

ERRORS = {
    code: OpenApiResponse(description=text)
    for code, text in {
        400: "Bad input: {error: {code, message, fields?}}",
        403: "Not allowed",
        404: "Not found",
        409: "Conflict: closed match, stale version, reused idempotency key...",
    }.items()
}


def api_errors(view):
    """Turn the services' and the engine's typed errors into the API's error shape."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            return Response(error.as_dict(), status=error.status)
        except RulesError as error:
            return Response(error_body(error.code, error.message), status=400)

    return wrapper


def _valid(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _visible_match(request: Request, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("club", "player_a", "player_b"), pk=match_id
    )
    access.require_view(request, match)
    return match


def _actor(request: Request, match: Match, data: dict) -> services.Actor:
    """The request's actor; `player` + `pin` in the body act for that player (PIN checked)."""
    player_id, pin = data.pop("player", None), data.pop("pin", None)
    if player_id is None:
        return access.actor_for(request, match)
    player = Player.objects.filter(pk=player_id).first()
    if player is None or match.seat_of(player) is None:
        raise Forbidden("not_in_match", "That player does not play in this match.")
    services.verify_pin(match=match, player=player, pin=pin or "")
    return access.actor_for(request, match, player=player)


# --------------------------------------------------------------------- clubs, players


@extend_schema(responses=s.ClubSerializer(many=True))
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def clubs(request: Request) -> Response:
    return Response(s.ClubSerializer(selectors.clubs_for(request.user), many=True).data)


@extend_schema(methods=["GET"], responses=s.PlayerSerializer(many=True))
@extend_schema(
    methods=["POST"], request=s.AddPlayerSerializer, responses={201: s.PlayerSerializer, **ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@api_errors
def club_players(request: Request, slug: str) -> Response:
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    if request.method == "GET":
        return Response(s.PlayerSerializer(selectors.players_of(club), many=True).data)
    data = _valid(s.AddPlayerSerializer, request)
    player = services.add_player(club=club, actor=services.Actor(user=request.user), **data)
    return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


# --------------------------------------------------------------------------- matches


@extend_schema(methods=["GET"], responses={200: dict}, operation_id="matches_list")
@extend_schema(
    methods=["POST"],
    request=s.StartMatchSerializer,
    responses={201: dict, **ERRORS},
    operation_id="matches_start",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@api_errors
def matches(request: Request) -> Response:
    if request.method == "GET":
        rows = selectors.matches_for(request.user)[:200]
        return Response(
            [
                {
                    "id": m.pk,
                    "club": m.club.slug,
                    "player_a": m.player_a.name,
                    "player_b": m.player_b.name,
                    "state": m.state,
                }
                for m in rows
            ]
        )
    data = _valid(s.StartMatchSerializer, request)
    club = get_object_or_404(Club, slug=data["club"])
    players = {p.pk: p for p in Player.objects.filter(pk__in=[data["player_a"], data["player_b"]])}
    missing = [k for k in ("player_a", "player_b") if data[k] not in players]
    if missing:
        raise ServiceError(
            "invalid",
            f"No such player: {', '.join(missing)}",
            fields={k: "not found" for k in missing},
        )
    match = services.start_match(
        club=club,
        player_a=players[data["player_a"]],
        player_b=players[data["player_b"]],
        actor=services.Actor(user=request.user),
        profile=data["profile"],
        overrides=data["rules"],
        agreement=data["agreement"],
        first_dealer=data["first_dealer"],
    )
    return Response(selectors.match_view(match.pk).as_dict(), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: dict, **ERRORS})
@api_view(["GET"])
@permission_classes([AllowAny])
@api_errors
def match_detail(request: Request, match_id: int) -> Response:
    _visible_match(request, match_id)
    return Response(selectors.match_view(match_id).as_dict())


@extend_schema(request=s.PreviewHandSerializer, responses={200: dict, **ERRORS})
@api_view(["POST"])
@permission_classes([AllowAny])
@api_errors
def preview(request: Request, match_id: int) -> Response:
    match = _visible_match(request, match_id)
    hand = hand_input_from(_valid(s.PreviewHandSerializer, request))
    return Response({"preview": services.preview_hand(match=match, hand=hand).as_dict()})


@extend_schema(request=s.SubmitHandSerializer, responses={201: dict, 200: dict, **ERRORS})
@api_view(["POST"])
@permission_classes([AllowAny])
@api_errors
def submit(request: Request, match_id: int) -> Response:
    match = _visible_match(request, match_id)
    data = _valid(s.SubmitHandSerializer, request)
    actor = _actor(request, match, data)
    key = data.pop("idempotency_key")
    outcome = services.submit_hand(
        match_id=match.pk, actor=actor, hand=hand_input_from(data), idempotency_key=key
    )
    return Response(outcome.response, status=200 if outcome.replayed else 201)


def _hand_action(serializer_class, service, *, organiser_only: bool = False):
    """One endpoint per hand action: validate, find the actor, call the service."""

    @extend_schema(request=serializer_class, responses={200: dict, **ERRORS})
    @api_view(["POST"])
    @permission_classes([AllowAny])
    @api_errors
    def endpoint(request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(Hand.objects.select_related("game"), pk=hand_id)
        match = _visible_match(request, hand.game.match_id)
        data = _valid(serializer_class, request)
        actor = (
            services.Actor(user=request.user) if organiser_only else _actor(request, match, data)
        )
        key = data.pop("idempotency_key")
        if service is services.correct_hand:
            version, reason = data.pop("version"), data.pop("reason")
            outcome = service(
                hand_id=hand.pk,
                actor=actor,
                hand_input=hand_input_from(data),
                version=version,
                reason=reason,
                idempotency_key=key,
            )
        else:
            outcome = service(hand_id=hand.pk, actor=actor, idempotency_key=key, **data)
        return Response(outcome.response)

    endpoint.__name__ = service.__name__
    return endpoint


confirm = _hand_action(s.VersionedSerializer, services.confirm_hand)
dispute = _hand_action(s.DisputeSerializer, services.dispute_hand)
withdraw = _hand_action(s.VersionedSerializer, services.withdraw_hand)
correct = _hand_action(s.CorrectSerializer, services.correct_hand, organiser_only=True)
void = _hand_action(s.ReasonedSerializer, services.void_hand, organiser_only=True)


@extend_schema(request=s.ReasonSerializer, responses={200: dict, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@api_errors
def close(request: Request, match_id: int) -> Response:
    _visible_match(request, match_id)
    data = _valid(s.ReasonSerializer, request)
    services.close_match(
        match_id=match_id, actor=services.Actor(user=request.user), reason=data.get("reason", "")
    )
    return Response(selectors.match_view(match_id).as_dict())


@extend_schema(request=s.ReasonSerializer, responses={200: dict, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@api_errors
def reopen(request: Request, match_id: int) -> Response:
    _visible_match(request, match_id)
    data = _valid(s.ReasonSerializer, request)
    services.reopen_match(
        match_id=match_id, actor=services.Actor(user=request.user), reason=data.get("reason", "")
    )
    return Response(selectors.match_view(match_id).as_dict())


@extend_schema(request=s.SeatSerializer, responses={200: dict, **ERRORS})
@api_view(["POST"])
@permission_classes([AllowAny])
@api_errors
def seat(request: Request, match_id: int) -> Response:
    """Act for a player at this table from now on (this session), after their PIN."""
    data = _valid(s.SeatSerializer, request)
    if data.get("token"):
        if access.match_id_from_token(data["token"]) != match_id:
            raise Forbidden("bad_token", "This table link is for another match.")
        access.grant_table(request, match_id)
    match = _visible_match(request, match_id)
    player = Player.objects.filter(pk=data["player"]).first()
    if player is None or match.seat_of(player) is None:
        raise Forbidden("not_in_match", "That player does not play in this match.")
    services.verify_pin(match=match, player=player, pin=data["pin"])
    access.claim_seat(request, match, player)
    return Response({"seat": match.seat_of(player), "player": player.name})


# ---------------------------------------------------------------------------- ledger


@extend_schema(responses={200: s.LedgerRowSerializer(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@api_errors
def match_ledger(request: Request, match_id: int) -> Response:
    match = _visible_match(request, match_id)
    if not access.is_staff_for(request.user, match):
        raise Forbidden("not_allowed", "Only organisers and admins read the ledger.")
    rows = selectors.ledger_of(match)
    return Response(s.LedgerRowSerializer(rows, many=True).data)


@extend_schema(responses={200: dict, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@api_errors
def verify_ledger(request: Request) -> Response:
    if not request.user.is_superuser:
        raise Forbidden("not_allowed", "Only admins verify the whole ledger.")
    breaks = ledger.verify()
    return Response(
        {
            "ok": not breaks,
            "breaks": [
                {"chain": b.chain, "position": b.position, "row": b.row_id, "problem": b.problem}
                for b in breaks
            ],
        }
    )
