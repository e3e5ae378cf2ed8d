"""The hall view: the dashboard of a big hall, one line a table (64 fit a 1280×800
screen), narrowed to one state or to a search, polled as cheaply as the dashboard (an
ETag from `selectors.poll_version`, and only the rows that moved rendered again:
tournaments.views.rounds.board_rows)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ginclub.errors import ServiceError
from ginclub.http import answer_poll
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.views.common import organiser_page
from tournaments.views.rounds import board_rows, dashboard_round, staff_context

# A search names a table or part of a player's name (Player.name holds 100 characters).
SEARCH_MAX = 100


def _lens(request: HttpRequest) -> tuple[str, str]:
    """(state, search) from the query string: a state of the hall's filters or none, and
    the search as typed."""
    state = request.GET.get("state", "").strip()
    if state and state not in selectors.HALL_STATES:
        raise ServiceError(
            "invalid",
            _(
                "There is no table filter %(state)s: choose calling, playing, pending, "
                "disputed, finishing after time or finished."
            )
            % {"state": repr(state[:40])},
            fields={"state": "one of " + ", ".join(selectors.HALL_STATES)},
        )
    search = request.GET.get("q", "").strip()
    if len(search) > SEARCH_MAX:
        raise ServiceError(
            "invalid",
            _("A search holds at most %(max)s characters.") % {"max": SEARCH_MAX},
            fields={"q": f"at most {SEARCH_MAX} characters"},
        )
    return state, search


def _context(request: HttpRequest, tournament: Tournament) -> dict:
    state, search = _lens(request)
    rnd = dashboard_round(tournament, request)
    context = {
        "tournament": tournament,
        "tab": "dashboard",
        "state": state,
        "search": search,
        **staff_context(request, tournament, rnd, _hall_url(tournament, rnd, state)),
    }
    if rnd is not None:
        board = selectors.dashboard_facts(rnd)
        shown = selectors.hall_rows(board.tables, state=state, search=search)
        context["board"] = board
        # The poll sends the search box's words as they are then (hx-include), so a poll
        # that crossed a search in flight cannot bring back the previous search.
        lens = {"round": rnd.number, "state": state}
        context["poll_query"] = urlencode({k: v for k, v in lens.items() if v})
        context["shown"] = len(shown)
        context["board_rows"] = board_rows(
            request,
            tournament,
            board,
            subset=shown,
            template="tournaments/_hall_row.html",
            lens=(state, search),
        )
    return context


def _hall_url(tournament: Tournament, rnd, state: str) -> str:
    lens = {"round": rnd.number if rnd is not None else "", "state": state}
    query = urlencode({k: v for k, v in lens.items() if v})
    return reverse("tournaments:hall", args=[tournament.slug]) + (f"?{query}" if query else "")


@organiser_page
def hall(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/hall.html", _context(request, tournament))


@organiser_page
@require_GET
def hall_tables(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The `hall-tables` partial the hall view polls."""
    rnd = dashboard_round(tournament, request)
    _lens(request)  # a bad filter is refused before the 304 too

    def board() -> HttpResponse:
        return render(request, "tournaments/_hall_tables.html", _context(request, tournament))

    return answer_poll(request, selectors.poll_version(tournament, rnd), board)
