"""A tournament's audit: every result not made by the two players agreeing, and every
chain of the event verified (tournaments.selectors.audit), as a page and as downloads.
Its organisers and auditors read it (organiser_page lets auditors read)."""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ginclub.shapes import represent
from tournaments import selectors
from tournaments import serializers as s
from tournaments.models import Tournament
from tournaments.selectors.audit import KINDS
from tournaments.views.common import manages, organiser_page
from tournaments.views.outputs import download


def _audit(request: HttpRequest, tournament: Tournament) -> selectors.Audit:
    return selectors.tournament_audit(
        tournament,
        kind=request.GET.get("kind", ""),
        round=request.GET.get("round"),
        player=request.GET.get("player", ""),
    )


@require_GET
@organiser_page
def audit_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    audit = _audit(request, tournament)
    query = request.GET.urlencode()
    return render(
        request,
        "tournaments/audit.html",
        {
            "tournament": tournament,
            "audit": audit,
            "kinds": [(key, label) for key, label in KINDS.items()],
            "rounds": selectors.rounds_of(tournament).values_list("number", flat=True),
            "query": f"?{query}" if query else "",
            "manage": manages(request, tournament),
            "tab": "audit",
        },
    )


@require_GET
@organiser_page
def audit_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return download(
        selectors.audit_csv(_audit(request, tournament)),
        f"{tournament.slug}-audit.csv",
        "text/csv; charset=utf-8",
    )


@require_GET
@organiser_page
def audit_json(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    data = represent(s.AuditOutputSerializer, _audit(request, tournament))
    body = json.dumps(data, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False)
    return download(body, f"{tournament.slug}-audit.json", "application/json")
