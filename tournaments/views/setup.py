"""Organiser pages before and around the rounds: the list, creating a tournament, its
settings and rules (with the rule-change flow once frozen), registration and check-in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from scoring import services as scoring
from ginclub.errors import Forbidden
from scoring.models import Club
from scoring.rules import RulesError, make_profile
from scoring.views import forbidden_page
from tournaments import selectors, services
from tournaments.forms import (
    CreateTournamentForm,
    ImportForm,
    RegistrationForm,
    RulesChangeForm,
    TournamentForm,
    format_overrides,
)
from tournaments.models import Registration, Tournament
from tournaments.views.common import (
    USER_ERRORS,
    actor_of,
    add_service_error,
    back,
    organiser_page,
    run,
)


def organised_clubs(user):
    if user.is_superuser:
        return list(Club.objects.order_by("name"))
    return list(user.organised_clubs.order_by("name"))


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = list(selectors.tournaments_for(request.user))
    clubs = (
        {club.pk for club in organised_clubs(request.user)}
        if request.user.is_authenticated
        else set()
    )
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": tournaments,
            "can_create": bool(clubs),
            "managed": {t.pk for t in tournaments if t.club_id in clubs},
        },
    )


@login_required
def create(request: HttpRequest) -> HttpResponse:
    clubs = organised_clubs(request.user)
    if not clubs:
        return forbidden_page(
            request, Forbidden("not_allowed", "Only club organisers create tournaments.")
        )
    form = CreateTournamentForm(
        request.POST or None, clubs=clubs, initial={"club": request.GET.get("club")}
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(
                club=form.clubs[form.cleaned_data["club"]],
                actor=actor_of(request),
                **form.settings(),
            )
        except USER_ERRORS as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{tournament.name} created. Now register the players.")
            return back(tournament, "players")
    status = 400 if form.errors else 200
    return render(request, "tournaments/create.html", {"form": form}, status=status)


def _rules_of(tournament: Tournament) -> dict | None:
    if tournament.rules:
        return tournament.rules
    try:
        return make_profile(tournament.profile, tournament.overrides).as_dict()
    except RulesError:
        return None


def _settings_page(request, tournament, form, rules_form=None, status=200) -> HttpResponse:
    return render(
        request,
        "tournaments/settings.html",
        {
            "tournament": tournament,
            "form": form,
            "rules": _rules_of(tournament),
            "rules_form": rules_form
            or RulesChangeForm(
                initial={
                    "profile": tournament.profile,
                    "overrides": format_overrides(tournament.overrides),
                }
            ),
            "tab": "settings",
        },
        status=status,
    )


@organiser_page
def settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    initial = TournamentForm.initial_from(services.settings_of(tournament))
    form = TournamentForm(request.POST or None, initial=initial, frozen=tournament.frozen)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_tournament(
                tournament_id=tournament.pk, actor=actor_of(request), **form.settings()
            )
        except USER_ERRORS as error:
            add_service_error(form, error)
        else:
            messages.success(request, "Settings saved.")
            return back(tournament, "settings")
    return _settings_page(request, tournament, form, status=400 if form.errors else 200)


@organiser_page
@require_POST
def rules_change(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Step 1 previews what the new rules would change; step 2 (`apply` in the post,
    with a reason) applies them. Nothing changes until step 2."""
    rules_form = RulesChangeForm(request.POST)
    settings_form = TournamentForm(
        initial=TournamentForm.initial_from(services.settings_of(tournament)),
        frozen=tournament.frozen,
    )
    if not rules_form.is_valid():
        return _settings_page(request, tournament, settings_form, rules_form, status=400)
    data = rules_form.cleaned_data
    change = {
        "tournament_id": tournament.pk,
        "actor": actor_of(request),
        "profile": data["profile"],
        "overrides": data["overrides"],
    }
    apply_error = None
    if "apply" in request.POST:
        try:
            result = services.apply_rules_change(**change, reason=data["reason"])
        except USER_ERRORS as error:
            apply_error = error
        else:
            messages.success(request, "Rules changed: " + _summary(result))
            return back(tournament, "settings")
    try:
        preview = services.preview_rules_change(**change)
    except USER_ERRORS as error:
        add_service_error(rules_form, error)
        return _settings_page(request, tournament, settings_form, rules_form, status=400)
    return render(
        request,
        "tournaments/rules_preview.html",
        {
            "tournament": tournament,
            "preview": preview,
            "rules_form": rules_form,
            "apply_error": apply_error,
            "tab": "settings",
        },
        status=400 if apply_error else 200,
    )


def _summary(change) -> str:
    return (
        f"{change.hands_changed} hand(s), {change.games_changed} game(s) and "
        f"{change.results_changed} match result(s) changed; "
        f"{len(change.standings)} standings line(s) moved."
    )


# ------------------------------------------------------------------- registration


