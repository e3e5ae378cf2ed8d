"""Organiser pages for the rounds: draft, adjust, publish; the running round's
dashboard (timer, time called, results by hand, close); standings and corrections.

One-button actions call the service, say what happened and go back; a refusal rises
to ginclub.middleware, which answers with its message at its status."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from django.contrib import messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ginclub.errors import NotFound, ServiceError
from ginclub.http import answer_poll
from ginclub.permissions import actor_of
from scoring import services as scoring
from scoring.selectors import current_standing
from scoring.words import result as result_words
from tournaments import selectors, services, translated
from tournaments.formats import planned_rounds
from tournaments.forms import ReasonForm, ResultForm, RoundPlayersForm, TimerForm
from tournaments.models import Pairing, Round, Tournament
from tournaments.services.base import require_state
from tournaments.views.common import (
    back,
    manages,
    organiser_page,
    runs,
    staff_page,
    whole_number,
)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(tournament.round_set, number=number)


def _draft_forms(rnd: Round, data=None) -> tuple[RoundPlayersForm, RoundPlayersForm]:
    pairings = list(rnd.pairings.select_related("player_a__player", "player_b__player"))
    seated = sorted(
        (r for p in pairings for r in (p.player_a, p.player_b) if r is not None),
        key=lambda r: r.player.name.lower(),
    )
    has_bye = any(p.is_bye for p in pairings)
    return (
        RoundPlayersForm(data, players=seated, prefix="swap"),
        RoundPlayersForm(data, players=seated, bye=has_bye, prefix="fix"),
    )


def _rounds_page(request, tournament, swap=None, fix=None, status=200) -> HttpResponse:
    rounds = list(selectors.rounds_of(tournament))
    latest = rounds[-1] if rounds else None
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "latest": latest,
        "tab": "rounds",
    }
    if tournament.state == Tournament.State.FINISHED:
        context["played_by"] = selectors.players_who_played(tournament)
    else:
        field, still_in = selectors.field_size(tournament), selectors.still_in(tournament)
        context["planned"] = planned_rounds(tournament, field)
        context["field"], context["still_in"] = field, still_in
        context["not_checked_in"] = still_in - field  # 0 unless check-in is required
    if latest is not None and latest.state == Round.State.DRAFT:
        context["draft"] = selectors.tables(latest)
        default_swap, default_fix = _draft_forms(latest)
        context["swap_form"], context["fix_form"] = swap or default_swap, fix or default_fix
        context["without_pin"] = selectors.without_pin(tournament, latest)
    return render(request, "tournaments/rounds.html", context, status=status)


@organiser_page
def rounds(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _rounds_page(request, tournament)


@staff_page
@require_POST
def draft(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor_of(request))
    messages.success(
        request,
        _("Round %(number)s drafted: check the pairings, adjust them if needed, then publish.")
        % {"number": rnd.number},
    )
    return back(tournament, "rounds")


@staff_page
@require_POST
def round_action(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    """The one-button round actions: discard a draft, publish, start the timer, call
    time (and undo a mistaken call), apply the time policy, revoke the table links,
    close."""
    rnd = _round(tournament, number)
    actor = actor_of(request)
    if action == "publish":
        services.publish_round(round_id=rnd.pk, actor=actor)
        messages.success(
            request,
            _("Round %(number)s is published: tables are numbered and the matches started.")
            % {"number": number},
        )
        return back(tournament, "dashboard")
    if action == "discard":
        services.discard_round(round_id=rnd.pk, actor=actor)
        messages.success(
            request, _("The draft of round %(number)s was discarded.") % {"number": number}
        )
        return back(tournament, "rounds")
    if action == "timer":
        minutes = whole_number(request, "minutes", _("A round's length in minutes"))
        form = TimerForm({"minutes": minutes})
        if not form.is_valid():
            raise ServiceError(
                "invalid", _("A round lasts 1 to 600 minutes."), fields={"minutes": "1 to 600"}
            )
        services.start_round_timer(
            round_id=rnd.pk, actor=actor, minutes=form.cleaned_data["minutes"]
        )
        messages.success(
            request, _("The clock of round %(number)s is running.") % {"number": number}
        )
    elif action == "call-time":
        services.call_time(round_id=rnd.pk, actor=actor)
        messages.success(
            request,
            _(
                "Time is called: each table finishes the hand in play and enters it; no new "
                "hand may start. Then decide the tables by the time policy."
            ),
        )
    elif action == "undo-time-call":
        services.undo_time_call(round_id=rnd.pk, actor=actor, reason=request.POST.get("reason", ""))
        messages.success(
            request,
            _("The call is undone: round %(number)s plays on with its clock as it was.")
            % {"number": number},
        )
    elif action == "time-policy":  # the whole round, or one table ("pairing")
        table = whole_number(request, "pairing", _("A table's pairing"))
        report = services.apply_time_policy(
            round_id=rnd.pk, actor=actor, pairing_ids=[table] if table is not None else None
        )
        _report_time_policy(request, report)
    elif action == "revoke-links":
        count = services.revoke_round_links(round_id=rnd.pk, actor=actor)
        messages.success(
            request,
            ngettext(
                "The table links of round %(number)s are withdrawn (%(count)s table): print "
                "new table cards; phones must scan the new code and give their PIN again.",
                "The table links of round %(number)s are withdrawn (%(count)s tables): print "
                "new table cards; phones must scan the new code and give their PIN again.",
                count,
            )
            % {"number": number, "count": count},
        )
    elif action == "close":
        services.close_round(round_id=rnd.pk, actor=actor)
        messages.success(request, _("Round %(number)s is closed.") % {"number": number})
        tournament.refresh_from_db()
        return back(tournament, "standings" if tournament.state == "finished" else "rounds")
    else:
        raise NotFound(
            "unknown_action", _("There is no round action %(action)s.") % {"action": repr(action)}
        )
    return back(tournament, "dashboard")


def _report_time_policy(request, report) -> None:
    for pairing in report.settled:
        # the result as the phones and the dashboard say it (scoring.words.result)
        messages.success(
            request,
            _("Table %(table)s: %(result)s.")
            % {"table": pairing.table, "result": result_words(pairing.match)},
        )
    for _pairing, why in report.waiting:
        messages.warning(request, _("Still open: %(why)s.") % {"why": translated.worded(why)})
    if not report.settled and not report.waiting:
        messages.info(request, _("Every table had already finished."))


@staff_page
@require_POST
def adjust(request: HttpRequest, tournament: Tournament, number: int, action: str) -> HttpResponse:
    """Swap two players, or fix a pairing (a player against another, or the bye)."""
    rnd = _round(tournament, number)
    swap, fix = _draft_forms(rnd, request.POST)
    form = swap if action == "swap" else fix
    if action not in ("swap", "fix"):
        raise NotFound(
            "unknown_action",
            _("There is no pairing change %(action)s.") % {"action": repr(action)},
        )
    # Only a draft has pairings to change (and the forms to show a problem on).
    require_state(rnd, Round.State.DRAFT)
    if form.is_valid():
        data = form.cleaned_data
        if action == "swap":
            services.swap_players(
                round_id=rnd.pk,
                actor=actor_of(request),
                first=data["first"],
                second=data["second"],
                reason=data["reason"],
            )
        else:
            services.fix_pairing(
                round_id=rnd.pk,
                actor=actor_of(request),
                player_a=data["first"],
                player_b=data["second"] or None,
                reason=data["reason"],
            )
        messages.success(request, _("Pairings changed."))
        return back(tournament, "rounds")
    other = _draft_forms(rnd)
    forms = {"swap": form, "fix": other[1]} if action == "swap" else {"swap": other[0], "fix": form}
    return _rounds_page(request, tournament, status=400, **forms)


# ---------------------------------------------------------------------- dashboard


def dashboard_round(tournament: Tournament, request: HttpRequest) -> Round | None:
    number = whole_number(request, "round", _("A round"))
    published = tournament.round_set.exclude(state=Round.State.DRAFT)
    if number is not None:
        return published.filter(number=number).first()
    return published.order_by("-number").first()


def staff_context(
    request: HttpRequest, tournament: Tournament, rnd: Round | None, back: str
) -> dict:
    """What the dashboard and the hall view show of the staff's work: the calls from the
    tables still waiting (`back`: where their forms return), and whether this reader runs
    the rounds (scorekeepers too) and manages the event (organisers)."""
    return {
        "calls": selectors.waiting_calls(tournament, rnd) if rnd is not None else [],
        "runs": runs(request, tournament),
        "manage": manages(request, tournament),
        "back": back,
    }


def _dashboard_url(tournament: Tournament, rnd: Round | None) -> str:
    url = reverse("tournaments:dashboard", args=[tournament.slug])
    return f"{url}?round={rnd.number}" if rnd is not None else url


@organiser_page
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rnd = dashboard_round(tournament, request)
    context = {
        "tournament": tournament,
        "tab": "dashboard",
        "timer_form": TimerForm(initial={"minutes": tournament.round_minutes}),
        **staff_context(request, tournament, rnd, _dashboard_url(tournament, rnd)),
    }
    if rnd is not None:
        context["board"] = selectors.dashboard_facts(rnd)
        context["board_rows"] = board_rows(request, tournament, context["board"])
        context["without_pin"] = selectors.without_pin(tournament, rnd)
    context["pin_locks"] = scoring.pin_locks(
        [r.player for r in tournament.registrations.select_related("player__club")]
    )
    context["network_limits"] = scoring.network_limits(club=tournament.club)
    context["worker_missing"] = services.worker_missing()
    context["entries"] = selectors.entries_of(tournament)
    return render(request, "tournaments/dashboard.html", context)


@organiser_page
@require_GET
def dashboard_tables(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The `dashboard-tables` partial the dashboard polls."""
    rnd = dashboard_round(tournament, request)

    def board() -> HttpResponse:
        context = {
            "tournament": tournament,
            "board": None,
            **staff_context(request, tournament, rnd, _dashboard_url(tournament, rnd)),
        }
        if rnd is not None:
            context["board"] = selectors.dashboard_facts(rnd)
            context["board_rows"] = board_rows(request, tournament, context["board"])
        return render(request, "tournaments/_dashboard_tables.html", context)

    return answer_poll(request, selectors.poll_version(tournament, rnd), board)


