"""An event's facts, as its pages and the API read them: which events an actor may open,
an event's registrations and rounds, its field and planned rounds, what its hiding
options hold back, the results set by hand, its ledger, and where its matches are played;
and a player's events, for their page in scoring (through scoring.hooks.player_events).

Terms:
    field         the players who would be paired now (not withdrawn; checked in when the
                  event requires it).
    hidden after  the last round whose results the public sees under the organiser's
                  hide_last_rounds (the hiding options: tournaments.selectors.standings).
    held rounds   the rounds whose results the hiding options keep from the public while
                  their events run, as a condition any list of results can apply.
    by hand       a result an organiser (or the time policy) set over the hands.
    record        won, lost and drawn among a player's decided pairings of an event's
                  published and closed rounds (byes counted apart); a pairing is decided
                  as the standings decide it (tournaments.selectors.standings.decided_winner).
    held back     results the organiser's hiding options keep from this viewer while the
                  event runs (ginclub.permissions.held_back): the viewer sees no record of
                  such an event until it ends.
A player's events read in two queries, whatever the number of events or rounds.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Case, Q, QuerySet, When
from django.urls import reverse
from django.utils.translation import gettext

from ginclub import permissions
from ginclub.permissions import Actor, held_back
from scoring.hooks import MatchPlace, NextTable, PlayerEvent, PlayerEvents
from scoring.models import LedgerRow, Match
from tournaments.formats import planned_rounds
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.selectors.standings import PAIRING_FIELDS, decided_winner
from tournaments.translated import BYE, reason_text, waiting_text


def tournaments_for(actor: Actor) -> QuerySet[Tournament]:
    """Tournaments `actor` may open, as one query: the queryset form of
    ginclub.permissions.may_view_tournament (public ones, their clubs' for organisers,
    the ones they are registered in; admins all)."""
    return permissions.visible_tournaments(actor).select_related("club")


def registrations_of(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player").order_by("player__name")


def without_pin(tournament: Tournament, round: Round | None = None) -> list[str]:
    """The names of players who cannot sit at a table's phones (no PIN yet), A to Z: the
    round's paired players, or else the tournament's players still in it. Their hands
    wait for a confirmation nobody can give (issue 23, trap 1)."""
    registrations = tournament.registrations.filter(player__pin_hash="")
    if round is not None:
        paired = Q(pk__in=round.pairings.values("player_a")) | Q(
            pk__in=round.pairings.values("player_b")
        )
        registrations = registrations.filter(paired)
    else:
        registrations = registrations.filter(withdrawn=False)
    return list(registrations.order_by("player__name").values_list("player__name", flat=True))


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    return tournament.round_set.order_by("number")


def current_round(tournament: Tournament) -> Round | None:
    """The latest round, whatever its state (draft, published or closed)."""
    return tournament.round_set.order_by("-number").first()


def field_size(tournament: Tournament) -> int:
    """Players who would be paired now (not withdrawn; checked in when required)."""
    active = tournament.registrations.filter(withdrawn=False)
    if tournament.check_in_required:
        active = active.filter(checked_in=True)
    return active.count()


def still_in(tournament: Tournament) -> int:
    """Players registered and not withdrawn, checked in or not (the field before check-in)."""
    return tournament.registrations.filter(withdrawn=False).count()


def players_who_played(tournament: Tournament) -> int:
    """Players seated in a published or closed round (withdrawn since or not)."""
    seated = Pairing.objects.filter(round__tournament=tournament).exclude(
        round__state=Round.State.DRAFT
    )
    return (
        tournament.registrations.filter(
            Q(pk__in=seated.values("player_a")) | Q(pk__in=seated.values("player_b"))
        )
        .distinct()
        .count()
    )


def rounds_planned(tournament: Tournament) -> int:
    return planned_rounds(tournament, field_size(tournament))


def hidden_after(tournament: Tournament) -> int | None:
    """The last round whose results the public sees under hide_last_rounds (None: all of
    them; the round being played under hide_standings_during_round: public_limit)."""
    if not tournament.hide_last_rounds or tournament.state == Tournament.State.FINISHED:
        return None
    return max(rounds_planned(tournament) - tournament.hide_last_rounds, 0)


def held_rounds(round_path: str) -> Q:
    """The rounds whose results the organisers' hiding options keep from the public while
    their events run (hidden_after; the round being played under
    hide_standings_during_round), as a condition on a query that reaches the round
    through `round_path`. ginclub.permissions.held_back asks it (registered by the app),
    so every list holds back what the event's own pages hold back. One query, and one
    per running event that hides its last rounds."""
    hiding = Tournament.objects.exclude(state=Tournament.State.FINISHED).filter(
        Q(hide_last_rounds__gt=0) | Q(hide_standings_during_round=True)
    )
    held = Q(pk__in=[])
    for event in hiding:
        of_event = Q(**{f"{round_path}__tournament_id": event.pk})
        if event.hide_standings_during_round:
            held |= of_event & Q(**{f"{round_path}__state": Round.State.PUBLISHED})
        if (shown := hidden_after(event)) is not None:
            held |= of_event & Q(**{f"{round_path}__number__gt": shown})
    return held


def results_by_hand(tournament: Tournament) -> QuerySet[Pairing]:
    """Tables whose result an organiser (or the time policy) set, newest first."""
    return (
        Pairing.objects.filter(round__tournament=tournament)
        .exclude(match__decided_by="")
        .exclude(match=None)
        .select_related("round", "match", "player_a__player", "player_b__player")
        .order_by("-match__decided_at")
    )


def event_ledger(tournament: Tournament) -> QuerySet[LedgerRow]:
    """The tournament's own ledger chain (settings, rounds, results, rules changes)."""
    return LedgerRow.objects.filter(chain=tournament.chain).order_by("-position")


