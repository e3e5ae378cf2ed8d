"""Warnings and penalties on the organiser's match page (docs/rules.md §18): record one
(with a preview of what it does to the result first), and reverse one with a reason.
The players of the match read the list on their scoreboard (scoring/_scoreboard.html).
Who may act is ginclub.permissions' (may_penalise); the services do the rest."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ginclub import permissions
from ginclub.errors import ServiceError
from scoring import services, views
from scoring.forms import PenaltyForm
from scoring.models import Match, Penalty
from scoring.words import names_of


def _form_data(request: HttpRequest, match: Match) -> dict[str, Any]:
    permissions.require_penalise(permissions.actor_of(request, match), match)
    if request.POST.get("seat") not in ("A", "B"):  # said with the players' names
        raise ServiceError(
            "invalid",
            _("Say against whom: %(a)s or %(b)s.")
            % {"a": match.player_a.name, "b": match.player_b.name},
            fields={"seat": _("required")},
        )
    data = dict(views._checked(PenaltyForm(request.POST), _("Check the penalty")))
    data["infraction"] = data.get("infraction") or Penalty.Infraction.OTHER
    return data


@login_required
@require_POST
def record(request: HttpRequest, match_id: int) -> HttpResponse:
    match = views._visible_match(request, match_id)
    data = _form_data(request, match)
    penalty = services.record_penalty(
        match_id=match.pk, actor=permissions.actor_of(request, match), **data
    )
    messages.success(
        request,
        _("%(kind)s recorded against %(name)s.")
        % {"kind": penalty.get_kind_display().capitalize(), "name": penalty.player.name},
    )
    return views._back(match)


@login_required
@require_POST
def preview(request: HttpRequest, match_id: int) -> HttpResponse:
    """What the penalty would do to the result (htmx: the `penalty-preview` partial; a
    plain post: the match page with it), or the refusal recording it would give."""
    match = views._visible_match(request, match_id)
    data = _form_data(request, match)
    shown = services.preview_penalty(
        match_id=match.pk,
        actor=permissions.actor_of(request, match),
        seat=data["seat"],
        kind=data["kind"],
    )
    values = {**data, "name": match.player(data["seat"]).name}
    extra = {
        "penalty_preview": shown,
        "penalty_values": values,
        "preview_before": result_text(shown.result_before, match),
        "preview_after": result_text(shown.result_after, match),
    }
    if request.htmx:
        return render(request, "scoring/_penalty_preview.html", {"match": match, **extra})
    context = views._match_context(request, match, **extra)
    context["hand_form"] = None
    return render(request, "scoring/match.html", context)


@login_required
@require_POST
def reverse(request: HttpRequest, penalty_id: int) -> HttpResponse:
    penalty = get_object_or_404(Penalty, pk=penalty_id)
    match = views._visible_match(request, penalty.match_id)
    permissions.require_penalise(permissions.actor_of(request, match), match)
    penalty = services.reverse_penalty(
        penalty_id=penalty.pk,
        actor=permissions.actor_of(request, match),
        reason=request.POST.get("reason", ""),
    )
    messages.success(
        request,
        _("The %(kind)s against %(name)s is reversed.")
        % {"kind": penalty.get_kind_display(), "name": penalty.player.name},
    )
    return views._back(match)


def result_text(result: dict[str, Any], match: Match) -> str:
    """A match result (scoring.services.result_of) in words with the players' names."""
    names = names_of(match)
    games, points = result["games_won"], result["points"]
    values = {
        "a": names["A"],
        "b": names["B"],
        "games_a": games["A"],
        "games_b": games["B"],
        "points_a": points["A"],
        "points_b": points["B"],
    }
    if result["winner"]:
        values["name"] = names[result["winner"]]
        return (
            _(
                "%(name)s wins: games %(a)s %(games_a)s – %(games_b)s %(b)s, points "
                "%(points_a)s – %(points_b)s"
            )
            % values
        )
    return (
        _(
            "undecided: games %(a)s %(games_a)s – %(games_b)s %(b)s, points %(points_a)s – "
            "%(points_b)s"
        )
        % values
    )
