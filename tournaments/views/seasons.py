"""Season pages: a club's seasons, creating and changing one (organisers), its ladder
(members and organisers; anybody when the season is public) and the ladder as CSV.

Who may do what is asked of ginclub.permissions; a private season is a 404 to everybody
else. No view catches a refusal (ginclub.middleware answers it).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ginclub import permissions
from ginclub.errors import NotFound
from ginclub.permissions import actor_of
from scoring.models import Club
from tournaments import selectors
from tournaments.models import Season, Tournament
from tournaments.season_forms import SeasonForm
from tournaments.services import season_ladders
from tournaments.services import seasons as services


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _season(request: HttpRequest, slug: str, season: str) -> Season:
    """The season if the requester may see it, else 404."""
    found = Season.objects.select_related("club").filter(club__slug=slug, slug=season).first()
    if found is None:
        raise NotFound("not_found", _("No such season."))
    permissions.require_view_season(actor_of(request), found)
    return found


def _club_tournaments(club: Club) -> list[Tournament]:
    return list(club.tournaments.order_by("-date", "name"))


@require_GET
def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    actor = actor_of(request)
    organiser = permissions.organises(actor, club)
    member = permissions.is_member(actor, club)
    seasons = list(selectors.seasons_of(club, actor))
    if not (seasons or organiser or member):
        raise NotFound("not_found", _("No such club."))  # a private club's seasons stay unknown
    return render(
        request,
        "tournaments/seasons.html",
        {"club": club, "seasons": seasons, "organiser": organiser},
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    actor = actor_of(request)
    # Translators: completes "Only the organisers of <club> may ...".
    permissions.require_organiser(actor, club, _("create seasons"))
    form = SeasonForm(request.POST or None, tournaments=_club_tournaments(club))
    if request.method == "POST" and form.is_valid():
        season = services.create_season(club=club, actor=actor, **form.settings())
        messages.success(request, _("%(name)s created.") % {"name": season.name})
        return redirect("tournaments:season", slug=club.slug, season=season.slug)
    return render(
        request,
        "tournaments/season_form.html",
        {"club": club, "form": form, "season": None},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    found = _season(request, slug, season)
    actor = actor_of(request)
    permissions.require_organiser(actor, found.club, _("change %(name)s") % {"name": found.name})
    form = SeasonForm(
        request.POST or None,
        tournaments=_club_tournaments(found.club),
        initial=SeasonForm.initial_from(services.settings_of(found)),
    )
    if request.method == "POST" and form.is_valid():
        services.update_season(season_id=found.pk, actor=actor, **form.settings())
        messages.success(request, _("Season saved."))
        return redirect("tournaments:season", slug=found.club.slug, season=found.slug)
    return render(
        request,
        "tournaments/season_form.html",
        {"club": found.club, "form": form, "season": found},
        status=400 if form.errors else 200,
    )


@require_GET
def season_ladder(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    found = _season(request, slug, season)
    actor = actor_of(request)
    organiser = permissions.may_manage_season(actor, found)
    return render(
        request,
        "tournaments/season.html",
        {
            "season": found,
            "club": found.club,
            # an organiser who just changed the season sees it exact (see ladder_of)
            "ladder": season_ladders.ladder_of(found, exact=organiser),
            "organiser": organiser,
            "player_links": permissions.may_see_players_of(actor, found.club),
        },
    )


@require_GET
def season_csv(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    found = _season(request, slug, season)
    response = HttpResponse(
        selectors.ladder_csv(season_ladders.ladder_of(found)),
        content_type="text/csv; charset=utf-8",
    )
    filename = f"{found.club.slug}-{found.slug}-ladder.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