# A busy hall changes a few tables between two polls of the dashboard (a 256-table round
# finishes some three hands a second), and rendering all of them was most of a poll's
# time. So each table's row is rendered once per change of what it shows, under a digest
# of those values, the viewer (its forms carry the viewer's CSRF token) and the language,
# and a poll renders only the rows that moved. The rows of the last poll are kept for the
# app server's workers together (the shared cache, one entry per viewer, language and
# round): kept per worker, each of three workers re-rendered every row that moved since
# it last answered, three polls back (benchmarks/bench_hall.py).
DASHBOARD_ROW_SECONDS = 15 * 60


def board_rows(
    request: HttpRequest,
    tournament: Tournament,
    board,
    *,
    subset: list | None = None,
    template: str = "tournaments/_dashboard_row.html",
    lens: tuple = (),
) -> list[SafeString]:
    """The rows of `board` (selectors.dashboard_facts) as HTML, from the last poll's
    where unchanged; the rows that moved are read as Pairings and rendered. `subset`: the
    board's rows to show (all by default), each rendered with `template`; `lens`: what
    chose them (the hall view's filter), so each view keeps its own last poll."""
    rnd, clock = board.round, board.clock
    table_rows = board.tables if subset is None else subset
    csrf = hashlib.sha256(request.META.get("CSRF_COOKIE", "").encode()).hexdigest()[:16]
    viewer = (get_language(), csrf, tournament.pk, rnd.pk, template, *lens)
    # The shared cache's keys carry the deploy (ginclub.http.shared_cache_key).
    shared = (*viewer, rnd.state, bool(rnd.time_called), bool(clock.ends_at))
    keys = [_row_key(shared, row) for row in table_rows]
    board_key = "dashboard-rows:" + hashlib.sha256(repr(viewer).encode()).hexdigest()[:32]
    kept = caches["shared"].get(board_key) or {}
    moved = [row.pairing.pk for key, row in zip(keys, table_rows, strict=True) if key not in kept]
    shown = selectors.shown_pairings(rnd, moved) if moved else {}
    rows, now = [], {}
    for key, row in zip(keys, table_rows, strict=True):
        html = kept.get(key)
        if html is None:
            # Read after the facts, the Pairing may be a change newer than its key: the
            # next poll's key differs, and that poll renders the row again.
            pairing = shown.get(row.pairing.pk)
            if pairing is None:  # gone since the board was read (a round drafted again)
                continue
            context = {
                "row": replace(row, pairing=pairing),
                "rnd": rnd,
                "clock": clock,
                "tournament": tournament,
            }
            html = render_to_string(template, context, request=request)
        now[key] = html
        rows.append(mark_safe(html))  # our own template's output, kept as a str
    if now.keys() != kept.keys():
        caches["shared"].set(board_key, now, DASHBOARD_ROW_SECONDS)
    return rows


