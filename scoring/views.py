"""Pages for the table (players' phones) and the club (organisers).

Each view parses input, calls one service, renders. htmx requests get the partial named
after the DOM id it replaces; plain posts redirect, so every page works without JS.

No view catches a refusal: an invalid form raises ServiceError("invalid") naming the
problem, and the services' and the engine's refusals rise as they are. The refusal
middleware (ginclub.middleware) answers all of them: the refusal partial for htmx, the
refusal page otherwise. Who may do what is asked of ginclub.permissions.
"""

from __future__ import annotations

import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views import i18n
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from ginclub import inputs, permissions
from ginclub.errors import Forbidden, NotFound, ServiceError
from ginclub.http import answer_poll
from scoring import hooks, replay, selectors, services
from scoring.forms import (
    CARD_CHOICES,
    OUTCOME_CHOICES,
    AddPlayerForm,
    ClaimForm,
    CorrectionForm,
    HandForm,
    SeatForm,
    StartMatchForm,
    VersionForm,
    new_key,
)
from scoring.hand_input import (
    HandInput,
    card_text,
    claim_input,
    differences,
    hand_input_from,
    outcome_text,
    show_value,
    winner_seat,
)
from scoring.models import Club, Hand, Match, Penalty, Player, TableCall
from scoring.services.hand_entry import hand_values
from scoring.words import names_of

DEADWOOD_FIELDS = [
    ("knocker_deadwood", gettext_lazy("Knocker's deadwood")),
    ("defender_deadwood", gettext_lazy("Defender's deadwood (after lay-offs)")),
]


def _visible_match(request: HttpRequest, match_id: int, *, polled: bool = False) -> Match:
    """The match if the request may see it; a change (POST) by an auditor is refused at
    once, naming the role (permissions.require_change_at)."""
    match = selectors.visible_match(permissions.actor_of(request), match_id, polled=polled)
    if request.method not in ("GET", "HEAD"):
        permissions.require_change_at(permissions.actor_of(request, match), match.club, match)
    speak_players_language(request, permissions.actor_of(request, match).player)
    return match


def _club_to_change(request: HttpRequest, slug: str, *, staff: bool = False) -> Club:
    """A club the user knows, for a change there: an auditor is refused at once, and a
    scorekeeper too unless the change is the staff's (`staff`: starting a match)."""
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    permissions.require_change_at(permissions.actor_of(request), club)
    if not staff:
        permissions.refuse_scorekeeper(permissions.actor_of(request), club)
    return club


# --------------------------------------------------------------------------- language
#
# The language is the phone's (the switch's cookie, else the browser's Accept-Language:
# LocaleMiddleware), except at a table: a phone seated for a player who chose a language
# shows the match in it (Player.language), and keeps it (the cookie is set). A player's
# language is what a phone seated for them chose: with the switch while seated
# (`set_language`), or before sitting down (the phone's cookie, taken when they sit).


def speak_players_language(request: HttpRequest, player) -> str:
    """Answer this request in `player`'s language, if they chose one; returns it ("")."""
    language = getattr(player, "language", "") if player is not None else ""
    if language and language in dict(settings.LANGUAGES):
        if language != translation.get_language():
            translation.activate(language)
            request.LANGUAGE_CODE = language
        request.table_language = language
        return language
    return ""


