"""Printables (table cards, score sheets, final standings: browser print CSS), the
downloads (standings CSV, hands CSV, JSON archive) and the archive import form.

Printables are in the event's language when it has one (Tournament.language), whoever
prints them, else in the viewer's (render_printed)."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from ginclub import inputs
from ginclub.errors import ServiceError
from ginclub.permissions import actor_of
from tournaments import selectors, services
from tournaments.forms import ArchiveImportForm
from tournaments.models import Job, Round, Tournament
from tournaments.views.common import organiser_page, whole_number
from tournaments.views.setup import require_some_club

HANDS_A_GAME = 12  # rows on a score sheet's game grid; a game rarely needs more


def render_printed(
    request: HttpRequest,
    tournament: Tournament,
    template: str,
    context: dict | Callable[[], dict],
) -> HttpResponse:
    """`template` rendered in the event's language when it has one, else in the
    viewer's; Content-Language says which. A callable `context` is built in that
    language too (worded text computed before rendering: the standings' notes)."""
    language = tournament.language or translation.get_language()
    with translation.override(language):
        response = render(request, template, context() if callable(context) else context)
    response["Content-Language"] = language
    return response


def _print_round(tournament: Tournament, request: HttpRequest) -> Round | None:
    rounds = tournament.round_set.exclude(state=Round.State.DRAFT)
    number = whole_number(request, "round", _("A round"))
    if number is not None:
        return rounds.filter(number=number).first()
    return rounds.order_by("-number").first()


def _tables(rnd: Round | None, request: HttpRequest) -> list:
    if rnd is None:
        return []
    rows = [row for row in selectors.tables(rnd) if not row.pairing.is_bye]
    table = whole_number(request, "table", _("A table"))
    if table is not None:
        rows = [row for row in rows if row.pairing.table == table]
    return rows


@organiser_page
def table_cards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One card per table: its number, the two names and the QR code of its link."""
    rnd = _print_round(tournament, request)
    cards = []
    for row in _tables(rnd, request):
        url = request.build_absolute_uri(selectors.table_path(row.pairing.match))
        cards.append({"pairing": row.pairing, "url": url, "qr": selectors.qr_svg(url, scale=5)})
    return render_printed(
        request,
        tournament,
        "tournaments/print_cards.html",
        {"tournament": tournament, "round": rnd, "cards": cards},
    )


@organiser_page
def score_sheets(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Blank sheets for tables without a phone: a grid per game of the match, laid out
    for the rules that table plays (its match's own: a round kept under earlier rules
    keeps them; Hollywood is one run of hands scored into three games)."""
    rnd = _print_round(tournament, request)
    sheets = [_sheet(row, tournament.rules or {}) for row in _tables(rnd, request)]
    return render_printed(
        request,
        tournament,
        "tournaments/print_sheets.html",
        {"tournament": tournament, "round": rnd, "sheets": sheets},
    )


def _sheet(row, event_rules: dict) -> dict:
    rules = (row.pairing.match.rules if row.pairing.match_id else None) or event_rules
    fixed = rules.get("game_hands")
    hands = range(1, (fixed or HANDS_A_GAME) + 1)
    if rules.get("hollywood"):  # one run of hands for the three games: twice the rows
        hands = range(1, 2 * HANDS_A_GAME + 1)
        return {"row": row, "rules": rules, "hollywood": True, "games": [1], "hands": hands}
    games = range(1, 2 * rules.get("games_to_win", 1))
    return {"row": row, "rules": rules, "hollywood": False, "games": games, "hands": hands}


@organiser_page
def print_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render_printed(
        request,
        tournament,
        "tournaments/print_standings.html",
        lambda: {"tournament": tournament, "standings": selectors.standings(tournament)},
    )


def download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@organiser_page
def standings_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The standings as CSV (after round `round`, if asked); junk parameters are refused."""
    inputs.require_format(request, "csv")
    through = whole_number(request, "round", _("A round"))
    if through is not None and not tournament.round_set.filter(number=through).exists():
        raise ServiceError(
            "invalid",
            _("%(name)s has no round %(number)s.") % {"name": tournament.name, "number": through},
            fields={"round": "a round of the tournament"},
        )
    return download(
        selectors.standings_csv(selectors.standings(tournament, through_round=through)),
        f"{tournament.slug}-standings.csv",
        "text/csv; charset=utf-8",
    )


@organiser_page
def hands_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return download(
        selectors.hands_csv(tournament), f"{tournament.slug}-hands.csv", "text/csv; charset=utf-8"
    )


@organiser_page
def archive_json(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    body = json.dumps(selectors.tournament_archive(tournament), cls=DjangoJSONEncoder, indent=1)
    return download(body, f"{tournament.slug}-archive.json", "application/json")


@login_required
def import_archive(request: HttpRequest) -> HttpResponse:
    """The archive is checked whole here; the import itself (every hand scored again) is
    a background job, whose page this sends the organiser to."""
    clubs = require_some_club(actor_of(request), "import tournaments")
    form = ArchiveImportForm(request.POST or None, request.FILES or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            data = inputs.loads(form.cleaned_data["file"].read())
        except (UnicodeDecodeError, ValueError) as error:
            form.add_error("file", _("This is not a JSON archive: %(error)s.") % {"error": error})
        else:
            job = services.start_archive_import(
                club=form.clubs[form.cleaned_data["club"]], actor=actor_of(request), archive=data
            )
            return redirect("tournaments:job", job_id=job.pk)
    jobs = services.recent_jobs(clubs=clubs, kind=Job.Kind.IMPORT_ARCHIVE)
    return render(
        request,
        "tournaments/import.html",
        {"form": form, "jobs": jobs, "worker_missing": services.worker_missing()},
        status=400 if form.errors else 200,
    )