def places_of_matches(match_ids: list[int]) -> dict[int, str]:
    """{match id: "Demo Open · round 2, table 3"} for the matches played in rounds."""
    rows = Pairing.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "round__tournament__name", "round__number", "table"
    )
    return {match_id: _place_words(name, number, table) for match_id, name, number, table in rows}


def _place_words(name: str, number: int, table: int | None) -> str:
    """Where a match is played, in words: "Demo Open · round 2, table 3"."""
    said = (
        gettext("%(name)s · round %(number)s, table %(table)s")
        if table
        else gettext("%(name)s · round %(number)s")
    )
    return said % {"name": name, "number": number, "table": table}


def place_of(match, actor: Actor) -> MatchPlace | None:
    """Where `match` is played, in words, and the page of its event `actor` may open
    (scoring's match place hook), from one read of its pairing; None for a match played
    in no event."""
    pairing = (
        Pairing.objects.filter(match_id=match.pk)
        .select_related("round__tournament__club", "player_a", "player_b")
        .first()
    )
    if pairing is None:
        return None
    words = _place_words(pairing.round.tournament.name, pairing.round.number, pairing.table)
    return MatchPlace(words, _place_path(pairing, match, actor))


def _place_path(pairing: Pairing, match, actor: Actor) -> str | None:
    """The dashboard for those who read the organisers' pages, the player's own My event
    page for one of its players, else the event's page; None when the event is not
    theirs to see."""
    tournament = pairing.round.tournament
    if permissions.may_audit_tournament(actor, tournament):
        return reverse("tournaments:dashboard", args=[tournament.slug])
    if not permissions.may_view_tournament(actor, tournament):
        return None
    seated = permissions.seated_player(actor, match)
    for registration in (pairing.player_a, pairing.player_b):
        if seated is not None and registration is not None and registration.player_id == seated.pk:
            return reverse("tournaments:player-event", args=[tournament.slug, registration.pk])
    return reverse("tournaments:public", args=[tournament.slug])


def events_of_matches(match_ids: list[int]) -> dict[int, int]:
    """{match id: tournament id} for the matches played in rounds (scoring's match
    events hook: a phone seated for a player at one table sits for them at the next)."""
    return dict(
        Pairing.objects.filter(match_id__in=match_ids).values_list(
            "match_id", "round__tournament_id"
        )
    )


def next_table(match_id: int, player_id: int) -> NextTable | None:
    """Where `player_id` goes after the match `match_id` (scoring's next table hook):
    their My event page (when the event is public) and their first match of a later
    published round that is still being played. None for a match played in no event."""
    pairing = Pairing.objects.filter(match_id=match_id).select_related("round__tournament").first()
    if pairing is None:
        return None
    tournament = pairing.round.tournament
    registration = tournament.registrations.filter(player_id=player_id).first()
    if registration is None:
        return None
    path = None
    if tournament.public:
        path = reverse("tournaments:player-event", args=[tournament.slug, registration.pk])
    following = (
        Pairing.objects.filter(
            round__tournament=tournament,
            round__state=Round.State.PUBLISHED,
            round__number__gt=pairing.round.number,
            match__state=Match.State.IN_PROGRESS,
        )
        .filter(Q(player_a=registration) | Q(player_b=registration))
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number")
        .first()
    )
    if following is None:
        return NextTable(event_path=path)
    opponent = (
        following.player_b if following.player_a_id == registration.pk else following.player_a
    )
    return NextTable(
        event_path=path,
        match_id=following.match_id,
        words=gettext("Round %(number)s, table %(table)s v %(name)s")
        % {
            "number": following.round.number,
            "table": following.table,
            "name": opponent.player.name,
        },
    )


# ------------------------------------------------------------------ the ledger in words
# A tournament's ledger rows keep registration and pairing ids and English reasons (the
# record); ginclub.ledger's value text says them with names in the reader's language.