def _players_page(
    request, tournament, form=None, import_form=None, report=None, status=200
) -> HttpResponse:
    registrations = list(selectors.registrations_of(tournament))
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "registrations": registrations,
            "form": form or RegistrationForm(),
            "import_form": import_form or ImportForm(),
            "report": report,
            "tab": "players",
            **_counts(tournament, registrations),
        },
        status=status,
    )


def _counts(tournament: Tournament, registrations: list[Registration]) -> dict:
    return {
        "registered": len(registrations),
        "field": selectors.field_size(tournament),
        "checked_in": sum(1 for r in registrations if r.checked_in and not r.withdrawn),
    }


@organiser_page
@require_GET
def registration_counts(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The `registration-counts` partial, refreshed when a check-in changes."""
    return render(
        request,
        "tournaments/_registration_counts.html",
        {
            "tournament": tournament,
            **_counts(tournament, list(selectors.registrations_of(tournament))),
        },
    )


@organiser_page
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _players_page(request, tournament)


@organiser_page
@require_POST
def add_player(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RegistrationForm(request.POST)
    if form.is_valid():
        try:
            registration = services.add_registration(
                tournament_id=tournament.pk, actor=actor_of(request), **form.cleaned_data
            )
        except USER_ERRORS as error:
            add_service_error(form, error)
        else:
            late = " as a late entry" if registration.late else ""
            messages.success(request, f"{registration.player.name} is registered{late}.")
            return back(tournament, "players")
    return _players_page(request, tournament, form=form, status=400)


@organiser_page
@require_POST
def import_players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The row-by-row report is the answer page itself: accepted rows are saved even
    when others are refused, and the refused ones say why."""
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            report = services.import_registrations(
                tournament_id=tournament.pk,
                actor=actor_of(request),
                content=form.cleaned_data["csv"],
            )
        except USER_ERRORS as error:
            add_service_error(form, error)
        else:
            return _players_page(request, tournament, report=report)
    return _players_page(request, tournament, import_form=form, status=400)


def _registration(tournament: Tournament, registration_id: int) -> Registration:
    return get_object_or_404(tournament.registrations.select_related("player"), pk=registration_id)


@organiser_page
@require_POST
def registration_action(
    request: HttpRequest, tournament: Tournament, registration_id: int, action: str
) -> HttpResponse:
    """One button per player: check in / undo, withdraw / reinstate, remove, PIN, seed."""
    registration = _registration(tournament, registration_id)
    if request.htmx and action in ("check-in", "undo-check-in"):
        return _check_in_row(request, tournament, registration, action == "check-in")
    name, reason = registration.player.name, request.POST.get("reason", "")
    calls = {
        "check-in": (services.check_in, {"checked_in": True}, f"{name} checked in."),
        "undo-check-in": (
            services.check_in,
            {"checked_in": False},
            f"{name} is no longer checked in.",
        ),
        "withdraw": (
            services.withdraw_registration,
            {"reason": reason},
            f"{name} withdrew: not paired from the next round; results stand.",
        ),
        "reinstate": (
            services.reinstate_registration,
            {"reason": reason},
            f"{name} is back in: paired from the next round.",
        ),
        "remove": (services.remove_registration, {}, f"{name} removed."),
    }
    if action == "pin":  # a player imported from a list has no PIN to enter results with
        run(
            request,
            scoring.set_pin,
            f"{name}'s table PIN is set.",
            player=registration.player,
            pin=request.POST.get("pin", "").strip(),
        )
    elif action == "seed":
        _set_seed(request, registration)
    elif action not in calls:
        messages.error(request, f"Unknown action {action!r}.")
    else:
        service, extra, success = calls[action]
        run(request, service, success, registration_id=registration.pk, **extra)
    return redirect(f"{back(tournament, 'players').url}#reg-{registration.pk}")


def _set_seed(request: HttpRequest, registration: Registration) -> None:
    raw = request.POST.get("seed", "").strip()
    if raw and not raw.isdigit():
        messages.error(request, f"A seed is a whole number, not {raw!r}.")
        return
    seed = int(raw) if raw else None
    run(
        request,
        services.set_seed,
        f"{registration.player.name}'s seed is {seed if seed is not None else 'cleared'}.",
        registration_id=registration.pk,
        seed=seed,
    )


def _check_in_row(request, tournament, registration, checked_in: bool) -> HttpResponse:
    """htmx: the player's row again (`reg-<id>`), with the refusal when there is one."""
    error = None
    try:
        registration = services.check_in(
            registration_id=registration.pk, actor=actor_of(request), checked_in=checked_in
        )
    except USER_ERRORS as caught:
        error = caught
    response = render(
        request,
        "tournaments/_registration_row.html",
        {"tournament": tournament, "r": registration, "error": error},
    )
    if error is None:
        response["HX-Trigger"] = "registration-changed"
    return response
