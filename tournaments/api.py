"""The tournament API under /api/: the same services and selectors as the pages.

Conventions are scoring.api's: errors are {"error": {"code", "message", "fields"?}}
(ginclub.api_errors turns every refusal into that; no endpoint catches one), input
serializers refuse unknown fields. Who may do what is asked of ginclub.permissions: a
tournament the requester may not see is a 404 (nothing leaks); one they see but may not
manage is a 403. Public reads (detail, rounds, pairings, standings) follow the public
flag and hiding options.
"""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import (
    api_view,
    parser_classes,
    permission_classes,
    renderer_classes,
)
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import SAFE_METHODS, AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from ginclub import inputs, permissions
from ginclub.api_errors import ERRORS
from ginclub.errors import Forbidden, NotFound, ServiceError
from ginclub.permissions import actor_of
from ginclub.shapes import represent, valid
from scoring import services as scoring_services
from scoring.models import Club
from scoring.serializers import With
from tournaments import selectors, services
from tournaments import serializers as s
from tournaments.models import Job, Pairing, Registration, Round, Season, SignUp, Tournament
from tournaments.selectors.audit import KINDS
from tournaments.services import season_ladders
from tournaments.services import seasons as season_services
from tournaments.services.jobs import JobView

CSV = {(200, "text/csv"): OpenApiTypes.STR, **ERRORS}
ROUND_PARAM = OpenApiParameter(
    "round", int, description="Standings or pairings after this round (default: the latest)."
)


class _FileRenderer(BaseRenderer):
    """Lets a client ask for the file's type; errors still come as JSON text."""

    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, (str, bytes)) else json.dumps(data)


class CsvRenderer(_FileRenderer):
    media_type, format = "text/csv", "csv"


class SvgRenderer(_FileRenderer):
    media_type, format = "image/svg+xml", "svg"


def _tournament(request: Request, slug: str) -> Tournament:
    """The tournament if the requester may see it, else 404."""
    tournament = Tournament.objects.select_related("club").filter(slug=slug).first()
    if tournament is None:
        raise NotFound("not_found", _("No such tournament."))
    permissions.require_view_tournament(actor_of(request), tournament)
    return tournament


def _managed(request: Request, tournament: Tournament) -> None:
    """A read (GET) is for its organisers and auditors; a change for its organisers
    (an auditor is refused naming the role: permissions.refuse_auditor)."""
    if request.method in SAFE_METHODS:
        permissions.require_audit_tournament(actor_of(request), tournament)
    else:
        permissions.require_manage_tournament(actor_of(request), tournament)


def _run(request: Request, tournament: Tournament) -> None:
    """A read (GET) is for whoever reads it as its organisers do; running its rounds is
    for its organisers and scorekeepers (permissions.may_run_rounds: an auditor is
    refused naming the role)."""
    if request.method in SAFE_METHODS:
        permissions.require_audit_tournament(actor_of(request), tournament)
    else:
        permissions.require_view_tournament(actor_of(request), tournament)
        permissions.require_run_rounds(actor_of(request), tournament)


def _manages(request: Request, tournament: Tournament) -> bool:
    """Sees what its organisers see (drafts, held-back standings): organisers, auditors."""
    return permissions.may_audit_tournament(actor_of(request), tournament)


def _round(request: Request, round_id: int) -> Round:
    """The round if the requester may see it (a draft: organisers only), else 404."""
    rnd = Round.objects.select_related("tournament__club").filter(pk=round_id).first()
    actor = actor_of(request)
    if rnd is None or not permissions.may_view_tournament(actor, rnd.tournament):
        raise NotFound("not_found", _("No such round."))
    if rnd.state == Round.State.DRAFT and not permissions.may_audit_tournament(
        actor, rnd.tournament
    ):
        raise NotFound("not_found", _("No such round."))
    return rnd


def _registration(request: Request, registration_id: int) -> Registration:
    registration = (
        Registration.objects.select_related("tournament__club").filter(pk=registration_id).first()
    )
    if registration is None or not permissions.may_view_tournament(
        actor_of(request), registration.tournament
    ):
        raise NotFound("not_found", _("No such registration."))
    return registration


def _round_out(rnd: Round) -> dict:
    return represent(s.RoundOutputSerializer, selectors.round_view(rnd))


def _viewer_round_out(request: Request, rnd: Round, tournament: Tournament) -> dict:
    """The round as the requester may see it: the public sees fewer keys."""
    context = {"public": not _manages(request, tournament)}
    return s.ViewerRoundOutputSerializer(selectors.round_view(rnd), context=context).data


