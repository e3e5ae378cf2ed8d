"""A tournament's audit: every result not made by the two players agreeing, and every
chain of the event verified (tournaments.selectors.audit), as a page and as downloads.
Its organisers and auditors read it (organiser_page lets auditors read)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ginclub.shapes import represent
from tournaments import selectors
from tournaments import serializers as s
from tournaments.forms import AuditFilterForm
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
    """The audit, filtered as its form asks; a filter refused is marked on the form (400)
    and the list shows what the other filters keep."""
    form = AuditFilterForm(request.GET)
    form.is_valid()
    filters = form.cleaned_data  # without the fields refused
    audit = selectors.tournament_audit(tournament, **filters)
    query = urlencode({name: value for name, value in filters.items() if value not in ("", None)})
    return render(
        request,
        "tournaments/audit.html",
        {
            "tournament": tournament,
            "audit": audit,
            "form": form,
            "kinds": [(key, label) for key, label in KINDS.items()],
            "rounds": selectors.rounds_of(tournament).values_list("number", flat=True),
            "query": f"?{query}" if query else "",
            "manage": manages(request, tournament),
            "tab": "audit",
        },
        status=400 if form.errors else 200,
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