def keep_language(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Set the language cookie to the seated player's language (`speak_players_language`)
    when the phone's differs, so every page from this phone speaks it."""
    language = getattr(request, "table_language", "")
    if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


def seated_language(request: HttpRequest, player) -> None:
    """A phone just sat down for `player`: the player's language, if they have one, is
    this phone's from now on; else the language this phone chose (its cookie), if any,
    becomes the player's. A browser's Accept-Language alone chooses nothing."""
    if player.language:
        speak_players_language(request, player)
        return
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if chosen in dict(settings.LANGUAGES):
        services.remember_language(player_ids=[player.pk], language=chosen)
        player.language = chosen


def set_language(request: HttpRequest) -> HttpResponse:
    """The language switch on every page (Django's set_language: POST `language` and
    `next`; the cookie). The players this phone is seated for at a table, and the
    logged-in user's own players, keep the choice: their tables follow it."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "") if request.method == "POST" else ""
    if language in dict(settings.LANGUAGES):
        players = set(permissions.actor_of(request).seats.values())
        if request.user.is_authenticated:
            players |= set(Player.objects.filter(user=request.user).values_list("pk", flat=True))
        if players:
            services.remember_language(player_ids=players, language=language)
    return response


def _back(match: Match) -> HttpResponseRedirect:
    return redirect("scoring:match", match_id=match.pk)


def _checked(form: forms.Form, intro: str) -> dict:
    """The form's cleaned data, or a refusal that says what is wrong with which field
    (`intro` in the active language; the fields by their names as players read them)."""
    if form.is_valid():
        return form.cleaned_data
    fields = {name: "; ".join(errors) for name, errors in form.errors.items()}
    problems = "; ".join(
        problem if name == "__all__" else f"{_field_words(name)}: {problem}"
        for name, problem in fields.items()
    )
    raise ServiceError("invalid", f"{intro}: {problems}", fields=fields)


# A form field's name as the refusal says it ("knocker deadwood"), in the active language.
FIELD_WORDS = {
    "game": pgettext_lazy("form field", "game"),
    "number": pgettext_lazy("form field", "number"),
    "idempotency key": pgettext_lazy("form field", "idempotency key"),
    "mode": pgettext_lazy("form field", "mode"),
    "outcome": pgettext_lazy("form field", "outcome"),
    "knocker": pgettext_lazy("form field", "knocker"),
    "knocker deadwood": pgettext_lazy("form field", "knocker deadwood"),
    "defender deadwood": pgettext_lazy("form field", "defender deadwood"),
    "knocker cards": pgettext_lazy("form field", "knocker cards"),
    "defender cards": pgettext_lazy("form field", "defender cards"),
    "upcard": pgettext_lazy("form field", "upcard"),
    "version": pgettext_lazy("form field", "version"),
    "reason": pgettext_lazy("form field", "reason"),
    "player": pgettext_lazy("form field", "player"),
    "pin": pgettext_lazy("form field", "pin"),
    "player a": pgettext_lazy("form field", "player a"),
    "player b": pgettext_lazy("form field", "player b"),
    "profile": pgettext_lazy("form field", "profile"),
    "agreement": pgettext_lazy("form field", "agreement"),
    "first dealer": pgettext_lazy("form field", "first dealer"),
    "name": pgettext_lazy("form field", "name"),
}


def _field_words(name: str) -> str:
    words = name.replace("_", " ")
    found = FIELD_WORDS.get(words)
    return str(found) if found is not None else words


def _hand_of(hand_id: int) -> Hand:
    return get_object_or_404(Hand.objects.select_related("game"), pk=hand_id)


# ----------------------------------------------------------------------------- club


def home(request: HttpRequest) -> HttpResponse:
    """The site's home page: a logged-in user's clubs and latest matches."""
    context = {}
    if request.user.is_authenticated:
        matches = list(selectors.matches_for(request.user).order_by("-created_at")[:30])
        places = hooks.match_places([m.pk for m in matches])
        whose, their_clubs = selectors.whose_matches(request.user)
        context = {
            "clubs": selectors.clubs_for(request.user),
            "matches": [(m, places.get(m.pk, "")) for m in matches],
            "whose": whose,
            "their_clubs": their_clubs,
        }
    return render(request, "home.html", context)


@login_required
@require_GET
def club(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(selectors.clubs_for(request.user), slug=slug)
    actor = permissions.actor_at_club(request, club)
    context = {
        "club": club,
        "players": selectors.players_of(club),
        "matches": club.matches.select_related("player_a", "player_b")[:100],
        "form": StartMatchForm(club=club),
        "player_form": AddPlayerForm(),
        "organiser": permissions.organises(actor, club),
        "auditor": permissions.audits(actor, club),
        "scorekeeper": permissions.scorekeeps(actor, club),
        "member": actor.player,
    }
    if context["organiser"] or context["auditor"] or context["scorekeeper"]:
        context["auditors"] = services.auditors_of(club)
        context["scorekeepers"] = services.scorekeepers_of(club)
        context["pin_locks"] = services.pin_locks(context["players"])
        context["network_limits"] = services.network_limits(club=club)
        context["back"] = request.path
    return render(request, "scoring/club.html", context)


@login_required
@require_POST
def unlock_pin(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Lift a player's wrong-PIN locks (organisers), then back to where the button was."""
    club = _club_to_change(request, slug)
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id, club=club)
    services.unlock_pin(player=player, actor=permissions.actor_of(request))
    messages.success(
        request, _("%(name)s may try their PIN again on every phone.") % {"name": player.name}
    )
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = reverse("scoring:club", args=[club.slug])
    return redirect(back)


@login_required
@require_POST
def lift_network_limit(request: HttpRequest, slug: str) -> HttpResponse:
    """Lift an address's wrong-PIN limit for the club's players (organisers), then back."""
    club = _club_to_change(request, slug)
    ip = request.POST.get("ip", "")
    services.lift_network_limit(club=club, ip=ip, actor=permissions.actor_at_club(request, club))
    messages.success(request, _("Phones on the network %(ip)s may try PINs again.") % {"ip": ip})
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = reverse("scoring:club", args=[club.slug])
    return redirect(back)


@login_required
@require_POST
def grant_auditor(request: HttpRequest, slug: str) -> HttpResponse:
    """Make a user an auditor of the club (organisers), then back to the club's page."""
    return _grant_role(
        request,
        slug,
        services.grant_auditor,
        gettext_lazy(
            "%(name)s audits %(club)s from now on: they read everything and change nothing."
        ),
    )


