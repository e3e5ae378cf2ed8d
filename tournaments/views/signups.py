"""Sign-up by players, and check-in and drop from their phones (pages).

The sign-up pages are reached by the tournament's short code (/join/<code>/): the link,
the poster's QR code and the code typed at /join/ all lead there, whether or not the
tournament's other pages are public. A player's sign-up page says where they stand (a
place, the waiting list, the organiser) and refreshes itself. Leaving, checking in and
dropping are confirmed with the player's PIN (scoring.services.acting_for_player, the
wrong-PIN limits of the tables). The organiser's panel is on the players page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ginclub import permissions
from ginclub.errors import NotFound, ServiceError
from ginclub.permissions import actor_of
from scoring import services as scoring
from tournaments import services
from tournaments.forms import JoinCodeForm, PinForm, SignUpForm, SignupSettingsForm
from tournaments.models import Registration, SignUp, Tournament
from tournaments.selectors import qr_svg
from tournaments.selectors.signups import closed_reason, normal_code, signup_view, signups_of
from tournaments.views.common import back, organiser_page, public_page


def _by_code(code: str) -> Tournament:
    code = normal_code(code)
    if not code:
        raise Http404
    return get_object_or_404(Tournament.objects.select_related("club"), signup_code=code)


def _signup(request: HttpRequest, tournament: Tournament, signup_id: int) -> SignUp:
    """The sign-up, if this browser may read it (permissions.may_see_signup); else 404,
    as for one that does not exist."""
    signup = get_object_or_404(
        SignUp.objects.select_related("player", "claims", "registration", "tournament__club"),
        pk=signup_id,
        tournament=tournament,
    )
    if not permissions.may_see_signup(request, signup):
        raise Http404
    return signup


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    """Type the short code from the poster."""
    form = JoinCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        typed = form.cleaned_data["code"]
        code = normal_code(typed)
        if Tournament.objects.filter(signup_code=code).exclude(signup_code="").exists():
            return redirect("tournaments:signup", code=code)
        # the refusal quotes the code as typed: its stored form is not what they wrote
        form.add_error("code", _("No tournament has the sign-up code %(code)s.") % {"code": typed})
    return render(request, "tournaments/join.html", {"form": form}, status=200)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, code: str) -> HttpResponse:
    """The sign-up form: name, email (optional), PIN."""
    tournament = _by_code(code)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        made = services.sign_up(
            tournament_id=tournament.pk, actor=actor_of(request), **form.cleaned_data
        )
        permissions.remember_signup(request, made)
        return redirect("tournaments:signup-status", code=tournament.signup_code, signup_id=made.pk)
    return render(
        request,
        "tournaments/signup.html",
        {"tournament": tournament, "form": form, "closed": closed_reason(tournament)},
        status=400 if form.errors else 200,
    )


def _status_context(tournament: Tournament, signup: SignUp) -> dict:
    return {"tournament": tournament, "view": signup_view(signup), "pin_form": PinForm()}


@require_GET
def signup_status(request: HttpRequest, code: str, signup_id: int) -> HttpResponse:
    tournament = _by_code(code)
    signup = _signup(request, tournament, signup_id)
    # its own poll takes the status alone; a boosted form's redirect here, the page
    polled = request.htmx and not request.htmx.boosted
    template = "tournaments/_signup_status.html" if polled else "tournaments/signup_status.html"
    return render(request, template, _status_context(tournament, signup))


@require_POST
def signup_leave(request: HttpRequest, code: str, signup_id: int) -> HttpResponse:
    tournament = _by_code(code)
    signup = _signup(request, tournament, signup_id)
    actor = _speaking_for(request, tournament, signup.player)
    services.leave_signup(signup_id=signup.pk, actor=actor)
    messages.success(request, _("You left %(event)s.") % {"event": tournament.name})
    return redirect("tournaments:signup-status", code=tournament.signup_code, signup_id=signup.pk)


# ------------------------------------------------------------- My event: by phone


def _speaking_for(request: HttpRequest, tournament: Tournament, player):
    """The request's actor, acting for `player` with the PIN it sent, unless it may act
    without (an organiser: permissions.may_act_on_own_entry)."""
    actor = actor_of(request)
    if player is None or permissions.may_act_on_own_entry(actor, tournament, player):
        return actor
    permissions.refuse_auditor(actor, tournament.club)  # an auditor changes nothing
    return scoring.acting_for_player(actor, player=player, pin=request.POST.get("pin", ""))


def _registration(tournament: Tournament, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, tournament=tournament
    )


@public_page
@require_POST
def my_check_in(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    actor = _speaking_for(request, tournament, registration.player)
    services.check_in_by_phone(registration_id=registration.pk, actor=actor)
    messages.success(request, _("You are checked in."))
    return back(tournament, "player-event", registration_id=registration.pk)


@public_page
@require_POST
def my_drop(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    actor = _speaking_for(request, tournament, registration.player)
    services.drop(registration_id=registration.pk, actor=actor)
    messages.success(
        request,
        _("You dropped: you finish the table you are at now, and are not paired again."),
    )
    return back(tournament, "player-event", registration_id=registration.pk)


# --------------------------------------------------------------- the organiser's


@organiser_page
@require_POST
def signup_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = SignupSettingsForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[name].label}: {' '.join(errors)}" for name, errors in form.errors.items()
        )
        raise ServiceError("invalid", problems)
    d = form.cleaned_data
    services.set_signups(
        tournament_id=tournament.pk,
        actor=actor_of(request),
        changes=services.SignupSettings(
            open=d["signup_open"],
            capacity=d["signup_capacity"],
            clear_capacity=d["signup_capacity"] is None,
            approval=d["signup_approval"],
            closes_at=d["signup_closes_at"],
            clear_closes_at=d["signup_closes_at"] is None,
            starts_at=d["starts_at"],
            clear_starts_at=d["starts_at"] is None,
            check_in_opens=d["check_in_opens"],
            late_entry=d["late_entry"],
        ),
    )
    messages.success(request, _("Sign-up and check-in settings saved."))
    return redirect(back(tournament, "players").url + "#signups")


@organiser_page
@require_POST
def signup_action(
    request: HttpRequest, tournament: Tournament, signup_id: int, action: str
) -> HttpResponse:
    """Approve, refuse, or resolve (the club's player, or someone new) a sign-up."""
    signup = _signup(request, tournament, signup_id)
    actor = actor_of(request)
    if action == "approve":
        done = services.approve_signup(signup_id=signup.pk, actor=actor)
    elif action == "refuse":
        done = services.refuse_signup(
            signup_id=signup.pk, actor=actor, reason=request.POST.get("reason", "")
        )
    elif action == "same":
        done = services.resolve_signup(signup_id=signup.pk, actor=actor, same=True)
    elif action == "new":
        done = services.resolve_signup(
            signup_id=signup.pk, actor=actor, same=False, name=request.POST.get("name", "")
        )
    else:
        raise NotFound(
            "unknown_action",
            _("There is no sign-up action %(action)s.") % {"action": repr(action)},
        )
    messages.success(
        request,
        _("%(name)s: %(state)s.") % {"name": done.name, "state": done.get_state_display()},
    )
    return redirect(back(tournament, "players").url + "#signups")


@organiser_page
@require_GET
def signup_poster(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A page to print: the event, the QR code of the sign-up link, the short code."""
    if not tournament.signup_code:
        raise Http404
    url = request.build_absolute_uri(signups_of(tournament).path)
    # on paper "/join/" alone leads nowhere: the site's address with it
    join_url = request.build_absolute_uri(reverse("tournaments:join"))
    return render(
        request,
        "tournaments/signup_poster.html",
        {"tournament": tournament, "url": url, "qr": qr_svg(url, scale=8), "join_url": join_url},
    )


def panel_context(request: HttpRequest, tournament: Tournament) -> dict:
    """What the players page shows of the sign-ups."""
    found = signups_of(tournament)
    url = request.build_absolute_uri(found.path) if found.path else ""
    return {
        "signups": found,
        "signup_url": url,
        "signup_qr": qr_svg(url, scale=3) if url else "",
        "signup_form": SignupSettingsForm(initial=SignupSettingsForm.initial_from(tournament)),
        "manage_signups": permissions.may_manage_signups(actor_of(request), tournament),
    }
