"""Pages for the table (players' phones) and the club (organisers).

Each view parses input, calls one service, renders. htmx requests get the partial named
after the DOM id it replaces; plain posts redirect, so every page works without JS.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from scoring import access, selectors, services
from ginclub.errors import Forbidden, ServiceError
from scoring.forms import (
    CARD_CHOICES,
    AddPlayerForm,
    CorrectionForm,
    HandForm,
    SeatForm,
    StartMatchForm,
    VersionForm,
    new_key,
)
from scoring.hands import hand_input_from
from scoring.models import Club, Hand, Match, Player
from scoring.rules import RulesError
from tournaments.selectors import clock_for_match

USER_ERRORS = (ServiceError, RulesError)
OUTCOME_CHOICES = [
    ("knock", "Knock"),
    ("gin", "Gin"),
    ("big_gin", "Big gin"),
    ("dead", "Dead hand"),
]


def _match_or_403(request: HttpRequest, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("club", "player_a", "player_b"), pk=match_id
    )
    access.require_view(request, match)
    return match


def _status(error: Exception) -> int:
    return getattr(error, "status", 400)


def _back(match: Match) -> HttpResponseRedirect:
    return redirect("scoring:match", match_id=match.pk)


def forbidden_page(request: HttpRequest, error: Forbidden) -> HttpResponse:
    return render(request, "scoring/forbidden.html", {"error": error}, status=error.status)


# ----------------------------------------------------------------------------- club


def _club_actor(request: HttpRequest, club: Club) -> services.Actor:
    """A logged-in user at their club: as its organiser, or as the member they play as."""
    member = club.players.filter(user=request.user).first()
    return services.Actor(user=request.user, player=member)


@login_required
def club(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    actor = _club_actor(request, club)
    context = {
        "club": club,
        "players": selectors.players_of(club),
        "matches": club.matches.select_related("player_a", "player_b")[:100],
        "form": StartMatchForm(club=club),
        "player_form": AddPlayerForm(),
        "organiser": actor.organises(club),
        "member": actor.player,
    }
    return render(request, "scoring/club.html", context)


@login_required
@require_POST
def new_match(request: HttpRequest, slug: str) -> HttpResponse:
    """Organisers start any match; at a club night two members start their own."""
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    form = StartMatchForm(request.POST, club=club)
    if form.is_valid():
        try:
            match = services.start_match(
                club=club, actor=_club_actor(request, club), **form.cleaned_data
            )
            return _back(match)
        except USER_ERRORS as error:
            form.add_error(None, error.message)
    messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
    return redirect("scoring:club", slug=slug)


@login_required
@require_POST
def add_player(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    form = AddPlayerForm(request.POST)
    if form.is_valid():
        try:
            player = services.add_player(
                club=club, actor=services.Actor(user=request.user), **form.cleaned_data
            )
            messages.success(request, f"{player.name} joined {club.name}.")
            return redirect("scoring:club", slug=slug)
        except ServiceError as error:
            form.add_error(None, error.message)
    messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
    return redirect("scoring:club", slug=slug)


# ---------------------------------------------------------------------------- table


@require_GET
def table(request: HttpRequest, token: str) -> HttpResponse:
    try:
        match_id = access.match_id_from_token(token)
    except Forbidden as error:
        return forbidden_page(request, error)
    access.grant_table(request, match_id)
    return redirect("scoring:match", match_id=match_id)


def _match_context(request: HttpRequest, match: Match, **extra) -> dict:
    view = selectors.match_view(match.pk)
    seated = access.seated_player(request, match)
    return {
        "view": view,
        "match": view.match,
        "seated": seated,
        "seat": match.seat_of(seated) if seated else None,
        "staff": access.is_staff_for(request.user, match),
        "new_key": new_key(),
        "outcomes": OUTCOME_CHOICES,
        "round_clock": clock_for_match(match.pk),
        **extra,
    }


def match(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = _match_or_403(request, match_id)
    except Forbidden as error:
        return forbidden_page(request, error)
    context = _match_context(request, match)
    context["hand_form"] = _blank_hand_form(context["view"], request.GET.get("mode", "quick"))
    return render(request, "scoring/match.html", context)


@require_GET
def scoreboard(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = _match_or_403(request, match_id)
    except Forbidden as error:
        return forbidden_page(request, error)
    return render(request, "scoring/_scoreboard.html", _match_context(request, match))


def _blank_hand_form(view, mode: str) -> HandForm | None:
    if view.current_game is None:
        return None
    return HandForm(
        match=view.match,
        initial={
            "game": view.current_game.number,
            "number": view.next_hand_number,
            "idempotency_key": new_key(),
            "mode": "cards" if mode == "cards" else "quick",
            "outcome": "knock",
        },
    )


@require_GET
def hand_form(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_403(request, match_id)
    context = _match_context(request, match, cards=CARD_CHOICES)
    context["hand_form"] = _blank_hand_form(context["view"], request.GET.get("mode", "quick"))
    return render(request, "scoring/_hand_form.html", context)


@require_POST
def seat(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_403(request, match_id)
    form = SeatForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose your name and type your PIN.")
        return _back(match)
    player = Player.objects.filter(pk=form.cleaned_data["player"]).first()
    try:
        if player is None:
            raise Forbidden("not_in_match", "That player does not play in this match.")
        services.verify_pin(match=match, player=player, pin=form.cleaned_data["pin"])
    except ServiceError as error:
        messages.error(request, error.message)
        return _back(match)
    access.claim_seat(request, match, player)
    messages.success(request, f"This phone now enters results for {player.name}.")
    return _back(match)


# ---------------------------------------------------------------------------- hands


@require_POST
def preview(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_403(request, match_id)
    form = HandForm(request.POST, match=match)
    context = {"match": match}
    if form.is_valid():
        try:
            hand = hand_input_from(form.hand_data())
            context["result"] = services.preview_hand(match=match, hand=hand)
            context["knocker"] = match.player(hand.knocker) if hand.knocker else None
        except USER_ERRORS as error:
            context["error"] = error
    else:
        context["form_errors"] = form.errors
    return render(request, "scoring/_preview.html", context)


@require_POST
def submit(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_403(request, match_id)
    form = HandForm(request.POST, match=match)
    error = None
    if form.is_valid():
        try:
            services.submit_hand(
                match_id=match.pk,
                actor=access.actor_for(request, match),
                hand=hand_input_from(form.hand_data()),
                idempotency_key=form.cleaned_data["idempotency_key"],
            )
        except USER_ERRORS as caught:
            error = caught
    else:
        error = ServiceError(
            "invalid",
            "Check the form: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()),
        )
    return _after_write(request, match, error, form if error else None)


def _after_write(request, match, error, form=None) -> HttpResponse:
    """htmx: re-render the hand form and tell the page to refresh the scoreboard.
    Plain form post: a message and a redirect back to the match."""
    if request.htmx:
        context = _match_context(request, match, error=error)
        view = context["view"]
        context["hand_form"] = form or _blank_hand_form(view, request.POST.get("mode", "quick"))
        context["cards"] = CARD_CHOICES
        response = render(
            request, "scoring/_hand_form.html", context, status=_status(error) if error else 200
        )
        if error is None:
            response["HX-Trigger"] = "hand-recorded"
        return response
    if error is not None:
        messages.error(request, error.message)
    return _back(match)


HAND_ACTIONS = {
    "confirm": services.confirm_hand,
    "dispute": services.dispute_hand,
    "withdraw": services.withdraw_hand,
    "void": services.void_hand,
}


@require_POST
def hand_action(request: HttpRequest, hand_id: int, action: str) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("game"), pk=hand_id)
    match = _match_or_403(request, hand.game.match_id)
    form = VersionForm(request.POST)
    service = HAND_ACTIONS.get(action)
    error = None
    if service is None or not form.is_valid():
        error = ServiceError("invalid", f"Cannot {action} this hand: the form is incomplete.")
    else:
        error = _run_hand_action(request, match, hand, action, service, form.cleaned_data)
    return _after_write(request, match, error)


def _run_hand_action(request, match, hand, action, service, data) -> Exception | None:
    try:
        actor = _actor_with_pin(request, match, data)
        kwargs = {
            "hand_id": hand.pk,
            "actor": actor,
            "version": data["version"],
            "idempotency_key": data["idempotency_key"],
        }
        if action in ("dispute", "void"):
            kwargs["reason"] = data.get("reason") or ""
        service(**kwargs)
    except USER_ERRORS as error:
        return error
    return None


def _actor_with_pin(request, match, data) -> services.Actor:
    """The opponent may confirm on the enterer's phone by choosing their name + PIN."""
    if not data.get("player"):
        return access.actor_for(request, match)
    player = Player.objects.filter(pk=data["player"]).first()
    if player is None or match.seat_of(player) is None:
        raise Forbidden("not_in_match", "That player does not play in this match.")
    services.verify_pin(match=match, player=player, pin=data.get("pin") or "")
    return access.actor_for(request, match, player=player)


