"""My event, on my phone: a player picks their name (from the QR code on the public
page) and gets a page of their own, which refreshes itself. No login; the same visitors
as the public pages (tournaments.views.common.public_page), and the same hiding
(tournaments.views.public.hidden_after, the public standings). The chosen player is in
the address, so the page can be bookmarked; it never links the table's PIN-protected
match page, only the public match summary."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from ginclub import permissions
from ginclub.http import answer_poll
from tournaments import selectors
from tournaments.forms import PinForm
from tournaments.models import Registration, Round, Tournament
from tournaments.selectors import hidden_after
from tournaments.selectors.signups import phone_check_in_refusal
from tournaments.views.common import audits, public_page


def _registration(tournament: Tournament, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player"),
        pk=registration_id,
        tournament=tournament,
    )


@public_page
@require_GET
def choose(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every player A to Z, with a search box: tap your name."""
    return render(
        request,
        "tournaments/player_choose.html",
        {
            "tournament": tournament,
            "registrations": selectors.registrations_of(tournament),
            "staff": audits(request, tournament),
        },
    )


def _context(tournament: Tournament, registration: Registration) -> dict:
    return {
        "tournament": tournament,
        "me": selectors.my_event(tournament, registration, hidden_after=hidden_after(tournament)),
    }


@public_page
@require_GET
def page(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    actor = permissions.actor_of(request)
    return render(
        request,
        "tournaments/player_event.html",
        {
            **_context(tournament, registration),
            "staff": audits(request, tournament),
            # Dropping is the player's own step (services.drop): an organiser, whose PIN
            # the form would not even read, is sent to the withdrawal, which asks why.
            "withdraws_instead": permissions.may_manage_tournament(actor, tournament)
            and not permissions.speaks_for(actor, registration.player),
            "check_in_refusal": phone_check_in_refusal(tournament),
            "pin_form": PinForm(),
        },
    )


@public_page
@require_GET
def now(request: HttpRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    """The `my-event` partial the page polls: 304 while nothing it shows has changed."""
    registration = _registration(tournament, registration_id)
    latest = tournament.round_set.exclude(state=Round.State.DRAFT).order_by("-number").first()
    return answer_poll(
        request,
        (*selectors.poll_version(tournament, latest), registration.withdrawn, get_language()),
        lambda: render(request, "tournaments/_my_event.html", _context(tournament, registration)),
    )
