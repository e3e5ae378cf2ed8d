"""Organiser pages before and around the rounds: the list, creating a tournament, its
settings and rules (with the rule-change flow once frozen), registration and check-in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from ginclub import permissions
from ginclub.errors import Forbidden, NotFound
from ginclub.permissions import actor_of
from scoring import services as scoring
from scoring.models import Club
from scoring.rules import make_profile
from tournaments import selectors, services
from tournaments.forms import (
    CreateTournamentForm,
    ImportForm,
    RegistrationForm,
    RulesChangeForm,
    TournamentForm,
    fitted_of,
    split_overrides,
)
from tournaments.models import Job, Registration, Tournament
from tournaments.services.rescoring import change_rounds, rules_by_round
from tournaments.views.common import back, organiser_page, whole_number
from tournaments.views.signups import panel_context as signup_panel


def organised_clubs(actor: permissions.Actor) -> list[Club]:
    """The clubs whose tournaments `actor` may create and import: the queryset form of
    permissions.organises (every club for admins)."""
    return list(permissions.organised_clubs(actor).order_by("name"))


# Whole sentences for the refusal, by what was being done (the pages' own `doing`).
ONLY_ORGANISERS = {
    "create tournaments": gettext_lazy("Only club organisers create tournaments."),
    "import tournaments": gettext_lazy("Only club organisers import tournaments."),
}


def require_some_club(actor: permissions.Actor, doing: str) -> list[Club]:
    permissions.refuse_auditor_anywhere(actor)
    clubs = organised_clubs(actor)
    if not clubs:
        message = ONLY_ORGANISERS.get(doing) or _("Only club organisers %(doing)s.") % {
            "doing": doing
        }
        raise Forbidden("not_allowed", str(message))
    return clubs


def tournament_list(request: HttpRequest) -> HttpResponse:
    actor = actor_of(request)
    tournaments = list(selectors.tournaments_for(actor))
    organised = organised_clubs(actor)
    clubs = {club.pk for club in organised}
    read = set(permissions.read_clubs(actor).values_list("pk", flat=True))
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": tournaments,
            "can_create": bool(clubs),
            "managed": {t.pk for t in tournaments if t.club_id in clubs},
            # the dashboard, for all who may open it (a scorekeeper runs the rounds there,
            # an auditor reads it; Players and Setup are the organisers')
            "staff": {t.pk for t in tournaments if t.club_id in read},
            "season_clubs": organised,  # links to their seasons' ladders
        },
    )


@login_required
def create(request: HttpRequest) -> HttpResponse:
    clubs = require_some_club(actor_of(request), "create tournaments")
    form = CreateTournamentForm(
        request.POST or None, clubs=clubs, initial={"club": request.GET.get("club")}
    )
    if request.method == "POST" and form.is_valid():
        tournament = services.create_tournament(
            club=form.clubs[form.cleaned_data["club"]], actor=actor_of(request), **form.settings()
        )
        messages.success(
            request,
            _("%(name)s created. Now register the players.") % {"name": tournament.name},
        )
        return back(tournament, "players")
    status = 400 if form.errors else 200
    return render(request, "tournaments/create.html", {"form": form}, status=status)


def _rules_of(tournament: Tournament) -> dict:
    """The frozen rules, or those the settings would freeze (checked when saved)."""
    return tournament.rules or make_profile(tournament.profile, tournament.overrides).as_dict()


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
                    **split_overrides(tournament.overrides),
                },
                rounds=change_rounds(tournament),
            ),
            "rules_by_round": rules_by_round(tournament) if tournament.frozen else [],
            "jobs": services.recent_jobs(tournament=tournament, kind=Job.Kind.RULES_CHANGE),
            "worker_missing": services.worker_missing(),
            "tab": "settings",
        },
        status=status,
    )


@organiser_page
def settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    current = services.settings_of(tournament)
    initial = TournamentForm.initial_from(current, frozen=tournament.frozen)
    form = TournamentForm(
        request.POST or None, initial=initial, frozen=tournament.frozen, fitted=fitted_of(current)
    )
    if request.method == "POST" and form.is_valid():
        services.update_tournament(
            tournament_id=tournament.pk, actor=actor_of(request), **form.settings()
        )
        messages.success(request, _("Settings saved."))
        return back(tournament, "settings")
    return _settings_page(request, tournament, form, status=400 if form.errors else 200)


@organiser_page
@require_POST
def rules_change(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Step 1 previews what the new rules would change, for the whole event or from a
    round on; step 2 (`apply` in the post, with a reason) applies them. Nothing changes
    until step 2."""
    rules_form = RulesChangeForm(request.POST, rounds=change_rounds(tournament))
    current = services.settings_of(tournament)
    settings_form = TournamentForm(
        initial=TournamentForm.initial_from(current, frozen=tournament.frozen),
        frozen=tournament.frozen,
        fitted=fitted_of(current),
    )
    if not rules_form.is_valid():
        return _settings_page(request, tournament, settings_form, rules_form, status=400)
    data = rules_form.cleaned_data
    change = {
        "tournament_id": tournament.pk,
        "actor": actor_of(request),
        "profile": data["profile"],
        "overrides": data["overrides"],
        "from_round": data["from_round"],
    }
    if "apply" in request.POST:  # a background job: its page shows the progress
        job = services.start_rules_change(**change, reason=data["reason"])
        return redirect("tournaments:job", job_id=job.pk)
    preview = services.preview_rules_change(**change)
    return render(
        request,
        "tournaments/rules_preview.html",
        {"tournament": tournament, "preview": preview, "rules_form": rules_form, "tab": "settings"},
    )