def _registration_names(ids) -> dict[int, str]:
    wanted = {i for i in ids if isinstance(i, int)}
    if not wanted:
        return {}
    return dict(Registration.objects.filter(pk__in=wanted).values_list("pk", "player__name"))


def ledger_pairs_text(value) -> str | None:
    """A drafted round's pairs ([[registration a, registration b or None, reason], ...])
    as "Ada v Ben (round 1: random draw 91752); Cleo: bye"."""
    if not isinstance(value, list) or not all(
        isinstance(item, list) and len(item) >= 2 for item in value
    ):
        return None
    names = _registration_names(x for item in value for x in item[:2])
    parts = []
    for item in value:
        a = names.get(item[0], str(item[0]))
        pair = (
            gettext("%(a)s v %(b)s") % {"a": a, "b": names.get(item[1], str(item[1]))}
            if item[1] is not None
            else gettext("%(name)s: bye") % {"name": a}
        )
        stored = item[2] if len(item) > 2 else ""
        reason = reason_text(stored) if stored and not (item[1] is None and stored == BYE) else ""
        parts.append(f"{pair} ({reason})" if reason else pair)
    return "; ".join(parts)


def ledger_byes_text(value) -> str | None:
    """A published round's byes (registration ids) by name."""
    if not isinstance(value, list) or not all(isinstance(i, int) for i in value):
        return None
    names = _registration_names(value)
    return ", ".join(names.get(i, str(i)) for i in value) if value else None


def _pairings(value) -> dict[int, Pairing]:
    ids = {item.get("pairing") for item in value if isinstance(item, dict)}
    return Pairing.objects.select_related("player_a__player", "player_b__player").in_bulk(
        [i for i in ids if isinstance(i, int)]
    )


def ledger_settled_text(value) -> str | None:
    """The tables the time policy decided ([{pairing, table, winner, reason}, ...]) as
    "Table 3: Cleo wins (time was called and Cleo led on games)"."""
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        return None
    pairings = _pairings(value)
    parts = []
    for item in value:
        pairing = pairings.get(item.get("pairing"))
        winner = item.get("winner")
        if pairing is not None and winner in ("A", "B") and pairing.player_b is not None:
            who = (pairing.player_a if winner == "A" else pairing.player_b).player.name
            text = gettext("Table %(table)s: %(name)s wins") % {
                "table": item.get("table"),
                "name": who,
            }
        else:
            text = gettext("Table %(table)s") % {"table": item.get("table")}
        reason = reason_text(item.get("reason") or "")
        parts.append(f"{text} ({reason})" if reason else text)
    return "; ".join(parts) if parts else None


def ledger_waiting_text(value) -> str | None:
    """The tables the time policy left open ([{pairing, table, reason}, ...]): each
    reason ("table 2: a hand is disputed") in the reader's language."""
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        return None
    parts = [waiting_text(str(item.get("reason") or "")) for item in value]
    return "; ".join(parts) if parts else None


# ------------------------------------------------------------------ a player's events


def player_events(player_id: int, actor: Actor) -> PlayerEvents:
    """The events of `player_id` that `actor` may open, newest first, with the player's
    record in each (not shown while the event holds results back from `actor`)."""
    events = list(
        tournaments_for(actor).filter(registrations__player_id=player_id).order_by("-date", "-pk")
    )
    rows = (
        Pairing.objects.filter(
            round__tournament__in=[e.pk for e in events],
            round__state__in=[Round.State.PUBLISHED, Round.State.CLOSED],
        )
        .filter(Q(player_a__player_id=player_id) | Q(player_b__player_id=player_id))
        .annotate(held=Case(When(held_back(actor, "round"), then=True), default=False))
        .values(*PAIRING_FIELDS, "round__tournament_id", "held", "player_a__player_id")
    )
    by_event: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        by_event[row["round__tournament_id"]].append(row)
    return PlayerEvents(
        tuple(_event_line(event, by_event[event.pk], player_id) for event in events)
    )


def _event_line(event: Tournament, rows: list[dict], player_id: int) -> PlayerEvent:
    counts = {"won": 0, "lost": 0, "drawn": 0, "byes": 0, "undecided": 0}
    for row in rows:
        counts[_outcome(row, player_id)] += 1
    return PlayerEvent(
        name=event.name,
        date=event.date,
        state=event.get_state_display(),
        path=reverse("tournaments:public", args=[event.slug]),
        match_ids=tuple(row["match_id"] for row in rows if row["match_id"]),
        record_shown=not any(row["held"] for row in rows),
        **counts,
    )


def _outcome(row: dict, player_id: int) -> str:
    if row["player_b_id"] is None:
        return "byes"
    seat = "A" if row["player_a__player_id"] == player_id else "B"
    winner = decided_winner(row)
    if winner is None:
        return "undecided"
    return "won" if winner == seat else "lost"