def _detail(tournament: Tournament) -> dict:
    return represent(s.TournamentSerializer, tournament)


# ---------------------------------------------------------------------- tournaments


@extend_schema(
    methods=["GET"],
    responses={200: s.TournamentSerializer(many=True), **ERRORS},
    operation_id="tournaments_list",
)
@extend_schema(
    methods=["POST"],
    request=s.CreateTournamentSerializer,
    responses={201: s.TournamentSerializer, **ERRORS},
    operation_id="tournaments_create",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def tournaments(request: Request) -> Response:
    if request.method == "GET":
        rows = selectors.tournaments_for(actor_of(request))[:200]
        return Response(represent(s.TournamentSerializer, rows, many=True))
    if not actor_of(request).is_authenticated:
        raise Forbidden("not_allowed", _("Log in as an organiser to create a tournament."))
    data = valid(s.CreateTournamentSerializer, request)
    club = Club.objects.filter(slug=data.pop("club")).first()
    if club is None:
        raise ServiceError("invalid", _("No such club."), fields={"club": "not found"})
    tournament = services.create_tournament(club=club, actor=actor_of(request), **data)
    return Response(_detail(tournament), status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["GET"],
    responses={200: s.TournamentSerializer, **ERRORS},
    operation_id="tournaments_detail",
)
@extend_schema(
    methods=["PATCH"],
    request=s.SettingsSerializer,
    responses={200: s.TournamentSerializer, **ERRORS},
    operation_id="tournaments_update",
)
@api_view(["GET", "PATCH"])
@permission_classes([AllowAny])
def tournament(request: Request, slug: str) -> Response:
    found = _tournament(request, slug)
    if request.method == "PATCH":
        _managed(request, found)
        data = valid(s.SettingsSerializer, request)
        found = services.update_tournament(tournament_id=found.pk, actor=actor_of(request), **data)
    return Response(_detail(found))


# -------------------------------------------------------------------- registrations


@extend_schema(
    methods=["GET"],
    responses={200: s.RegistrationSerializer(many=True), **ERRORS},
    operation_id="registrations_list",
)
@extend_schema(
    methods=["POST"],
    request=s.AddRegistrationSerializer,
    responses={201: s.RegistrationSerializer, **ERRORS},
    operation_id="registrations_add",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def registrations(request: Request, slug: str) -> Response:
    found = _tournament(request, slug)
    if request.method == "GET":
        _managed(request, found)
        rows = selectors.registrations_of(found)
        return Response(represent(s.RegistrationSerializer, rows, many=True))
    _managed(request, found)
    data = valid(s.AddRegistrationSerializer, request)
    registration = services.add_registration(
        tournament_id=found.pk, actor=actor_of(request), **data
    )
    return Response(
        represent(s.RegistrationSerializer, registration),
        status=status.HTTP_201_CREATED,
    )


@extend_schema(
    request={
        "multipart/form-data": s.ImportCsvSerializer,
        "application/json": s.ImportCsvSerializer,
    },
    responses={200: s.ImportReportOutputSerializer, **ERRORS},
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@parser_classes([MultiPartParser, inputs.BoundedFormParser, inputs.BoundedJSONParser])
def import_registrations(request: Request, slug: str) -> Response:
    """Register the players of a CSV file (header with a `name` column; optional
    `email`, `member_id`). Returns the row-by-row report."""
    found = _tournament(request, slug)
    _managed(request, found)
    data = valid(s.ImportCsvSerializer, request)
    upload = data.get("file")
    if upload is None and "csv" not in data:
        raise ServiceError(
            "invalid",
            _("Send the CSV as a `file` upload or as `csv` text."),
            fields={"file": "required"},
        )
    content = upload.read() if upload is not None else data["csv"]
    report = services.import_registrations(
        tournament_id=found.pk, actor=actor_of(request), content=content
    )
    return Response(represent(s.ImportReportOutputSerializer, report))


def _registration_action(serializer_class, call, name: str):
    """One endpoint per registration action: find it, validate, call the service."""

    @extend_schema(
        request=serializer_class,
        responses={200: s.RegistrationSerializer, **ERRORS},
        operation_id=name,
    )
    @api_view(["POST"])
    @permission_classes([IsAuthenticated])
    def endpoint(request: Request, registration_id: int) -> Response:
        registration = _registration(request, registration_id)
        _managed(request, registration.tournament)
        data = valid(serializer_class, request)
        updated = call(registration_id=registration.pk, actor=actor_of(request), **data)
        return Response(represent(s.RegistrationSerializer, updated))

    endpoint.__name__ = name
    return endpoint


check_in = _registration_action(s.CheckInSerializer, services.check_in, "registration_check_in")
withdraw = _registration_action(
    s.RequiredReasonSerializer, services.withdraw_registration, "registration_withdraw"
)
reinstate = _registration_action(
    s.RequiredReasonSerializer, services.reinstate_registration, "registration_reinstate"
)
seed = _registration_action(s.SeedSerializer, services.set_seed, "registration_seed")


@extend_schema(
    request=None, responses={200: s.SeededRegistrationOutputSerializer(many=True), **ERRORS}
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def seed_by_rating(request: Request, slug: str) -> Response:
    """Seed every registered player by club rating (seed 1 the highest), the unrated
    after the rated in their old seed order; before round 1 is published. Returns the
    registrations in their new seed order, each with the rating it was seeded by."""
    found = _tournament(request, slug)
    seeded = services.seed_by_rating(tournament_id=found.pk, actor=actor_of(request))
    rows = [With(registration, rating=rating) for registration, rating in seeded]
    return Response(represent(s.SeededRegistrationOutputSerializer, rows, many=True))


@extend_schema(request=None, responses={204: None, **ERRORS})
@api_view(["DELETE"])
@permission_classes([IsAuthenticated])
def remove_registration(request: Request, registration_id: int) -> Response:
    registration = _registration(request, registration_id)
    services.remove_registration(registration_id=registration.pk, actor=actor_of(request))
    return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------------------- rules


@extend_schema(
    request=s.RulesChangeSerializer, responses={200: s.RulesChangeOutputSerializer, **ERRORS}
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def rules_preview(request: Request, slug: str) -> Response:
    """What changing the frozen rules would change (hands, games, matches, standings),
    for the whole event or from round `from_round` on (earlier rounds keep their rules)."""
    found = _tournament(request, slug)
    _managed(request, found)
    data = valid(s.RulesChangeSerializer, request)
    change = services.preview_rules_change(tournament_id=found.pk, actor=actor_of(request), **data)
    return Response(represent(s.RulesChangeOutputSerializer, change))


@extend_schema(request=s.ApplyRulesSerializer, responses={202: s.JobOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def rules_apply(request: Request, slug: str) -> Response:
    """Change the frozen rules, for the whole event or from round `from_round` on, and
    re-score the rounds concerned (one transaction, ledger rows). A background job: 202
    with the job (poll its `url`; when done, `result` holds the preview's figures, when
    failed, `error` says why and nothing changed). A rules change already queued or
    running for this tournament is a 409 (`job_pending`)."""
    found = _tournament(request, slug)
    _managed(request, found)
    data = valid(s.ApplyRulesSerializer, request)
    job = services.start_rules_change(tournament_id=found.pk, actor=actor_of(request), **data)
    return _accepted(request, job)


# --------------------------------------------------------------------------- rounds


@extend_schema(
    methods=["GET"],
    responses={200: s.RoundSummaryOutputSerializer(many=True), **ERRORS},
    operation_id="rounds_list",
)
@extend_schema(
    methods=["POST"],
    request=None,
    responses={201: s.RoundOutputSerializer, **ERRORS},
    operation_id="rounds_draft",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def rounds(request: Request, slug: str) -> Response:
    """GET: the rounds (drafts for organisers only). POST: draft the next round."""
    found = _tournament(request, slug)
    if request.method == "POST":  # the service asks ginclub.permissions
        rnd = services.draft_round(tournament_id=found.pk, actor=actor_of(request))
        return Response(_round_out(rnd), status=status.HTTP_201_CREATED)
    listed = selectors.rounds_of(found)
    if not _manages(request, found):
        listed = listed.exclude(state=Round.State.DRAFT)
    return Response(represent(s.RoundSummaryOutputSerializer, listed, many=True))


@extend_schema(
    methods=["GET"],
    responses={200: s.ViewerRoundOutputSerializer, **ERRORS},
    operation_id="round_detail",
)
@extend_schema(
    methods=["DELETE"], request=None, responses={204: None, **ERRORS}, operation_id="round_discard"
)
@api_view(["GET", "DELETE"])
@permission_classes([AllowAny])
def round_detail(request: Request, round_id: int) -> Response:
    """GET: the round with its pairings (public once published). DELETE: discard a draft."""
    rnd = _round(request, round_id)
    if request.method == "DELETE":
        services.discard_round(round_id=rnd.pk, actor=actor_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(_viewer_round_out(request, rnd, rnd.tournament))


def _round_action(
    serializer_class, call, name: str, *, result=None, response=s.RoundOutputSerializer
):
    """One endpoint per round action: find the round, ask who may act (before the body is
    read: a stranger learns no field names), validate, call the service."""

    @extend_schema(request=serializer_class, responses={200: response, **ERRORS}, operation_id=name)
    @api_view(["POST"])
    @permission_classes([IsAuthenticated])
    def endpoint(request: Request, round_id: int) -> Response:
        rnd = _round(request, round_id)
        _run(request, rnd.tournament)
        data = valid(serializer_class, request) if serializer_class else {}
        outcome = call(round_id=rnd.pk, actor=actor_of(request), **data)
        if result is not None:
            return Response(represent(result, outcome))
        rnd.refresh_from_db()
        return Response(_round_out(rnd))

    endpoint.__name__ = name
    return endpoint


swap = _round_action(s.SwapSerializer, services.swap_players, "round_swap")
fix = _round_action(s.FixPairingSerializer, services.fix_pairing, "round_fix_pairing")
publish = _round_action(None, services.publish_round, "round_publish")
timer = _round_action(s.TimerSerializer, services.start_round_timer, "round_start_timer")
call_time = _round_action(None, services.call_time, "round_call_time")
time_policy = _round_action(
    s.TimePolicySerializer,
    services.apply_time_policy,
    "round_apply_time_policy",
    result=s.TimePolicyOutputSerializer,
    response=s.TimePolicyOutputSerializer,
)
close_round = _round_action(None, services.close_round, "round_close")
undo_time_call = _round_action(
    s.RequiredReasonSerializer, services.undo_time_call, "round_undo_time_call"
)


@extend_schema(responses={200: s.DashboardOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def dashboard(request: Request, round_id: int) -> Response:
    """Every table of the round with its state; cheap to poll."""
    rnd = _round(request, round_id)
    _run(request, rnd.tournament)
    return Response(represent(s.DashboardOutputSerializer, selectors.dashboard(rnd)))


@extend_schema(responses={200: s.TableLinkOutputSerializer(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def table_links(request: Request, round_id: int) -> Response:
    """Each table's signed, expiring link (it opens the match's entry page) and QR code."""
    rnd = _round(request, round_id)
    _run(request, rnd.tournament)
    tables = rnd.pairings.select_related("match", "player_a__player", "player_b__player").exclude(
        match=None
    )
    return Response(
        s.TableLinkOutputSerializer(tables, many=True, context={"request": request}).data
    )


@extend_schema(
    responses={(200, "image/svg+xml"): OpenApiTypes.STR, **ERRORS}, operation_id="pairing_table_qr"
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@renderer_classes([JSONRenderer, SvgRenderer])
def table_qr(request: Request, pairing_id: int) -> HttpResponse:
    pairing = _pairing(request, pairing_id)
    _run(request, pairing.round.tournament)
    inputs.require_format(request, "svg")
    if pairing.match is None:
        raise ServiceError("invalid", _("This pairing has no table (a bye or a draft)."))
    url = request.build_absolute_uri(selectors.table_path(pairing.match))
    return HttpResponse(selectors.qr_svg(url), content_type="image/svg+xml")


# ------------------------------------------------------------------------- results


def _pairing(request: Request, pairing_id: int) -> Pairing:
    pairing = (
        Pairing.objects.select_related("round__tournament__club", "match")
        .filter(pk=pairing_id)
        .first()
    )
    if pairing is None or not permissions.may_view_tournament(
        actor_of(request), pairing.round.tournament
    ):
        raise NotFound("not_found", _("No such pairing."))
    return pairing


@extend_schema(request=s.ResultSerializer, responses={200: s.RoundOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def record_result(request: Request, pairing_id: int) -> Response:
    """The organiser decides a table by hand, with a reason."""
    pairing = _pairing(request, pairing_id)
    _run(request, pairing.round.tournament)
    data = valid(s.ResultSerializer, request)
    services.record_result(pairing_id=pairing.pk, actor=actor_of(request), **data)
    return Response(_round_out(pairing.round))


@extend_schema(request=s.ExtendTableSerializer, responses={200: s.RoundOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def extend_table(request: Request, pairing_id: int) -> Response:
    """More time for one table after (or before) time is called: minutes or hands."""
    pairing = _pairing(request, pairing_id)
    _run(request, pairing.round.tournament)
    data = valid(s.ExtendTableSerializer, request)
    services.extend_table(pairing_id=pairing.pk, actor=actor_of(request), **data)
    return Response(_round_out(pairing.round))


@extend_schema(
    request=s.RequiredReasonSerializer, responses={200: s.RoundOutputSerializer, **ERRORS}
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def clear_result(request: Request, pairing_id: int) -> Response:
    pairing = _pairing(request, pairing_id)
    _run(request, pairing.round.tournament)
    data = valid(s.RequiredReasonSerializer, request)
    services.clear_result(pairing_id=pairing.pk, actor=actor_of(request), **data)
    return Response(_round_out(pairing.round))


@extend_schema(responses={200: s.WaitingCallOutputSerializer(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def calls(request: Request, slug: str) -> Response:
    """The calls from its tables still waiting for staff ("Organiser, please"), oldest
    first, with their table and how long each has waited: what the dashboard shows."""
    found = _tournament(request, slug)
    _run(request, found)
    return Response(
        represent(s.WaitingCallOutputSerializer, selectors.waiting_calls(found), many=True)
    )


# --------------------------------------------------------------- standings, pairings


def _through(request: Request) -> int | None:
    value = request.query_params.get("round")
    if value in (None, ""):
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 9 or int(value) < 1:
        raise ServiceError(
            "invalid", _("round must be a round number."), fields={"round": "a whole number"}
        )
    return int(value)


def _standings(request: Request, found: Tournament):
    public = not _manages(request, found)
    through = _through(request)
    if through is not None and not found.round_set.filter(number=through).exists():
        raise ServiceError(
            "invalid",
            _("%(name)s has no round %(number)s.") % {"name": found.name, "number": through},
            fields={"round": "a round of the tournament"},
        )
    return selectors.standings(found, public=public, through_round=through)


@extend_schema(parameters=[ROUND_PARAM], responses={200: s.StandingsOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([AllowAny])
def standings(request: Request, slug: str) -> Response:
    """The standings with every tie-break value; the public sees what hiding allows."""
    view = _standings(request, _tournament(request, slug))
    return Response(represent(s.StandingsOutputSerializer, view))


@extend_schema(parameters=[ROUND_PARAM], responses={200: s.ViewerRoundOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([AllowAny])
def pairings(request: Request, slug: str) -> Response:
    """A published round's pairings with table numbers and scores (default: the latest)."""
    found = _tournament(request, slug)
    listed = selectors.rounds_of(found).exclude(state=Round.State.DRAFT)
    number = _through(request)
    rnd = (listed.filter(number=number) if number is not None else listed.reverse()).first()
    if rnd is None:
        raise NotFound(
            "not_found", _("No published round yet.") if number is None else _("No such round.")
        )
    return Response(_viewer_round_out(request, rnd, found))


# -------------------------------------------------------------------------- exports


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@extend_schema(parameters=[ROUND_PARAM], responses=CSV, operation_id="standings_csv")
@api_view(["GET"])
@permission_classes([AllowAny])
@renderer_classes([JSONRenderer, CsvRenderer])
def standings_csv(request: Request, slug: str) -> HttpResponse:
    found = _tournament(request, slug)
    inputs.require_format(request, "csv")
    return _csv(selectors.standings_csv(_standings(request, found)), f"{found.slug}-standings.csv")


@extend_schema(responses=CSV, operation_id="hands_csv")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@renderer_classes([JSONRenderer, CsvRenderer])
def hands_csv(request: Request, slug: str) -> HttpResponse:
    found = _tournament(request, slug)
    _managed(request, found)
    return _csv(selectors.hands_csv(found), f"{found.slug}-hands.csv")


AUDIT_PARAMS = [
    OpenApiParameter("kind", str, enum=list(KINDS), description="Only this kind of exception."),
    OpenApiParameter("round", int, description="Only the exceptions of this round."),
    OpenApiParameter("player", str, description="Only the matches of players so named."),
]


def _audit(request: Request, slug: str) -> selectors.Audit:
    """The tournament's audit, filtered as asked: its organisers and auditors."""
    found = _tournament(request, slug)
    permissions.require_audit_tournament(actor_of(request), found)
    asked = request.query_params
    return selectors.tournament_audit(
        found,
        kind=asked.get("kind", ""),
        round=asked.get("round"),
        player=asked.get("player", ""),
    )


@extend_schema(parameters=AUDIT_PARAMS, responses={200: s.AuditOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def audit(request: Request, slug: str) -> Response:
    """Every result not made by the two players agreeing (who, device, when, why,
    before and after), and every chain of the event verified."""
    return Response(represent(s.AuditOutputSerializer, _audit(request, slug)))


@extend_schema(parameters=AUDIT_PARAMS, responses=CSV, operation_id="audit_csv")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@renderer_classes([JSONRenderer, CsvRenderer])
def audit_csv(request: Request, slug: str) -> HttpResponse:
    """The audit's exceptions as CSV, one a line, with full hashes."""
    found = _audit(request, slug)
    return _csv(selectors.audit_csv(found), f"{found.tournament.slug}-audit.csv")


# Free-form on purpose: the archive is a whole tournament as a document (format and
# version inside it, see tournaments.selectors.exports), read back only by import_archive.
@extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def archive(request: Request, slug: str) -> Response:
    """The whole tournament as a JSON archive (import it with the club import endpoint)."""
    found = _tournament(request, slug)
    _managed(request, found)
    response = Response(selectors.tournament_archive(found))
    response["Content-Disposition"] = f'attachment; filename="{found.slug}.json"'
    return response


# The JSON body is free-form on purpose: it is archive()'s document, checked by the service.
@extend_schema(
    request={"application/json": OpenApiTypes.OBJECT, "multipart/form-data": s.ImportCsvSerializer},
    responses={202: s.JobOutputSerializer, **ERRORS},
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@parser_classes([inputs.BoundedJSONParser, MultiPartParser])
def import_archive(request: Request, slug: str) -> Response:
    """Create a tournament in this club from another instance's archive (JSON body, or
    a `file` upload). The archive is checked whole at once (400 naming the faulty part);
    the import, which scores every hand again, is a background job: 202 with the job
    (poll its `url` until it is done; then `tournament` is the new one's slug)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFound("not_found", _("No such club."))
    data = request.data
    upload = request.FILES.get("file")
    if upload is not None:
        try:
            data = inputs.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ServiceError("bad_archive", _("The file is not a JSON archive.")) from None
    job = services.start_archive_import(club=club, actor=actor_of(request), archive=data)
    return _accepted(request, job)


# ------------------------------------------------------------------------------ jobs


def _job_out(request: Request, view: JobView) -> dict:
    return s.JobOutputSerializer(view, context={"request": request}).data


def _accepted(request: Request, job: Job) -> Response:
    """202: the work is queued; the body is the job, `Location` its address."""
    job.refresh_from_db()  # the test suite's immediate backend may have run it already
    body = _job_out(request, services.progress_of(job))
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


@extend_schema(responses={200: s.JobOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def job(request: Request, job_id: int) -> Response:
    """A background job: its state and progress, what it did, or why it failed."""
    found = Job.objects.select_related("club", "tournament").filter(pk=job_id).first()
    if found is None:
        raise NotFound("not_found", _("No such job."))
    permissions.require_see_job(actor_of(request), found)
    return Response(_job_out(request, services.progress_of(found)))


# -------------------------------------------------------------------------- seasons


def _club_by_slug(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFound("not_found", _("No such club."))
    return club


def _season(request: Request, slug: str, season: str) -> Season:
    """The season if the requester may see it (ginclub.permissions), else 404."""
    found = Season.objects.select_related("club").filter(club__slug=slug, slug=season).first()
    if found is None:
        raise NotFound("not_found", _("No such season."))
    permissions.require_view_season(actor_of(request), found)
    return found


def _season_detail(season: Season) -> dict:
    return represent(s.SeasonOutputSerializer, season)


@extend_schema(
    methods=["GET"],
    responses={200: s.SeasonOutputSerializer(many=True), **ERRORS},
    operation_id="seasons_list",
)
@extend_schema(
    methods=["POST"],
    request=s.CreateSeasonSerializer,
    responses={201: s.SeasonOutputSerializer, **ERRORS},
    operation_id="seasons_create",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def club_seasons(request: Request, slug: str) -> Response:
    """A club's seasons: all of them for its members and organisers, the public ones
    for anybody else. Its organisers create them."""
    club = _club_by_slug(slug)
    actor = actor_of(request)
    if request.method == "GET":
        rows = selectors.seasons_of(club, actor)
        return Response([_season_detail(season) for season in rows[:200]])
    # Translators: completes "Only the organisers of <club> may ...".
    permissions.require_organiser(actor, club, _("create seasons"))
    data = valid(s.CreateSeasonSerializer, request)
    season = season_services.create_season(club=club, actor=actor, **data)
    return Response(_season_detail(season), status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["GET"],
    responses={200: s.SeasonOutputSerializer, **ERRORS},
    operation_id="seasons_detail",
)
@extend_schema(
    methods=["PATCH"],
    request=s.SeasonSettingsSerializer,
    responses={200: s.SeasonOutputSerializer, **ERRORS},
    operation_id="seasons_update",
)
@api_view(["GET", "PATCH"])
@permission_classes([AllowAny])
def season_detail(request: Request, slug: str, season: str) -> Response:
    found = _season(request, slug, season)
    if request.method == "PATCH":
        permissions.require_organiser(
            actor_of(request), found.club, _("change %(name)s") % {"name": found.name}
        )
        data = valid(s.SeasonSettingsSerializer, request)
        found = season_services.update_season(season_id=found.pk, actor=actor_of(request), **data)
    return Response(_season_detail(found))


@extend_schema(responses={200: s.LadderOutputSerializer, **ERRORS}, operation_id="season_ladder")
@api_view(["GET"])
@permission_classes([AllowAny])
def season_ladder(request: Request, slug: str, season: str) -> Response:
    """The ladder, best first: ranked players, then those under the minimum of matches
    (rank null), each line with its tie-break values and why it stands there. For
    readers other than the club's organisers, the last stored ladder may be answered
    (`up_to_date` false) for the few seconds its background refresh takes."""
    found = _season(request, slug, season)
    exact = permissions.may_manage_season(actor_of(request), found)
    ladder = season_ladders.ladder_of(found, exact=exact)
    return Response(represent(s.LadderOutputSerializer, ladder))


# ------------------------------------------------------------ sign-up by players


@extend_schema(methods=["GET"], request=None, responses={200: s.SignupsOutputSerializer, **ERRORS})
@extend_schema(
    methods=["PATCH"],
    request=s.SignupSettingsSerializer,
    responses={200: s.SignupsOutputSerializer, **ERRORS},
)
@api_view(["GET", "PATCH"])
@permission_classes([IsAuthenticated])
def signups(request: Request, slug: str) -> Response:
    """The sign-ups (pending, waiting) and their settings: read by the organisers and
    auditors; changed (open or close, capacity, approval, closing time, start and
    check-in window, late-entry rule) by the organisers only."""
    found = _tournament(request, slug)
    actor = actor_of(request)
    if request.method == "PATCH":
        permissions.require_manage_signups(actor, found)  # before the body is read
        data = valid(s.SignupSettingsSerializer, request)
        found = services.set_signups(
            tournament_id=found.pk,
            actor=actor,
            changes=services.SignupSettings(
                open=data.get("open"),
                capacity=data.get("capacity"),
                clear_capacity="capacity" in data and data["capacity"] is None,
                approval=data.get("approval"),
                closes_at=data.get("closes_at"),
                clear_closes_at="closes_at" in data and data["closes_at"] is None,
                starts_at=data.get("starts_at"),
                clear_starts_at="starts_at" in data and data["starts_at"] is None,
                check_in_opens=data.get("check_in_opens"),
                late_entry=data.get("late_entry"),
            ),
        )
    else:
        permissions.require_audit_tournament(actor, found)
    return Response(represent(s.SignupsOutputSerializer, selectors.signups_of(found)))


def _by_code(code: str) -> Tournament:
    tournament = (
        Tournament.objects.select_related("club")
        .filter(signup_code=selectors.normal_code(code))
        .exclude(signup_code="")
        .first()
    )
    if tournament is None:
        raise NotFound("not_found", _("No tournament has that sign-up code."))
    return tournament


def _signup_out(signup: SignUp) -> dict:
    return represent(s.SignUpOutputSerializer, selectors.signup_view(signup))


@extend_schema(request=s.SignUpSerializer, responses={201: s.SignUpOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([AllowAny])
def sign_up(request: Request, code: str) -> Response:
    """Sign up with a name, an optional email and a PIN (docs/organisers.md: a name or
    email already a club player's needs that player's PIN, or the organiser). Counted
    per address before anything else."""
    found = _by_code(code)
    data = valid(s.SignUpSerializer, request)
    made = services.sign_up(tournament_id=found.pk, actor=actor_of(request), **data)
    permissions.remember_signup(request, made)
    return Response(_signup_out(made), status=status.HTTP_201_CREATED)


def _signup(request: Request, code: str, signup_id: int) -> SignUp:
    """The sign-up, if this client may read it (permissions.may_see_signup: the session
    that made it, the tournament's managers); else 404, as for one that does not exist."""
    found = _by_code(code)
    signup = (
        SignUp.objects.select_related("player", "claims", "tournament__club")
        .filter(pk=signup_id, tournament=found)
        .first()
    )
    if signup is None or not permissions.may_see_signup(request, signup):
        raise NotFound("not_found", _("No such sign-up."))
    return signup


@extend_schema(request=None, responses={200: s.SignUpOutputSerializer, **ERRORS})
@api_view(["GET"])
@permission_classes([AllowAny])
def signup_status(request: Request, code: str, signup_id: int) -> Response:
    """Where a sign-up stands: a place, its place on the waiting list, the organiser."""
    return Response(_signup_out(_signup(request, code, signup_id)))


def _acting(request: Request, tournament: Tournament, player, pin: str):
    """The requester, acting for `player` with `pin` unless it may act without (an
    organiser: permissions.may_act_on_own_entry)."""
    actor = actor_of(request)
    if player is None or permissions.may_act_on_own_entry(actor, tournament, player):
        return actor
    permissions.refuse_auditor(actor, tournament.club)  # an auditor changes nothing
    return scoring_services.acting_for_player(actor, player=player, pin=pin)


@extend_schema(request=s.PinSerializer, responses={200: s.SignUpOutputSerializer, **ERRORS})
@api_view(["POST"])
@permission_classes([AllowAny])
def signup_leave(request: Request, code: str, signup_id: int) -> Response:
    """The player leaves (with their PIN) before round 1; the waiting list moves up."""
    signup = _signup(request, code, signup_id)
    data = valid(s.PinSerializer, request)
    actor = _acting(request, signup.tournament, signup.player, data["pin"])
    return Response(_signup_out(services.leave_signup(signup_id=signup.pk, actor=actor)))


def _signup_action(serializer_class, call, name: str):
    @extend_schema(
        request=serializer_class,
        responses={200: s.SignUpOutputSerializer, **ERRORS},
        operation_id=name,
    )
    @api_view(["POST"])
    @permission_classes([IsAuthenticated])
    def endpoint(request: Request, signup_id: int) -> Response:
        signup = SignUp.objects.select_related("tournament__club").filter(pk=signup_id).first()
        if signup is None or not permissions.may_view_tournament(
            actor_of(request), signup.tournament
        ):
            raise NotFound("not_found", _("No such sign-up."))
        permissions.require_manage_signups(actor_of(request), signup.tournament)
        data = valid(serializer_class, request) if serializer_class else {}
        return Response(_signup_out(call(signup_id=signup.pk, actor=actor_of(request), **data)))

    endpoint.__name__ = name
    return endpoint


approve_signup = _signup_action(None, services.approve_signup, "signup_approve")
refuse_signup = _signup_action(s.OptionalReasonSerializer, services.refuse_signup, "signup_refuse")
resolve_signup = _signup_action(
    s.ResolveSignUpSerializer, services.resolve_signup, "signup_resolve"
)


def _own_action(call, name: str, doc: str):
    @extend_schema(
        request=s.PinSerializer,
        responses={200: s.RegistrationSerializer, **ERRORS},
        operation_id=name,
        description=doc,
    )
    @api_view(["POST"])
    @permission_classes([AllowAny])
    def endpoint(request: Request, registration_id: int) -> Response:
        registration = _registration(request, registration_id)
        data = valid(s.PinSerializer, request)
        actor = _acting(request, registration.tournament, registration.player, data["pin"])
        updated = call(registration_id=registration.pk, actor=actor)
        return Response(represent(s.RegistrationSerializer, updated))

    endpoint.__name__ = name
    return endpoint


self_check_in = _own_action(
    services.check_in_by_phone,
    "registration_self_check_in",
    "The player checks in (with their PIN), in the check-in window before round 1.",
)
drop = _own_action(
    services.drop,
    "registration_drop",
    "The player drops after the current round (with their PIN): withdrawn, results stand.",
)