# ------------------------------------------------------------------- registration


def _players_page(
    request, tournament, form=None, import_form=None, report=None, status=200
) -> HttpResponse:
    registrations = list(selectors.registrations_of(tournament))
    # After a player's own action (a PIN set, a seed): its message shows in the player's
    # row, where the page scrolls to, not at the top out of sight.
    done = request.GET.get("done", "")
    in_row = next((r.pk for r in registrations if done.isdigit() and r.pk == int(done)), None)
    return render(
        request,
        "tournaments/players.html",
        {
            "messages_in_row": in_row,
            "tournament": tournament,
            "registrations": registrations,
            "without_pin": selectors.without_pin(tournament),
            "form": form or RegistrationForm(),
            "import_form": import_form or ImportForm(),
            "report": report,
            "tab": "players",
            **_counts(tournament, registrations),
            **signup_panel(request, tournament),
        },
        status=status,
    )


def _counts(tournament: Tournament, registrations: list[Registration]) -> dict:
    return {
        "registered": len(registrations),
        "field": selectors.field_size(tournament),
        "checked_in": sum(1 for r in registrations if r.checked_in and not r.withdrawn),
        "dropped": sum(1 for r in registrations if r.withdrawn),
    }


@organiser_page
@require_POST
def check_in_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    done = services.check_in_all(tournament_id=tournament.pk, actor=actor_of(request))
    if done:
        names = ", ".join(r.player.name for r in done)
        messages.success(
            request,
            ngettext(
                "%(count)s player checked in: %(names)s.",
                "%(count)s players checked in: %(names)s.",
                len(done),
            )
            % {"count": len(done), "names": names},
        )
    else:
        messages.info(request, _("Everyone registered was already checked in."))
    return back(tournament, "players")


