"""A player's page: their matches and events, head-to-head lines and statistics.

Who may read it is asked of ginclub.permissions (may_see_player): the club's members and
organisers, or anyone when the club made its player pages public. Anyone else is told
there is no such player. The figures come from scoring.stats in a fixed number of queries.
"""

from __future__ import annotations

from csp.decorators import csp
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ginclub import permissions
from ginclub.errors import NotFound
from scoring import charts, selectors, services, stats
from scoring.models import Player


def visible_player(request: HttpRequest, player_id: int) -> tuple[Player, permissions.Actor]:
    """The player with their club, if the request may see them (else a 404)."""
    actor = permissions.actor_of(request)
    return stats.visible_player(actor, player_id), actor


# The page lists the latest matches (a phone need not render two hundred rows); "all
# matches" (?matches=all) and the API list every one.
MATCHES_SHOWN = 50


@require_GET
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player, actor = visible_player(request, player_id)
    every = request.GET.get("matches") == "all"
    record = stats.player_record(player, actor, matches_shown=None if every else MATCHES_SHOWN)
    organiser = permissions.organises(actor, player.club)
    user_id = actor.user.pk if actor.is_authenticated else None
    return render(
        request,
        "scoring/player.html",
        {
            "player": player,
            "record": record,
            "organiser": organiser,
            # The viewer opens a match's own page only where they may (its players,
            # organisers); everyone else reads the result in the list.
            "openable": {
                line.match.pk
                for line in record.matches
                if organiser
                or (
                    user_id
                    and user_id in (line.match.player_a.user_id, line.match.player_b.user_id)
                )
            },
            "min_hands": stats.MIN_HANDS,
            "min_games": stats.MIN_GAMES,
        },
    )


@login_required
@require_POST
def player_pages_setting(request: HttpRequest, slug: str) -> HttpResponse:
    """Organisers open the club's player pages to everybody, or keep them to members."""
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    public = request.POST.get("player_pages_public") == "on"
    services.set_player_pages_public(club=club, actor=permissions.actor_of(request), public=public)
    messages.success(
        request,
        _("Player pages are open to everybody.")
        if public
        else _("Player pages are for the members and organisers of %(club)s.")
        % {"club": club.name},
    )
    return redirect("scoring:club", slug=slug)


CHARTS = {
    "results": lambda player, hidden: charts.results_per_month(
        stats.history(player, hidden).months
    ),
    "deadwood": lambda player, hidden: charts.knock_deadwood(
        stats.history(player, hidden).deadwood
    ),
    "rating": lambda player, hidden: charts.rating_over_time(stats.rating_history(player, hidden)),
}


# A chart is an image of shapes and text styled by its own <style> element: it may use
# inline styles and load nothing, run nothing (charts.py takes pygal's scripts out).
@csp({"default-src": ["'none'"], "style-src": ["'unsafe-inline'"]})
@require_GET
def player_chart(request: HttpRequest, player_id: int, chart: str) -> HttpResponse:
    """One of the player's charts as image/svg+xml, for an <img> on their page."""
    if chart not in CHARTS:
        raise NotFound("not_found", _("No such chart."))
    player, actor = visible_player(request, player_id)
    unseen, hidden = stats.withheld(player, actor)
    response = HttpResponse(CHARTS[chart](player, unseen | hidden), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's rated list: for those who may read its player pages."""
    club = stats.visible_club(permissions.actor_of(request), slug)
    return render(
        request, "scoring/ratings.html", {"club": club, "ratings": stats.club_ratings(club)}
    )
