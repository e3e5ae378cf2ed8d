"""Public pages, no login: pairings with table numbers, live standings (hidden as the
organiser chose), each match's score, and the projector view.

Results of the rounds hidden by `hide_last_rounds` stay hidden here too until the end,
or the pairings page would give the hidden standings away. The private match page
(hand entry) is never linked: the public gets a read-only summary.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ginclub import permissions
from ginclub.http import answer_poll
from scoring import selectors as scoring_selectors
from tournaments import selectors
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors import hidden_after
from tournaments.views.common import audits, public_page, whole_number


def _published(tournament: Tournament):
    return tournament.round_set.exclude(state=Round.State.DRAFT).order_by("number")


def _shown_round(tournament: Tournament, request: HttpRequest) -> Round | None:
    number = whole_number(request, "round", _("A round"))
    rounds = _published(tournament)
    if number is not None:
        return rounds.filter(number=number).first()
    return rounds.last()


def _pairings_context(tournament: Tournament, rnd: Round | None) -> dict:
    limit = hidden_after(tournament)
    return {
        "tournament": tournament,
        "round": rnd,
        "rows": selectors.tables(rnd) if rnd is not None else [],
        "clock": selectors.clock(rnd) if rnd is not None else None,
        "results_hidden": rnd is not None and limit is not None and rnd.number > limit,
    }


@public_page
@require_GET
def home(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Pairings of the current round (or of `?round=N`), with the round list."""
    rnd = _shown_round(tournament, request)
    context = _pairings_context(tournament, rnd)
    context["seats"] = selectors.seats_by_name(context["rows"])
    context["rounds"] = _published(tournament)
    context["staff"] = audits(request, tournament)
    return render(request, "tournaments/public.html", context)


@public_page
@require_GET
def pairings_table(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The `pairings-table` partial the public page polls."""
    rnd = _shown_round(tournament, request)
    return answer_poll(
        request,
        (*selectors.poll_version(tournament, rnd), get_language()),
        lambda: render(
            request, "tournaments/_pairings_table.html", _pairings_context(tournament, rnd)
        ),
    )


def _standings_context(tournament: Tournament) -> dict:
    view = selectors.standings(tournament, public=True)
    return {
        "tournament": tournament,
        "standings": view,
        "public": True,
        # Changes to results of closed rounds the public may see (none while hidden).
        "changes": []
        if view.hidden and not view.rows
        else selectors.results_changed(tournament, through_round=view.through_round),
    }


def _player_links(request: HttpRequest, tournament: Tournament) -> bool:
    """Names link to the players' pages where this viewer may read them (player_links)."""
    return permissions.may_see_players_of(permissions.actor_of(request), tournament.club)


@public_page
@require_GET
def standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournaments/public_standings.html",
        {
            **_standings_context(tournament),
            "staff": audits(request, tournament),
            "player_links": _player_links(request, tournament),
        },
    )


@public_page
@require_GET
def standings_table(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The `standings-table` partial the public standings page polls."""
    return answer_poll(
        request,
        (*selectors.poll_version(tournament, None), get_language()),
        lambda: render(
            request,
            "tournaments/_standings_table.html",
            {**_standings_context(tournament), "player_links": _player_links(request, tournament)},
        ),
    )


@public_page
@require_GET
def match_summary(request: HttpRequest, tournament: Tournament, pairing_id: int) -> HttpResponse:
    pairing = get_object_or_404(
        Pairing.objects.select_related("round", "player_a__player", "player_b__player"),
        pk=pairing_id,
        round__tournament=tournament,
    )
    if pairing.round.state == Round.State.DRAFT:
        raise Http404(_("No such table."))
    limit = hidden_after(tournament)
    hidden = limit is not None and pairing.round.number > limit
    view = (
        scoring_selectors.match_view(pairing.match_id) if pairing.match_id and not hidden else None
    )
    return render(
        request,
        "tournaments/match_summary.html",
        {
            "tournament": tournament,
            "pairing": pairing,
            "view": view,
            "hidden": hidden,
            "staff": audits(request, tournament),
        },
    )


def _projector_context(tournament: Tournament) -> dict:
    rnd = _published(tournament).last()
    limit = hidden_after(tournament)
    return {
        "round": rnd,
        "rows": selectors.projector_rows(rnd) if rnd is not None else [],
        "clock": selectors.clock(rnd) if rnd is not None else None,
        "results_hidden": rnd is not None and limit is not None and rnd.number > limit,
        **_standings_context(tournament),
        # read from the back of the hall, touched by nobody: no "tap" or "swipe" words
        "projector": True,
        # the bracket, once it is played (tournaments.selectors.bracket)
        "bracket": selectors.bracket(tournament, hidden_after=limit)
        if rnd is not None and rnd.stage == Round.Stage.ELIMINATION
        else None,
    }


@public_page
@require_GET
def projector(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/projector.html", _projector_context(tournament))


@public_page
@require_GET
def projector_board(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The `projector-board` partial the projector polls."""
    return answer_poll(
        request,
        (*selectors.poll_version(tournament, _published(tournament).last()), get_language()),
        lambda: render(
            request, "tournaments/_projector_board.html", _projector_context(tournament)
        ),
    )