def _row_key(shared: tuple, row: selectors.TableRow) -> str:
    """Everything `_dashboard_row.html` shows of a table (a row of PairingFacts), as a
    digest."""
    p, m = row.pairing, row.pairing.match
    shown = (
        p.pk,
        p.table,
        p.player_a_name,
        p.player_b_name,
        p.reason,
        (
            m.pk,
            m.updated_at,
            m.games_won_a,
            m.games_won_b,
            m.winner,
            m.decided_by,
            m.decision_reason,
        )
        if m
        else None,
        row.state,
        row.pending,
        row.disputed,
        row.current_game,
        tuple(sorted(row.current_points.items())),
        row.play,
        row.call,
    )
    digest = hashlib.sha256(repr((shared, shown)).encode()).hexdigest()[:32]
    return f"dashboard-row:{digest}"


def _pairing(tournament: Tournament, pairing_id: int) -> Pairing:
    return get_object_or_404(
        Pairing.objects.select_related("round", "match", "player_a__player", "player_b__player"),
        pk=pairing_id,
        round__tournament=tournament,
    )


@staff_page
def result(request: HttpRequest, tournament: Tournament, pairing_id: int) -> HttpResponse:
    """Record (or withdraw) a table's result by hand, with a reason."""
    pairing = _pairing(tournament, pairing_id)
    names = (pairing.player_a.player.name, pairing.player_b.player.name if pairing.player_b else "")
    form = ResultForm(request.POST or None, names=names, initial=_result_initial(pairing))
    if request.method == "POST" and form.is_valid():
        services.record_result(pairing_id=pairing.pk, actor=actor_of(request), **form.cleaned_data)
        messages.success(request, _("Table %(table)s: result recorded.") % {"table": pairing.table})
        return back(tournament, "dashboard")
    match = pairing.match
    return render(
        request,
        "tournaments/result.html",
        {
            "tournament": tournament,
            "pairing": pairing,
            "form": form,
            "match": match,
            "clear_form": ReasonForm(),
            "tab": "dashboard",
        },
        status=400 if form.errors else 200,
    )