# ------------------------------------------------------------------- organiser tools


@login_required
@require_POST
def correct(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("game"), pk=hand_id)
    match = _match_or_403(request, hand.game.match_id)
    form = CorrectionForm(request.POST)
    error = None
    if not form.is_valid():
        error = ServiceError(
            "invalid",
            "Check the correction: "
            + "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()),
        )
    else:
        data = dict(form.cleaned_data)
        version, reason, key = data.pop("version"), data.pop("reason"), data.pop("idempotency_key")
        try:
            services.correct_hand(
                hand_id=hand.pk,
                actor=services.Actor(user=request.user),
                hand_input=hand_input_from(data),
                version=version,
                reason=reason,
                idempotency_key=key,
            )
        except USER_ERRORS as caught:
            error = caught
    return _after_write(request, match, error)


@login_required
@require_POST
def close(request: HttpRequest, match_id: int) -> HttpResponse:
    return _match_state(request, match_id, services.close_match)


@login_required
@require_POST
def reopen(request: HttpRequest, match_id: int) -> HttpResponse:
    return _match_state(request, match_id, services.reopen_match)


def _match_state(request, match_id, service) -> HttpResponse:
    match = _match_or_403(request, match_id)
    try:
        service(
            match_id=match.pk,
            actor=services.Actor(user=request.user),
            reason=request.POST.get("reason", ""),
        )
    except ServiceError as error:
        messages.error(request, error.message)
    return _back(match)


@login_required
def match_ledger(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_403(request, match_id)
    if not access.is_staff_for(request.user, match):
        return forbidden_page(request, Forbidden("not_allowed", "Organisers and admins only."))
    rows = selectors.ledger_of(match)
    return render(request, "scoring/ledger.html", {"match": match, "rows": rows})


@login_required
def table_qr(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match_or_403(request, match_id)
    if not access.is_staff_for(request.user, match):
        return forbidden_page(request, Forbidden("not_allowed", "Organisers and admins only."))
    url = request.build_absolute_uri(reverse("scoring:table", args=[access.table_token(match)]))
    svg = segno.make(url, error="m").svg_inline(scale=4)
    return HttpResponse(svg, content_type="image/svg+xml")
