"""The scoring API under /api/: the same services and selectors as the pages.

Views raise the services' and the engine's refusals; DRF's exception handler
(ginclub.api_errors) turns every one into {"error": {"code", "message", "fields"?}} with
its status. Match endpoints accept logged-in users (session or token) and browsers that
opened a table link; who may do what is decided by ginclub.permissions.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import SAFE_METHODS, AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from ginclub import permissions
from ginclub.api_errors import ERRORS
from ginclub.errors import Forbidden, ServiceError
from ginclub.shapes import represent, valid
from scoring import replay, selectors, services, stats
from scoring import serializers as s
from scoring.hand_input import claim_input, hand_input_from
from scoring.models import Club, Hand, Match, Penalty, Player, TableCall
from scoring.words import names_of


def _visible_match(request: Request, match_id: int) -> Match:
    """The match if the request may see it; a change by an auditor is refused at once,
    naming the role (permissions.require_change_at)."""
    match = selectors.visible_match(permissions.actor_of(request), match_id)
    if request.method not in SAFE_METHODS:
        permissions.require_change_at(permissions.actor_of(request, match), match.club, match)
    return match


def _visible_hand(request: Request, hand_id: int) -> Hand:
    """The hand (with its game and match) if the request may see its match; a change by
    an auditor is refused at once, as `_visible_match` does."""
    hand = selectors.visible_hand(permissions.actor_of(request), hand_id)
    match = hand.game.match
    if request.method not in SAFE_METHODS:
        permissions.require_change_at(permissions.actor_of(request, match), match.club, match)
    return hand


def _club(request: Request, slug: str) -> Club:
    """A club the user knows; for a change there (each the organisers') an auditor or a
    scorekeeper is refused at once, before the body is read."""
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    if request.method not in SAFE_METHODS:
        permissions.require_change_at(permissions.actor_of(request), club)
        permissions.refuse_scorekeeper(permissions.actor_of(request), club)
    return club


def _match_out(match_id: int) -> dict:
    return represent(s.MatchOutputSerializer, selectors.match_view(match_id))


def _actor(request: Request, match: Match, data: dict) -> permissions.Actor:
    """The request's actor; `player` + `pin` in the body act for that player (PIN checked)."""
    player_id, pin = data.pop("player", None), data.pop("pin", None)
    actor = permissions.actor_of(request, match)
    if player_id is None:
        return actor
    return services.acting_with_pin(actor, match=match, player_id=player_id, pin=pin or "")


# --------------------------------------------------------------------- clubs, players


@extend_schema(responses={200: s.ClubSerializer(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def clubs(request: Request) -> Response:
    return Response(represent(s.ClubSerializer, selectors.clubs_for(request.user), many=True))


@extend_schema(methods=["GET"], responses={200: s.PlayerSerializer(many=True), **ERRORS})
@extend_schema(
    methods=["POST"], request=s.AddPlayerSerializer, responses={201: s.PlayerSerializer, **ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def club_players(request: Request, slug: str) -> Response:
    club = _club(request, slug)
    if request.method == "GET":
        return Response(represent(s.PlayerSerializer, selectors.players_of(club), many=True))
    data = valid(s.AddPlayerSerializer, request)
    player = services.add_player(club=club, actor=permissions.actor_of(request), **data)
    return Response(represent(s.PlayerSerializer, player), status=status.HTTP_201_CREATED)


@extend_schema(methods=["GET"], responses={200: s.AuditorOutputSerializer(many=True), **ERRORS})
@extend_schema(
    methods=["POST"],
    request=s.GrantAuditorSerializer,
    responses={201: s.AuditorOutputSerializer, **ERRORS},
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def club_auditors(request: Request, slug: str) -> Response:
    """GET: the club's auditors (its organisers and auditors read the list). POST: make a
    user an auditor (organisers; one ledger row in the club's chain)."""
    club = _club(request, slug)
    actor = permissions.actor_of(request)
    if request.method == "GET":
        permissions.require_read_club(actor, club)
        return Response(represent(s.AuditorOutputSerializer, services.auditors_of(club), many=True))
    data = valid(s.GrantAuditorSerializer, request)
    user = services.grant_auditor(club=club, username=data["username"], actor=actor)
    return Response(represent(s.AuditorOutputSerializer, user), status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses={204: None, **ERRORS})
@api_view(["DELETE"])
@permission_classes([IsAuthenticated])
def club_auditor(request: Request, slug: str, user_id: int) -> Response:
    """Withdraw an auditor of the club (organisers; one ledger row in the club's chain)."""
    club = _club(request, slug)
    services.withdraw_auditor(club=club, user_id=user_id, actor=permissions.actor_of(request))
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(methods=["GET"], responses={200: s.ScorekeeperOutputSerializer(many=True), **ERRORS})
@extend_schema(
    methods=["POST"],
    request=s.GrantScorekeeperSerializer,
    responses={201: s.ScorekeeperOutputSerializer, **ERRORS},
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def club_scorekeepers(request: Request, slug: str) -> Response:
    """GET: the club's scorekeepers (whoever reads the club reads the list). POST: make a
    user a scorekeeper (organisers; one ledger row in the club's chain)."""
    club = _club(request, slug)
    actor = permissions.actor_of(request)
    if request.method == "GET":
        permissions.require_read_club(actor, club)
        return Response(
            represent(s.ScorekeeperOutputSerializer, services.scorekeepers_of(club), many=True)
        )
    data = valid(s.GrantScorekeeperSerializer, request)
    user = services.grant_scorekeeper(club=club, username=data["username"], actor=actor)
    return Response(represent(s.ScorekeeperOutputSerializer, user), status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses={204: None, **ERRORS})
@api_view(["DELETE"])
@permission_classes([IsAuthenticated])
def club_scorekeeper(request: Request, slug: str, user_id: int) -> Response:
    """Withdraw a scorekeeper of the club (organisers; one ledger row in the club's chain)."""
    club = _club(request, slug)
    services.withdraw_scorekeeper(club=club, user_id=user_id, actor=permissions.actor_of(request))
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    request=s.NetworkLimitSerializer, responses={200: s.NetworkLimitLiftedSerializer, **ERRORS}
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def lift_network_limit(request: Request, slug: str) -> Response:
    """Forget the wrong PINs from one address for the club's players (organisers): the
    phones that failed there may try again. One ledger row."""
    club = _club(request, slug)
    ip = valid(s.NetworkLimitSerializer, request)["ip"]
    actor = permissions.actor_at_club(request, club)
    cleared = services.lift_network_limit(club=club, ip=ip, actor=actor)
    return Response(represent(s.NetworkLimitLiftedSerializer, {"ip": ip, "cleared": cleared}))


# --------------------------------------------------------------------------- matches


@extend_schema(
    methods=["GET"],
    responses={200: s.MatchListItemOutputSerializer(many=True), **ERRORS},
    operation_id="matches_list",
)
@extend_schema(
    methods=["POST"],
    request=s.StartMatchSerializer,
    responses={201: s.MatchOutputSerializer, **ERRORS},
    operation_id="matches_start",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def matches(request: Request) -> Response:
    if request.method == "GET":
        rows = selectors.matches_for(request.user)[:200]
        return Response(represent(s.MatchListItemOutputSerializer, rows, many=True))
    data = valid(s.StartMatchSerializer, request)
    club = get_object_or_404(Club, slug=data["club"])
    players = {p.pk: p for p in Player.objects.filter(pk__in=[data["player_a"], data["player_b"]])}
    missing = [k for k in ("player_a", "player_b") if data[k] not in players]
    if missing:
        raise ServiceError(
            "invalid",
            _("No such player: %(fields)s") % {"fields": ", ".join(missing)},
            fields={k: _("not found") for k in missing},
        )
    match = services.start_match(
        club=club,
        player_a=players[data["player_a"]],
        player_b=players[data["player_b"]],
        actor=permissions.actor_at_club(request, club),
        profile=data["profile"],
        overrides=data["rules"],
        agreement=data["agreement"],
        first_dealer=data["first_dealer"],
    )
    return Response(_match_out(match.pk), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: s.MatchOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([AllowAny])
def match_detail(request: Request, match_id: int) -> Response:
    _visible_match(request, match_id)
    return Response(_match_out(match_id))


@extend_schema(
    request=s.PreviewHandSerializer, responses={200: s.PreviewOutputSerializer, **ERRORS}
)
@api_view(["POST"])
@permission_classes([AllowAny])
def preview(request: Request, match_id: int) -> Response:
    match = _visible_match(request, match_id)
    hand = hand_input_from(valid(s.PreviewHandSerializer, request), names_of(match))
    result = services.preview_hand(match=match, hand=hand)
    return Response(represent(s.PreviewOutputSerializer, result.as_dict()))


@extend_schema(
    request=s.SubmitHandSerializer,
    # 200: a replayed idempotency key answers the first response again.
    responses={201: s.HandActionOutputSerializer, 200: s.HandActionOutputSerializer, **ERRORS},
)
@api_view(["POST"])
@permission_classes([AllowAny])
def submit(request: Request, match_id: int) -> Response:
    match = _visible_match(request, match_id)
    data = valid(s.SubmitHandSerializer, request)
    actor = _actor(request, match, data)
    key = data.pop("idempotency_key")
    outcome = services.submit_hand(
        match_id=match.pk,
        actor=actor,
        hand=hand_input_from(data, names_of(match)),
        idempotency_key=key,
    )
    # The response is HandActionOutputSerializer's, kept with the entry for replays.
    return Response(outcome.response, status=200 if outcome.replayed else 201)


def _hand_action(serializer_class, service, *, organiser_only: bool = False):
    """One endpoint per hand action: validate, find the actor, call the service."""

    @extend_schema(
        request=serializer_class, responses={200: s.HandActionOutputSerializer, **ERRORS}
    )
    @api_view(["POST"])
    @permission_classes([AllowAny])
    def endpoint(request: Request, hand_id: int) -> Response:
        hand = _visible_hand(request, hand_id)
        match = hand.game.match
        if organiser_only:
            permissions.require_manage_match(permissions.actor_of(request), match)
        data = valid(serializer_class, request)
        actor = permissions.actor_of(request) if organiser_only else _actor(request, match, data)
        key = data.pop("idempotency_key")
        if service is services.correct_hand:
            version, reason = data.pop("version"), data.pop("reason")
            outcome = service(
                hand_id=hand.pk,
                actor=actor,
                hand_input=hand_input_from(data, names_of(match)),
                version=version,
                reason=reason,
                idempotency_key=key,
            )
        else:
            if data.get("claim") is not None:  # a dispute's figures, for this hand
                data["claim"] = claim_input(data["claim"], hand, names_of(match))
            outcome = service(hand_id=hand.pk, actor=actor, idempotency_key=key, **data)
        return Response(outcome.response)

    endpoint.__name__ = service.__name__
    return endpoint


confirm = _hand_action(s.VersionedSerializer, services.confirm_hand)
dispute = _hand_action(s.DisputeSerializer, services.dispute_hand)
withdraw = _hand_action(s.VersionedSerializer, services.withdraw_hand)
correct = _hand_action(s.CorrectSerializer, services.correct_hand, organiser_only=True)
void = _hand_action(s.ReasonedSerializer, services.void_hand, organiser_only=True)


def _organised_hand(request: Request, hand_id: int) -> Hand:
    hand = get_object_or_404(Hand.objects.select_related("game"), pk=hand_id)
    match = _visible_match(request, hand.game.match_id)
    permissions.require_manage_match(permissions.actor_of(request), match)
    return hand


@extend_schema(
    request=s.CorrectPreviewSerializer,
    responses={200: s.CorrectionPreviewOutputSerializer, **ERRORS},
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def correct_preview(request: Request, hand_id: int) -> Response:
    """What this correction would change (the hand, the match's result and, in a closed
    tournament round, the standings and later rounds), or the refusal applying would
    give. Writes nothing."""
    hand = _organised_hand(request, hand_id)
    data = valid(s.CorrectPreviewSerializer, request)
    version, reason = data.pop("version"), data.pop("reason")
    preview = services.preview_correction(
        hand_id=hand.pk,
        actor=permissions.actor_of(request),
        hand_input=hand_input_from(data, names_of(hand.game.match)),
        version=version,
        reason=reason,
    )
    return Response(represent(s.CorrectionPreviewOutputSerializer, preview))


@extend_schema(
    request=s.VoidPreviewSerializer,
    responses={200: s.CorrectionPreviewOutputSerializer, **ERRORS},
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def void_preview(request: Request, hand_id: int) -> Response:
    """What voiding this hand would change, or the refusal voiding would give. Writes
    nothing."""
    hand = _organised_hand(request, hand_id)
    data = valid(s.VoidPreviewSerializer, request)
    preview = services.preview_void(hand_id=hand.pk, actor=permissions.actor_of(request), **data)
    return Response(represent(s.CorrectionPreviewOutputSerializer, preview))


@extend_schema(request=s.ReasonSerializer, responses={200: s.MatchOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def close(request: Request, match_id: int) -> Response:
    _visible_match(request, match_id)
    data = valid(s.ReasonSerializer, request)
    services.close_match(
        match_id=match_id, actor=permissions.actor_of(request), reason=data.get("reason", "")
    )
    return Response(_match_out(match_id))


@extend_schema(request=s.ReasonSerializer, responses={200: s.MatchOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def reopen(request: Request, match_id: int) -> Response:
    _visible_match(request, match_id)
    data = valid(s.ReasonSerializer, request)
    services.reopen_match(
        match_id=match_id, actor=permissions.actor_of(request), reason=data.get("reason", "")
    )
    return Response(_match_out(match_id))


@extend_schema(request=s.SeatSerializer, responses={200: s.SeatOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([AllowAny])
def seat(request: Request, match_id: int) -> Response:
    """Act for a player at this table from now on (this session), after their PIN."""
    # The body may carry the table link's token, for a browser that has not opened it.
    token = request.data.get("token") if hasattr(request.data, "get") else None
    if token:
        link = permissions.read_table_token(str(token))
        if link.match_id != match_id:
            raise Forbidden("bad_token", _("This table link is for another match."))
        linked = Match.objects.filter(pk=match_id).first()
        if linked is not None:
            permissions.grant_table(request, linked, link)
    match = _visible_match(request, match_id)
    data = valid(s.SeatSerializer, request)
    actor = services.acting_with_pin(
        permissions.actor_of(request), match=match, player_id=data["player"], pin=data["pin"]
    )
    permissions.claim_seat(request, match, actor.player)
    return Response(s.SeatOutputSerializer(actor.player, context={"match": match}).data)


# ------------------------------------------------------------------------- penalties


@extend_schema(methods=["GET"], responses={200: s.PenaltyOutputSerializer(many=True), **ERRORS})
@extend_schema(
    methods=["POST"],
    request=s.PenaltyInputSerializer,
    responses={201: s.PenaltyOutputSerializer, **ERRORS},
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def match_penalties(request: Request, match_id: int) -> Response:
    """The penalties of the match (whoever may see the match: its players too); POST
    records one (staff: docs/rules.md §18; a game or match loss changes the result)."""
    match = _visible_match(request, match_id)
    if request.method == "GET":
        return Response(
            represent(s.PenaltyOutputSerializer, selectors.penalties_of(match), many=True)
        )
    permissions.require_penalise(permissions.actor_of(request, match), match)
    data = valid(s.PenaltyInputSerializer, request)
    penalty = services.record_penalty(
        match_id=match.pk, actor=permissions.actor_of(request, match), **data
    )
    return Response(represent(s.PenaltyOutputSerializer, penalty), status=status.HTTP_201_CREATED)


@extend_schema(
    request=s.PenaltyPreviewInputSerializer,
    responses={200: s.PenaltyPreviewOutputSerializer, **ERRORS},
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def penalty_preview(request: Request, match_id: int) -> Response:
    """What the penalty would do to the result, or the refusal recording it would give.
    Writes nothing."""
    match = _visible_match(request, match_id)
    permissions.require_penalise(permissions.actor_of(request, match), match)
    data = valid(s.PenaltyPreviewInputSerializer, request)
    preview = services.preview_penalty(
        match_id=match.pk, actor=permissions.actor_of(request, match), **data
    )
    return Response(represent(s.PenaltyPreviewOutputSerializer, preview))


@extend_schema(
    request=s.PenaltyReverseInputSerializer, responses={200: s.PenaltyOutputSerializer, **ERRORS}
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def reverse_penalty(request: Request, penalty_id: int) -> Response:
    """Take the penalty back, with a reason: the result returns to what the hands say."""
    penalty = get_object_or_404(Penalty, pk=penalty_id)
    match = _visible_match(request, penalty.match_id)
    permissions.require_penalise(permissions.actor_of(request, match), match)
    data = valid(s.PenaltyReverseInputSerializer, request)
    penalty = services.reverse_penalty(
        penalty_id=penalty.pk,
        actor=permissions.actor_of(request, match),
        reason=data.get("reason", ""),
    )
    return Response(represent(s.PenaltyOutputSerializer, penalty))


# ---------------------------------------------------------------------------- ledger


@extend_schema(responses={200: s.LedgerRowSerializer(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def match_ledger(request: Request, match_id: int) -> Response:
    match = _visible_match(request, match_id)
    permissions.require_audit_match(permissions.actor_of(request), match)
    rows = selectors.ledger_of(match)
    return Response(represent(s.LedgerRowSerializer, rows, many=True))


@extend_schema(responses={200: s.LedgerVerifyOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def verify_ledger(request: Request) -> Response:
    if not permissions.may_verify_ledgers(permissions.actor_of(request)):
        raise Forbidden(
            "not_allowed", _("Only admins and site-wide auditors verify the whole ledger.")
        )
    return Response(represent(s.LedgerVerifyOutputSerializer, replay.verify()))


# ------------------------------------------------------------------ a player's record


@extend_schema(responses={200: s.PlayerRecordOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([AllowAny])
def player_record(request: Request, player_id: int) -> Response:
    """A player's matches, events, head-to-head lines and statistics: the club's members
    and organisers, or anyone when the club opened its player pages (else 404)."""
    actor = permissions.actor_of(request)
    player = stats.visible_player(actor, player_id)
    record = stats.player_record(player, actor)
    return Response(represent(s.PlayerRecordOutputSerializer, record))


@extend_schema(responses={200: s.RatedPlayerOutputSerializer(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([AllowAny])
def club_ratings(request: Request, slug: str) -> Response:
    """The club's rated list, best first: for those who may read its player pages."""
    club = stats.visible_club(permissions.actor_of(request), slug)
    return Response(represent(s.RatedPlayerOutputSerializer, stats.club_ratings(club), many=True))


# ------------------------------------------------------------- calls from the table


@extend_schema(methods=["GET"], responses={200: s.CallOutputSerializer(many=True), **ERRORS})
@extend_schema(
    methods=["POST"],
    request=s.CallInputSerializer,
    responses={
        201: s.CallOutputSerializer,
        200: OpenApiResponse(
            s.CallOutputSerializer, description="The table's call already waiting: no new one."
        ),
        **ERRORS,
    },
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def match_calls(request: Request, match_id: int) -> Response:
    """GET: every call from the match's table (whoever may see the match). POST: call the
    organiser to the table ("Organiser, please"), as a seated player (or `player` with
    `pin`) or staff; a call already waiting is answered (200) instead of a second one."""
    match = _visible_match(request, match_id)
    if request.method == "GET":
        return Response(represent(s.CallOutputSerializer, selectors.calls_of(match), many=True))
    data = valid(s.CallInputSerializer, request)
    actor = _actor(request, match, data)
    outcome = services.call_staff(match_id=match.pk, actor=actor, reason=data["reason"])
    code = status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK
    return Response(represent(s.CallOutputSerializer, outcome.call), status=code)


@extend_schema(request=None, responses={200: s.CallOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def take_call(request: Request, call_id: int) -> Response:
    """Staff (the club's organisers and scorekeepers) are on their way to the table."""
    call = services.take_call(call_id=call_id, actor=permissions.actor_of(request))
    return Response(represent(s.CallOutputSerializer, _call(call.pk)))


@extend_schema(request=s.ResolveCallSerializer, responses={200: s.CallOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def resolve_call(request: Request, call_id: int) -> Response:
    """Staff resolved the call, with an optional note; the ledger keeps how long it
    waited."""
    data = valid(s.ResolveCallSerializer, request)
    call = services.resolve_call(
        call_id=call_id, actor=permissions.actor_of(request), note=data.get("note", "")
    )
    return Response(represent(s.CallOutputSerializer, _call(call.pk)))


def _call(call_id: int) -> TableCall:
    return TableCall.objects.select_related("player", "taken_by", "resolved_by").get(pk=call_id)