def _grant_role(request: HttpRequest, slug: str, grant, done) -> HttpResponse:
    """Grant a club role by user name, then back to the club page. A name the
    site does not know (or a user who holds another role there) is said at the top of
    that page, whose form is there to type it again, rather than on an error page; with
    htmx (the club page's forms), in the form itself, the name kept."""
    club = _club_to_change(request, slug)
    back = reverse("scoring:club", args=[club.slug])
    try:
        user = grant(
            club=club,
            username=request.POST.get("username", ""),
            actor=permissions.actor_of(request),
        )
    except Forbidden:
        raise
    except ServiceError as error:
        if request.htmx:  # answered in the form, beside the name typed (refusals.js)
            raise
        messages.error(request, error.message)
        return redirect(back)
    messages.success(request, done % {"name": user.get_username(), "club": club.name})
    return redirect(back)


@login_required
@require_POST
def withdraw_auditor(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Withdraw an auditor of the club (organisers), then back to the club's page."""
    club = _club_to_change(request, slug)
    services.withdraw_auditor(club=club, user_id=user_id, actor=permissions.actor_of(request))
    messages.success(request, _("The auditor of %(club)s is withdrawn.") % {"club": club.name})
    return redirect("scoring:club", slug=club.slug)


@login_required
@require_POST
def grant_scorekeeper(request: HttpRequest, slug: str) -> HttpResponse:
    """Make a user a scorekeeper of the club (organisers), then back to the club's page."""
    return _grant_role(
        request,
        slug,
        services.grant_scorekeeper,
        gettext_lazy(
            "%(name)s keeps score at %(club)s from now on: they run the rounds and the "
            "tables, and change no settings, rules, players or roles."
        ),
    )


@login_required
@require_POST
def withdraw_scorekeeper(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Withdraw a scorekeeper of the club (organisers), then back to the club's page."""
    club = _club_to_change(request, slug)
    services.withdraw_scorekeeper(club=club, user_id=user_id, actor=permissions.actor_of(request))
    messages.success(request, _("The scorekeeper of %(club)s is withdrawn.") % {"club": club.name})
    return redirect("scoring:club", slug=club.slug)


@login_required
@require_POST
def new_match(request: HttpRequest, slug: str) -> HttpResponse:
    """Staff start any match; at a club night two members start their own."""
    club = _club_to_change(request, slug, staff=True)
    data = _checked(StartMatchForm(request.POST, club=club), _("Check the new match"))
    match = services.start_match(club=club, actor=permissions.actor_at_club(request, club), **data)
    return _back(match)


@login_required
@require_POST
def add_player(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_to_change(request, slug)
    data = _checked(AddPlayerForm(request.POST), _("Check the new player"))
    player = services.add_player(club=club, actor=permissions.actor_of(request), **data)
    messages.success(
        request, _("%(name)s joined %(club)s.") % {"name": player.name, "club": club.name}
    )
    return redirect("scoring:club", slug=slug)


# ---------------------------------------------------------------------------- table


@require_GET
def table(request: HttpRequest, token: str) -> HttpResponse:
    link = permissions.read_table_token(token)
    match = Match.objects.filter(pk=link.match_id).first()
    if match is None:
        raise NotFound("not_found", _("This table's match no longer exists."))
    permissions.grant_table(request, match, link)
    carried = _carry_seat(request, match)
    if carried is not None:
        messages.success(
            request,
            _("This phone enters results for %(name)s, as at your last table.")
            % {"name": carried.name},
        )
    return keep_language(request, redirect("scoring:match", match_id=match.pk))


def _carry_seat(request: HttpRequest, match: Match) -> Player | None:
    """A phone that proved a player's PIN at another table of the same event sits for
    them here too, without the PIN again (issue 23): only when exactly one of this
    match's players was proved on this phone in that event, and never where this phone
    said "Not you?". Returns the player seated, or None."""
    actor = permissions.actor_of(request)
    if match.pk in actor.seats or not permissions.may_carry_seat(request, match):
        return None
    players = {match.player_a_id: match.player_a, match.player_b_id: match.player_b}
    held = {m: p for m, p in actor.seats.items() if p in players and m != match.pk}
    if not held:
        return None
    events = hooks.match_events([match.pk, *held])
    event = events.get(match.pk)
    proven = {p for m, p in held.items() if event is not None and events.get(m) == event}
    if len(proven) != 1:
        return None
    player = players[proven.pop()]
    permissions.claim_seat(request, match, player)
    seated_language(request, player)
    return player


@require_GET
def next_table(request: HttpRequest, match_id: int) -> HttpResponse:
    """ "Go to my next table" once a match of an event is over: the seated player's next
    match there, seated for them (the phone proved them here), or their My event page
    while the next round is not published yet."""
    match = _visible_match(request, match_id)
    seated = permissions.actor_of(request, match).player
    found = hooks.next_table(match.pk, seated.pk) if seated is not None else None
    if found is None:
        return _back(match)
    if found.match_id is None:
        messages.info(
            request,
            _("Your next round is not paired yet: this page shows your table once it is."),
        )
        return redirect(found.event_path) if found.event_path else _back(match)
    following = Match.objects.get(pk=found.match_id)
    permissions.claim_seat(request, following, seated)
    return keep_language(request, redirect("scoring:match", match_id=following.pk))


def _match_context(request: HttpRequest, match: Match, **extra) -> dict:
    view = selectors.match_view(match.pk)
    actor = permissions.actor_of(request, match)
    seated = actor.player
    staff = permissions.may_manage_match(actor, match)
    return {
        # A call from this table waiting for staff ("Organiser, please"), if any.
        "open_call": selectors.open_call(match),
        "call_reasons": TableCall.Reason.choices,
        "may_call": permissions.may_call_staff(actor, match),
        "organiser": staff and permissions.organises(actor, match.club),
        "view": view,
        "match": view.match,
        "seated": seated,
        "seat": match.seat_of(seated) if seated else None,
        "staff": staff,
        "new_key": new_key(),
        "outcomes": OUTCOME_CHOICES,
        "deadwood_fields": DEADWOOD_FIELDS,
        "round_clock": hooks.match_clock(match),
        # the penalties against the table: its players and the staff read them
        "penalties": selectors.penalties_of(match),
        "penalty_kinds": Penalty.Kind.choices,
        "infractions": Penalty.Infraction.choices,
        # Once the result is known, where the seated player goes next (issue 23).
        "next_table": (
            hooks.next_table(match.pk, seated.pk)
            if seated is not None and view.result_words
            else None
        ),
        **extra,
    }


@require_GET
def match(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _visible_match(request, match_id)
    context = _match_context(request, match)
    context["hand_form"] = _blank_hand_form(context["view"], request.GET.get("mode", "quick"))
    # where it is played, when in an event ("Demo Open · round 2, table 3"), and a way
    # back to the event: its page this viewer may open, if any (one read)
    place = hooks.match_place(match, permissions.actor_of(request, match))
    context["place"] = place.words if place else ""
    context["place_path"] = place.path if place else None
    if context["staff"]:
        context["pin_locks"] = services.pin_locks([match.player_a, match.player_b])
        context["back"] = request.path
    return keep_language(request, render(request, "scoring/match.html", context))


def clock_version(clock) -> tuple | None:
    """A round clock as the polled partials show it: the countdown itself runs in the
    browser (static/js/clock.js), so only its end, time called, "over" and the table's
    extra time (after time is called, docs/rules.md §13) count."""
    if clock is None or (clock.ends_at is None and not clock.time_called):
        return None
    ends = clock.ends_at.isoformat() if clock.ends_at else None
    return (ends, clock.time_called, clock.seconds_left == 0, getattr(clock, "table", ()))


@require_GET
def scoreboard(request: HttpRequest, match_id: int) -> HttpResponse:
    """The scoreboard phones poll: a 304 when nothing it shows changed (ginclub.http)."""
    match = _visible_match(request, match_id, polled=True)
    actor = permissions.actor_of(request, match)
    version = (
        selectors.match_version(match),
        clock_version(hooks.match_clock(match)),
        actor.player.pk if actor.player else None,
        permissions.may_manage_match(actor, match),
    )
    return answer_poll(
        request,
        version,
        lambda: render(request, "scoring/_scoreboard.html", _match_context(request, match)),
    )


def _blank_hand_form(view, mode: str) -> HandForm | None:
    """The form for the next hand; None when no new hand may start (the match is over,
    or time was called and the hand in play is entered: view.play says so)."""
    if not view.may_start_hand:
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
    match = _visible_match(request, match_id)
    context = _match_context(request, match, cards=CARD_CHOICES)
    context["hand_form"] = _blank_hand_form(context["view"], request.GET.get("mode", "quick"))
    return render(request, _hand_form_template(context), context)


def _hand_form_template(context: dict) -> str:
    """The #hand-form partial: the form, or why no new hand may start (the result, or
    time called with the hand in play entered: issue 9, traps 2 and 3)."""
    return "scoring/_hand_form.html" if context["hand_form"] else "scoring/_hand_form_stopped.html"


@require_POST
def seat(request: HttpRequest, match_id: int) -> HttpResponse:
    """This phone acts for a player from now on, once they give their PIN."""
    match = _visible_match(request, match_id)
    phones_language = translation.get_language()
    data = _checked(SeatForm(request.POST), _("Choose your name and type your PIN"))
    actor = services.acting_with_pin(
        permissions.actor_of(request), match=match, player_id=data["player"], pin=data["pin"]
    )
    permissions.claim_seat(request, match, actor.player)
    seated_language(request, actor.player)
    messages.success(
        request,
        _("This phone now enters results for %(name)s.") % {"name": actor.player.name},
    )
    back = _back(match)
    if request.htmx and translation.get_language() != phones_language:
        # The player's language is not the phone's: the whole page is loaded again (a
        # boosted form swaps the body only, leaving <html lang> in the phone's language).
        back = HttpResponseClientRedirect(back.url)
    return keep_language(request, back)


@require_POST
def leave_seat(request: HttpRequest, match_id: int) -> HttpResponse:
    """ "Not you?": this phone stops acting for the player it was seated as (a phone
    passed to the wrong player, or a shared one). The table link still opens the match."""
    match = _visible_match(request, match_id)
    seated = permissions.actor_of(request, match).player
    permissions.release_seat(request, match)
    if seated is not None:
        messages.success(
            request,
            _("This phone no longer enters results for %(name)s: choose your name.")
            % {"name": seated.name},
        )
    return _back(match)


# ---------------------------------------------------------------------------- hands


def _hand_of_form(request: HttpRequest, match: Match) -> tuple[HandForm, dict]:
    form = HandForm(request.POST, match=match)
    return form, _checked(form, _("Check the hand"))


def _shown_result(result) -> dict:
    """An engine result's melds and lay-offs written as the card grid writes cards."""
    data = result.as_dict()
    return {
        "knocker_melds": [" ".join(map(card_text, m)) for m in data.get("knocker_melds") or ()],
        "defender_melds": [" ".join(map(card_text, m)) for m in data.get("defender_melds") or ()],
        "laid_off": " ".join(map(card_text, data.get("laid_off") or ())),
    }


@require_POST
def preview(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _visible_match(request, match_id)
    form, _data = _hand_of_form(request, match)
    hand = hand_input_from(form.hand_data(), names_of(match))
    result = services.preview_hand(match=match, hand=hand)
    # the preview says for whom, as the hand list does ("→ Alice +15")
    winner = winner_seat(result, hand.knocker) if hand.knocker else ""
    context = {
        "match": match,
        "result": result,
        "shown": _shown_result(result),
        "winner": match.player(winner) if winner else None,
    }
    return render(request, "scoring/_preview.html", context)


@require_POST
def compare(request: HttpRequest, match_id: int) -> HttpResponse:
    """Two phones saved the same hand at once: the entry already saved beside this
    phone's (which stays in its form), with the ways to settle it. Writes nothing."""
    match = _visible_match(request, match_id)
    form, data = _hand_of_form(request, match)
    hand = hand_input_from(form.hand_data(), names_of(match))
    mine = hand_values(hand, services.preview_hand(match=match, hand=hand))
    context = _match_context(request, match)
    saved = next(
        (
            h
            for g in context["view"].games
            if g.number == hand.game
            for h in g.hand_list
            if h.number == hand.number and h.state != Hand.State.VOIDED
        ),
        None,
    )
    if saved is not None:
        theirs = {
            "outcome": saved.outcome,
            "knocker": saved.knocker,
            "knocker_deadwood": saved.knocker_deadwood,
            "defender_deadwood": saved.defender_deadwood,
            "points": saved.points,
            "winner": saved.winner,
            **(saved.cards or {}),
        }
        mine = {**mine, **(mine["cards"] or {})}
        entered_by = saved.entered_names[0] if saved.entered_names else _("an organiser")
        context.update(
            hand=saved,
            rows=_clash_rows(match, theirs, mine),
            differ=bool(differences(theirs, mine)),
            # "Mine is right" sends this phone's figures: the dispute stores them as such
            claim=ClaimForm(initial=form.cleaned_data, match=match),
            entered_by=entered_by,
        )
    return render(request, "scoring/_hand_clash.html", context)


def _clash_rows(match: Match, theirs: dict, mine: dict) -> list[tuple[str, str, str, bool]]:
    """Both entries of one hand, field by field, as players read them."""

    def name(seat: str) -> str:
        return match.player(seat).name if seat else _("nobody")

    def score(values: dict) -> str:
        return (
            f"{name(values['winner'])} +{values['points']}" if values["winner"] else _("no points")
        )

    rows = [
        (
            _("Outcome"),
            show_value(theirs["outcome"], "outcome"),
            show_value(mine["outcome"], "outcome"),
        ),
        (_("Who knocked"), name(theirs["knocker"]), name(mine["knocker"])),
        (
            _("Knocker's deadwood"),
            show_value(theirs["knocker_deadwood"]),
            show_value(mine["knocker_deadwood"]),
        ),
        (
            _("Defender's deadwood"),
            show_value(theirs["defender_deadwood"]),
            show_value(mine["defender_deadwood"]),
        ),
        (_("Score"), score(theirs), score(mine)),
    ]
    for key, label in (
        ("knocker_cards", _("Knocker's cards")),
        ("defender_cards", _("Defender's cards")),
    ):
        if theirs.get(key) or mine.get(key):
            rows.append(
                (
                    label,
                    show_value(sorted(theirs.get(key) or ())),
                    show_value(sorted(mine.get(key) or ())),
                )
            )
    return [(label, a, b, a != b) for label, a, b in rows]


@require_POST
def submit(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _visible_match(request, match_id)
    form, data = _hand_of_form(request, match)
    services.submit_hand(
        match_id=match.pk,
        actor=permissions.actor_of(request, match),
        hand=hand_input_from(form.hand_data(), names_of(match)),
        idempotency_key=data["idempotency_key"],
    )
    return _after_write(request, match)


def _after_write(request: HttpRequest, match: Match) -> HttpResponse:
    """htmx: a fresh hand form, and an event that tells the page to refresh the
    scoreboard. Plain form post: back to the match."""
    if not request.htmx:
        return _back(match)
    context = _match_context(request, match, cards=CARD_CHOICES)
    context["hand_form"] = _blank_hand_form(context["view"], request.POST.get("mode", "quick"))
    response = render(request, _hand_form_template(context), context)
    response["HX-Trigger"] = "hand-recorded"
    return response


# The refusal's opening when a hand action's form is wrong ("Cannot confirm this hand: ...").
CANNOT = {
    "confirm": gettext_lazy("Cannot confirm this hand"),
    "dispute": gettext_lazy("Cannot dispute this hand"),
    "withdraw": gettext_lazy("Cannot withdraw this hand"),
    "void": gettext_lazy("Cannot void this hand"),
}

HAND_ACTIONS = {
    "confirm": services.confirm_hand,
    "dispute": services.dispute_hand,
    "withdraw": services.withdraw_hand,
    "void": services.void_hand,
}


def _actor_with_pin(request: HttpRequest, match: Match, data: dict) -> permissions.Actor:
    """The opponent may confirm on the enterer's phone by choosing their name + PIN."""
    actor = permissions.actor_of(request, match)
    if not data.get("player"):
        return actor
    return services.acting_with_pin(
        actor, match=match, player_id=data["player"], pin=data.get("pin") or ""
    )


@require_POST
def hand_action(request: HttpRequest, hand_id: int, action: str) -> HttpResponse:
    service = HAND_ACTIONS.get(action)
    if service is None:
        raise NotFound(
            "not_found", _("There is no hand action called %(action)r.") % {"action": action}
        )
    hand = _hand_of(hand_id)
    match = _visible_match(request, hand.game.match_id)
    data = _checked(VersionForm(request.POST), str(CANNOT[action]))
    kwargs = {
        "hand_id": hand.pk,
        "actor": _actor_with_pin(request, match, data),
        "version": data["version"],
        "idempotency_key": data["idempotency_key"],
    }
    if action in ("dispute", "void"):
        kwargs["reason"] = data.get("reason") or ""
    if action == "dispute" and ClaimForm.sent_in(request.POST):
        kwargs["claim"] = _claim_of(request, hand, match)
    service(**kwargs)
    if action == "void":  # from the correction page, back to the match
        messages.success(request, _("%(hand)s voided.") % {"hand": _hand_words(hand)})
    return _after_write(request, match)


def _claim_of(request: HttpRequest, hand: Hand, match: Match) -> HandInput:
    """The figures a dispute says are right (the clash's ClaimForm), as a hand input."""
    form = ClaimForm(request.POST, match=match)
    _checked(form, str(CANNOT["dispute"]))
    return claim_input(form.hand_data(), hand, names_of(match))


def _hand_words(hand: Hand) -> str:
    """'Hand 3 of game 1', for a message that starts with it."""
    return _("Hand %(number)s of game %(game)s") % {"number": hand.number, "game": hand.game.number}


# ------------------------------------------------------------------- organiser tools


@login_required
@require_POST
def correct(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = _hand_of(hand_id)
    match = _visible_match(request, hand.game.match_id)
    permissions.require_manage_match(permissions.actor_of(request), match)
    data = dict(_checked(CorrectionForm(request.POST), _("Check the correction")))
    version, reason, key = data.pop("version"), data.pop("reason"), data.pop("idempotency_key")
    services.correct_hand(
        hand_id=hand.pk,
        actor=permissions.actor_of(request),
        hand_input=hand_input_from(data, names_of(match)),
        version=version,
        reason=reason,
        idempotency_key=key,
    )
    messages.success(request, _("%(hand)s corrected.") % {"hand": _hand_words(hand)})
    return _after_write(request, match)


def _organised_hand(request: HttpRequest, hand_id: int) -> tuple[Hand, Match]:
    hand = _hand_of(hand_id)
    match = _visible_match(request, hand.game.match_id)
    permissions.require_manage_match(permissions.actor_of(request), match)
    return hand, match


def _correction_context(hand: Hand, match: Match, values: dict, **extra) -> dict:
    return {
        "hand": hand,
        "match": match,
        "values": values,
        "outcomes": OUTCOME_CHOICES,
        "new_key": new_key(),
        "round_clock": hooks.match_clock(match),
        **extra,
    }


def _hand_values(hand: Hand) -> dict:
    outcome = "knock" if hand.outcome == "undercut" else hand.outcome
    cards = hand.cards or {}
    return {
        "outcome": outcome,
        "knocker": hand.knocker,
        "knocker_deadwood": hand.knocker_deadwood,
        "defender_deadwood": hand.defender_deadwood,
        # a card-entry hand's cards, as codes the correction form takes back
        "knocker_cards": " ".join(cards.get("knocker_cards") or ()),
        "defender_cards": " ".join(cards.get("defender_cards") or ()),
        "upcard": cards.get("upcard") or "",
        "reason": "",
    }


@login_required
@require_GET
def correction(request: HttpRequest, hand_id: int) -> HttpResponse:
    """An organiser's page for one hand: correct or void it, after a preview."""
    hand, match = _organised_hand(request, hand_id)
    return render(
        request, "scoring/correction.html", _correction_context(hand, match, _hand_values(hand))
    )


@login_required
@require_POST
def correct_preview(request: HttpRequest, hand_id: int) -> HttpResponse:
    """What the correction would change (htmx: the `correction-preview` partial; a plain
    post: the whole page with it), or the refusal applying would give."""
    hand, match = _organised_hand(request, hand_id)
    data = dict(_checked(CorrectionForm(request.POST), _("Check the correction")))
    version, reason = data.pop("version"), data.pop("reason")
    data.pop("idempotency_key")
    preview = services.preview_correction(
        hand_id=hand.pk,
        actor=permissions.actor_of(request),
        hand_input=hand_input_from(dict(data), names_of(match)),
        version=version,
        reason=reason,
    )
    values = {**data, "reason": reason, "version": version}
    return _preview_answer(request, hand, match, preview, values)


@login_required
@require_POST
def void_preview(request: HttpRequest, hand_id: int) -> HttpResponse:
    """What voiding the hand would change, or the refusal voiding would give."""
    hand, match = _organised_hand(request, hand_id)
    data = _checked(VersionForm(request.POST), _("Check the void"))
    reason = data.get("reason") or ""
    preview = services.preview_void(
        hand_id=hand.pk, actor=permissions.actor_of(request), version=data["version"], reason=reason
    )
    values = {**_hand_values(hand), "reason": reason, "version": data["version"]}
    return _preview_answer(request, hand, match, preview, values)


def _preview_answer(request, hand: Hand, match: Match, preview, values: dict) -> HttpResponse:
    context = _correction_context(
        hand, match, values, preview=preview, shown=_shown_preview(preview, match)
    )
    if request.htmx:
        return render(request, "scoring/_correction_preview.html", context)
    return render(request, "scoring/correction.html", context)


def _shown_preview(preview, match: Match) -> dict:
    """The preview in words, with the players' names."""
    return {
        "hand_before": _hand_text(preview.hand_before, match),
        "hand_after": _hand_text(preview.hand_after, match),
        "result_before": _result_text(preview.result_before, match),
        "result_after": _result_text(preview.result_after, match),
        "games": [
            (after["number"], _game_text(before, match), _game_text(after, match))
            for before, after in preview.games_changed
        ],
    }


def _game_text(game: dict, match: Match) -> str:
    """ "Ada 70–20 Cleo", and who won it once it is over ("—": no such game)."""
    if not game:
        return "—"
    values = {
        "a": match.player_a.name,
        "b": match.player_b.name,
        "total_a": game["total_a"],
        "total_b": game["total_b"],
    }
    if game["winner"]:
        values["winner"] = match.player(game["winner"]).name
        # Translators: a game's totals and its winner: "Ada 160–20 Cleo, won by Ada"
        return _("%(a)s %(total_a)s–%(total_b)s %(b)s, won by %(winner)s") % values
    # Translators: a game's totals while it is played: "Ada 70–20 Cleo"
    return _("%(a)s %(total_a)s–%(total_b)s %(b)s") % values


def _hand_text(hand: dict, match: Match) -> str:
    if hand["state"] == Hand.State.VOIDED:
        return _("voided")
    if hand["outcome"] == "dead":
        return _("dead hand, no points")
    values = {
        "outcome": outcome_text(hand["outcome"]),
        "knocker": match.player(hand["knocker"]).name,
        "knocker_deadwood": hand["knocker_deadwood"],
        "defender_deadwood": hand["defender_deadwood"],
    }
    if hand["winner"]:
        values.update(winner=match.player(hand["winner"]).name, points=hand["points"])
        # Translators: "knock, Ada knocked, deadwood 4 v 30: Ada +26"
        return (
            _(
                "%(outcome)s, %(knocker)s knocked, deadwood %(knocker_deadwood)s v "
                "%(defender_deadwood)s: %(winner)s +%(points)s"
            )
            % values
        )
    return (
        _("%(outcome)s, %(knocker)s knocked, deadwood %(knocker_deadwood)s v %(defender_deadwood)s")
        % values
    )


def _result_text(result: dict, match: Match) -> str:
    values = {
        "a": match.player_a.name,
        "b": match.player_b.name,
        "games_a": result["games_won"]["A"],
        "games_b": result["games_won"]["B"],
        "points_a": result["points"]["A"],
        "points_b": result["points"]["B"],
    }
    if result["winner"]:
        values["winner"] = match.player(result["winner"]).name
        # Translators: "Ada wins: Ada 3–1 Ben in games, 420–310 points"
        return (
            _(
                "%(winner)s wins: %(a)s %(games_a)s–%(games_b)s %(b)s in games, "
                "%(points_a)s–%(points_b)s points"
            )
            % values
        )
    return (
        _(
            "Undecided: %(a)s %(games_a)s–%(games_b)s %(b)s in games, "
            "%(points_a)s–%(points_b)s points"
        )
        % values
    )


@login_required
@require_POST
def close(request: HttpRequest, match_id: int) -> HttpResponse:
    return _match_state(request, match_id, services.close_match)


@login_required
@require_POST
def reopen(request: HttpRequest, match_id: int) -> HttpResponse:
    return _match_state(request, match_id, services.reopen_match)


def _match_state(request: HttpRequest, match_id: int, service) -> HttpResponse:
    match = _visible_match(request, match_id)
    service(
        match_id=match.pk,
        actor=permissions.actor_of(request),
        reason=request.POST.get("reason", ""),
    )
    return _back(match)


@login_required
@require_GET
def match_ledger(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _visible_match(request, match_id)
    permissions.require_audit_match(permissions.actor_of(request), match)
    rows = list(selectors.ledger_of(match).select_related("entry", "hand"))
    chain = services.chain_of(match)
    # The same verifier as the audit: the chain, its signed checkpoint, and the match
    # replayed against its hands, games and result (a table edited behind a chain that
    # still fits is named here too).
    found = replay.verify_chain(chain)
    breaks = [broken for broken in found.breaks if broken.chain == chain]
    return render(
        request,
        "scoring/ledger.html",
        {
            "match": match,
            "rows": rows,
            "breaks": breaks,
            "differences": [str(difference) for difference in found.differences],
        },
    )


@login_required
@require_POST
def revoke_links(request: HttpRequest, match_id: int) -> HttpResponse:
    """Withdraw the match's table links and every phone's access through them."""
    match = _visible_match(request, match_id)
    services.revoke_table_links(match_id=match.pk, actor=permissions.actor_of(request))
    messages.success(
        request,
        _(
            "The table links of this match are withdrawn: phones that opened them must scan "
            "the new QR code and give their PIN again."
        ),
    )
    return _back(match)


@login_required
@require_GET
def table_qr(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _visible_match(request, match_id)
    permissions.require_audit_match(permissions.actor_of(request), match)
    inputs.require_format(request, "svg")
    token = permissions.table_token(match)
    url = request.build_absolute_uri(reverse("scoring:table", args=[token]))
    svg = segno.make(url, error="m").svg_inline(scale=4)
    return HttpResponse(svg, content_type="image/svg+xml")


# ------------------------------------------------------------- calls from the table


@require_POST
def call_staff(request: HttpRequest, match_id: int) -> HttpResponse:
    """ "Organiser, please": a seated player calls staff to the table, with a reason. A
    second tap while the call waits makes no second call and says so."""
    match = _visible_match(request, match_id)
    outcome = services.call_staff(
        match_id=match.pk,
        actor=permissions.actor_of(request, match),
        reason=request.POST.get("reason", ""),
    )
    call = outcome.call
    if outcome.created:
        messages.success(
            request,
            _("The organiser is called for %(reason)s. Stay at your table: they are coming.")
            % {"reason": call.get_reason_display()},
        )
    else:
        messages.info(
            request,
            _(
                "The organiser was already called from this table for %(reason)s; the "
                "call is still waiting, no second call was made."
            )
            % {"reason": call.get_reason_display()},
        )
    return _back(match)


@login_required
@require_POST
def take_call(request: HttpRequest, call_id: int) -> HttpResponse:
    """Staff are on their way to the table; back to where the button was."""
    call = services.take_call(call_id=call_id, actor=permissions.actor_of(request))
    messages.success(
        request,
        _("You took the call of %(a)s v %(b)s.")
        % {"a": call.match.player_a.name, "b": call.match.player_b.name},
    )
    return _back_to(request, call.match)


@login_required
@require_POST
def resolve_call(request: HttpRequest, call_id: int) -> HttpResponse:
    """Staff resolved the call, with an optional note; back to where the button was."""
    call = services.resolve_call(
        call_id=call_id, actor=permissions.actor_of(request), note=request.POST.get("note", "")
    )
    messages.success(
        request,
        _("The call of %(a)s v %(b)s is resolved.")
        % {"a": call.match.player_a.name, "b": call.match.player_b.name},
    )
    return _back_to(request, call.match)


def _back_to(request: HttpRequest, match: Match) -> HttpResponse:
    """The page the form came from (its `next`), else the match."""
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        return redirect(back)
    return redirect("scoring:match", match_id=match.pk)