def _result_initial(pairing: Pairing) -> dict:
    """The result so far, so the organiser sees (and corrects) what would be recorded."""
    m = pairing.match
    if m is None:
        return {}
    if m.overruled:
        return {
            "winner": m.winner,
            "games_a": m.games_won_a,
            "games_b": m.games_won_b,
            "points_a": m.points_a,
            "points_b": m.points_b,
        }
    current = current_standing(m)
    return {
        "games_a": m.games_won_a,
        "games_b": m.games_won_b,
        "points_a": m.points_a + current["A"],
        "points_b": m.points_b + current["B"],
    }


@staff_page
@require_POST
def extend_table(request: HttpRequest, tournament: Tournament, pairing_id: int) -> HttpResponse:
    """More time for one table: `minutes` more, or `hands` more after the hand in play."""
    pairing = _pairing(tournament, pairing_id)
    minutes = whole_number(request, "minutes", _("Extra minutes"))
    hands = whole_number(request, "hands", _("Extra hands"))
    pairing = services.extend_table(
        pairing_id=pairing.pk,
        actor=actor_of(request),
        minutes=minutes,
        hands=hands,
        reason=request.POST.get("reason", ""),
    )
    board = selectors.dashboard(pairing.round)
    row = next(row for row in board.tables if row.pairing.pk == pairing.pk)
    if row.play_words:
        text = _("Table %(table)s: %(play)s") % {"table": pairing.table, "play": row.play_words}
    else:
        text = _("Table %(table)s: more time given.") % {"table": pairing.table}
    messages.success(request, text)
    return back(tournament, "dashboard")


@staff_page
@require_POST
def clear_result(request: HttpRequest, tournament: Tournament, pairing_id: int) -> HttpResponse:
    pairing = _pairing(tournament, pairing_id)
    services.clear_result(
        pairing_id=pairing.pk, actor=actor_of(request), reason=request.POST.get("reason", "")
    )
    messages.success(
        request,
        _("Table %(table)s: the result was withdrawn; the match goes on.")
        % {"table": pairing.table},
    )
    return back(tournament, "dashboard")


# ---------------------------------------------------------------------- standings


@organiser_page
def standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    view = selectors.standings(
        tournament, through_round=whole_number(request, "round", _("A round"))
    )
    return render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "standings": view,
            "changes": selectors.results_changed(tournament, through_round=view.through_round),
            "tab": "standings",
            "rounds": selectors.rounds_of(tournament).exclude(state=Round.State.DRAFT),
            "player_links": True,  # organisers read every player's page
        },
    )


@organiser_page
def corrections(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every table of every round, those needing attention first, each linking to its
    match page where organisers correct, void or close hands."""
    rounds = [
        (rnd, selectors.tables(rnd))
        for rnd in selectors.rounds_of(tournament)
        .exclude(state=Round.State.DRAFT)
        .order_by("-number")
    ]
    attention = [
        row for _rnd, rows in rounds for row in rows if row.state in ("pending", "disputed")
    ]
    # The same verifier as the audit page: every chain of the event, the signed
    # checkpoint, and each match replayed against its tables.
    found = selectors.verify_tournament(tournament)
    breaks = [b for b in found.breaks if b.chain == tournament.chain]
    return render(
        request,
        "tournaments/corrections.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "attention": attention,
            "by_hand": selectors.results_by_hand(tournament),
            "rows": selectors.event_ledger(tournament),
            "broken": breaks[0] if breaks else None,
            "elsewhere": len(found.breaks) - len(breaks) + len(found.differences),
            "tab": "corrections",
        },
    )