@organiser_page
@require_POST
def seed_by_rating(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    seeded = services.seed_by_rating(tournament_id=tournament.pk, actor=actor_of(request))
    rated = sum(1 for _registration, rating in seeded if rating is not None)
    unrated = len(seeded) - rated
    if unrated:
        text = ngettext(
            "Seeded by club rating: %(rated)s rated player first, then %(unrated)s unrated "
            "in their old order.",
            "Seeded by club rating: %(rated)s rated players first, then %(unrated)s unrated "
            "in their old order.",
            rated,
        )
    else:
        text = ngettext(
            "Seeded by club rating: %(rated)s rated player first.",
            "Seeded by club rating: %(rated)s rated players first.",
            rated,
        )
    messages.success(request, text % {"rated": rated, "unrated": unrated})
    return back(tournament, "players")


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
        registration = services.add_registration(
            tournament_id=tournament.pk, actor=actor_of(request), **form.cleaned_data
        )
        text = (
            _("%(name)s is registered as a late entry.")
            if registration.late
            else _("%(name)s is registered.")
        )
        messages.success(request, text % {"name": registration.player.name})
        return back(tournament, "players")
    return _players_page(request, tournament, form=form, status=400)


@organiser_page
@require_POST
def import_players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The row-by-row report is the answer page itself: accepted rows are saved even
    when others are refused, and the refused ones say why."""
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        report = services.import_registrations(
            tournament_id=tournament.pk, actor=actor_of(request), content=form.cleaned_data["csv"]
        )
        # pasted rows that were refused come back in the box, under their header, to be
        # mended and sent again (the accepted ones are registered: not twice)
        again = _refused_rows(form.cleaned_data.get("text") or "", report)
        return _players_page(
            request, tournament, report=report, import_form=ImportForm(initial={"text": again})
        )
    return _players_page(request, tournament, import_form=form, status=400)


def _refused_rows(text: str, report) -> str:
    """The header and the refused lines of pasted CSV `text` ("" when none was refused,
    or nothing was pasted)."""
    refused = {row.line for row in report.rows if not row.accepted}
    lines = text.splitlines()
    if not refused or not lines:
        return ""
    return "\n".join([lines[0], *(lines[n - 1] for n in sorted(refused) if n <= len(lines))])


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
    actor = actor_of(request)
    calls = {
        "check-in": (services.check_in, {"checked_in": True}, _("%(name)s checked in.")),
        "undo-check-in": (
            services.check_in,
            {"checked_in": False},
            _("%(name)s is no longer checked in."),
        ),
        "withdraw": (
            services.withdraw_registration,
            {"reason": reason},
            _("%(name)s withdrew: not paired from the next round; results stand."),
        ),
        "reinstate": (
            services.reinstate_registration,
            {"reason": reason},
            _("%(name)s is back in: paired from the next round."),
        ),
        "remove": (services.remove_registration, {}, _("%(name)s removed.")),
    }
    if action == "pin":  # a player imported from a list has no PIN to enter results with
        scoring.set_pin(
            player=registration.player, actor=actor, pin=request.POST.get("pin", "").strip()
        )
        messages.success(request, _("%(name)s's table PIN is set.") % {"name": name})
    elif action == "seed":
        seed = whole_number(request, "seed", _("A seed"))
        services.set_seed(registration_id=registration.pk, actor=actor, seed=seed)
        if seed is None:
            messages.success(request, _("%(name)s's seed is cleared.") % {"name": name})
        else:
            messages.success(
                request, _("%(name)s's seed is %(seed)s.") % {"name": name, "seed": seed}
            )
    elif action in calls:
        service, extra, success = calls[action]
        service(registration_id=registration.pk, actor=actor, **extra)
        messages.success(request, success % {"name": name})
    else:
        raise NotFound(
            "unknown_action", _("There is no player action %(action)s.") % {"action": repr(action)}
        )
    players_url = back(tournament, "players").url
    if action == "remove":  # the row is gone: the message shows at the top
        return redirect(players_url)
    return redirect(f"{players_url}?done={registration.pk}#reg-{registration.pk}")


def _check_in_row(request, tournament, registration, checked_in: bool) -> HttpResponse:
    """htmx: the player's row again (`reg-<id>`); a refusal rises (the middleware's
    partial goes into the row's refusal slot)."""
    registration = services.check_in(
        registration_id=registration.pk, actor=actor_of(request), checked_in=checked_in
    )
    response = render(
        request,
        "tournaments/_registration_row.html",
        {"tournament": tournament, "r": registration},
    )
    response["HX-Trigger"] = "registration-changed"
    return response
