"""The bracket of a single elimination or of a Swiss's top cut: a public page whose chart
refreshes itself, and a print page (A4 or A3, landscape). Same visitors as the public
pages (tournaments.views.common.public_page); results the organiser hides stay hidden
(tournaments.views.public.hidden_after). The projector shows the same chart."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ginclub.errors import NotFound, ServiceError
from ginclub.http import answer_poll
from tournaments import selectors
from tournaments.models import Round, Tournament
from tournaments.selectors import hidden_after
from tournaments.views.common import audits, public_page
from tournaments.views.outputs import render_printed

PAPER = ("a4", "a3")


def require_bracket(tournament: Tournament) -> None:
    """A format without a bracket is a 404 with its reason."""
    if not selectors.has_bracket(tournament):
        raise NotFound(
            "no_bracket",
            _(
                "%(name)s is played as a %(format)s: it has no bracket. Its pairings and "
                "standings are on the public page."
            )
            % {"name": tournament.name, "format": tournament.get_format_display()},
        )


def bracket_of(tournament: Tournament) -> selectors.BracketView:
    require_bracket(tournament)
    return selectors.bracket(tournament, hidden_after=hidden_after(tournament))


def _latest(tournament: Tournament) -> Round | None:
    return tournament.round_set.exclude(state=Round.State.DRAFT).order_by("-number").first()


@public_page
@require_GET
def bracket_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournaments/bracket.html",
        {
            "tournament": tournament,
            "bracket": bracket_of(tournament),
            "staff": audits(request, tournament),
        },
    )


@public_page
@require_GET
def bracket_board(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The `bracket-board` partial the bracket page polls."""
    require_bracket(tournament)  # before any poll answer; the chart only when it changed
    return answer_poll(
        request,
        (*selectors.poll_version(tournament, _latest(tournament)), get_language()),
        lambda: render(
            request,
            "tournaments/_bracket_board.html",
            {"tournament": tournament, "bracket": bracket_of(tournament)},
        ),
    )


@public_page
@require_GET
def bracket_print(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The chart on one landscape sheet: `?paper=a4` (the default) or `a3`."""
    paper = (request.GET.get("paper") or "a4").strip().lower()
    if paper not in PAPER:
        raise ServiceError(
            "invalid",
            _("Paper is A4 or A3, not %(paper)s.") % {"paper": repr(paper[:10])},
            fields={"paper": _("a4 or a3")},
        )
    require_bracket(tournament)  # refused in the viewer's language
    return render_printed(
        request,
        tournament,
        "tournaments/print_bracket.html",
        lambda: {"tournament": tournament, "bracket": bracket_of(tournament), "paper": paper},
    )
