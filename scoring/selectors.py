"""Reads shared by the pages and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ginclub import ledger, permissions
from ginclub.prepared import Prepared
from scoring import hooks, words
from scoring.hand_input import dispute_words, outcome_text
from scoring.match_rules import (
    dealer_after,
    entered_hands_end_game,
    entry_game,
    hollywood_columns,
    is_hollywood,
    next_hand_number,
    profile_of,
)
from scoring.models import Club, Entry, Game, Hand, LedgerRow, Match, Penalty, Player, TableCall
from scoring.rules import game_standing


@dataclass
class MatchView:
    """Everything the match page and the match API show, read in a few queries."""

    match: Match
    games: list[Game]
    hands_by_game: dict[int, list[Hand]]
    next_dealer: str | None
    current_game: Game | None
    # Asked of the apps above scoring (scoring.hooks): play after time is called, while
    # the match is played.
    play: hooks.PlayNote | None = None

    @property
    def may_start_hand(self) -> bool:
        return self.current_game is not None and (self.play is None or self.play.may_start)

    @property
    def entered_end_game(self) -> bool:
        """Whether the hands entered in the current game, agreed or not, already end it:
        no hand may follow until they are (the services refuse one, `game_decided`), so
        the hand form says so before anyone types one."""
        live = [h for h in self.current_hands if h.state != Hand.State.VOIDED]
        return entered_hands_end_game(self.match, live)

    @property
    def result_words(self) -> str:
        return words.result(self.match)

    @property
    def result_arithmetic(self) -> str:
        if not self.result_words:
            return ""
        return words.arithmetic(self.match, self.games)

    @property
    def games_shown(self) -> dict[str, int]:
        return {"A": self.match.games_won_a, "B": self.match.games_won_b}

    @property
    def current_hands(self) -> list[Hand]:
        return self.hands_by_game.get(self.current_game.pk, []) if self.current_game else []

    @property
    def next_hand_number(self) -> int:
        hands = self.current_hands
        return next_hand_number(hands, {h.pk for h in hands if h.withdrawn})

    @property
    def attention(self) -> list[Hand]:
        return [
            h
            for hands in self.hands_by_game.values()
            for h in hands
            if h.state in (Hand.State.PENDING, Hand.State.DISPUTED)
        ]

    @property
    def next_hand(self) -> int | None:
        return self.next_hand_number if self.current_game else None

    @property
    def play_words(self) -> str:
        return self.play.words if self.play else ""


def match_view(match_id: int) -> MatchView:
    match = Match.objects.select_related("club", "player_a", "player_b").get(pk=match_id)
    games = list(
        match.games.order_by("number").prefetch_related(
            Prefetch("hands", queryset=Hand.objects.order_by("number", "id"))
        )
    )
    hands_by_game = {g.pk: list(g.hands.all()) for g in games}
    seat_names = words.names_of(match)
    entered: dict[int, set[str]] = {}
    names: dict[int, list[str]] = {}
    firsts: dict[int, str] = {}
    withdrawn: set[int] = set()
    kinds = (Entry.Kind.SUBMIT, Entry.Kind.WITHDRAW)
    entries = Entry.objects.filter(match=match, kind__in=kinds).order_by("id")
    for hand_id, seat, kind in entries.values_list("hand_id", "seat", "kind"):
        if kind == Entry.Kind.WITHDRAW:
            withdrawn.add(hand_id)
            continue
        entered.setdefault(hand_id, set()).add(seat)
        firsts.setdefault(hand_id, seat)
        names.setdefault(hand_id, []).append(match.player(seat).name if seat else _("an organiser"))
    for game in games:
        for hand in hands_by_game[game.pk]:
            hand.game = game  # already loaded: spare the serializer a query per hand
            hand.withdrawn = hand.pk in withdrawn
            hand.entered_seats = entered.get(hand.pk, set())
            hand.entered_names = names.get(hand.pk, [])
            hand.by_organiser = "" in hand.entered_seats
            # who may settle a disputed hand by accepting the first entry after all
            first = firsts.get(hand.pk, "")
            hand.settler_seat = ("B" if first == "A" else "A") if first else ""
            hand.settler_name = match.player(hand.settler_seat).name if first else ""
        game.hand_list = hands_by_game[game.pk]
        game.summary_words = words.summary(game, seat_names, match.rules)
        game.total_words = words.totals(game, seat_names, match.rules)
    _attach_corrections(match, hands_by_game)
    current = next((g for g in games if g.state == Game.State.IN_PROGRESS), None)
    if is_hollywood(match):  # one hand sequence, in game 1, for three games
        current = entry_game(match, games)
        hollywood_columns(match, games)
    in_play = match.state == Match.State.IN_PROGRESS
    return MatchView(
        match,
        games,
        hands_by_game,
        _next_dealer(match, current, hands_by_game),
        current,
        play=hooks.play_note(match.pk) if in_play else None,
    )


# What ends a dispute on the ledger (the next of these rows about the same hand).
DISPUTE_ENDS = ("hand_corrected", "hand_voided", "hand_confirmed", "hand_withdrawn")


def _attach_corrections(match: Match, hands_by_game: dict[int, list[Hand]]) -> None:
    """What an organiser or a dispute did to each hand, for the players to see, from one
    query of the ledger: the latest correction, what the hand said before and why
    (`hand.correction`); the void, who and why (`hand.void`); each dispute settled
    since, what it said and how it ended (`hand.past_disputes`); what the open dispute
    of a disputed hand says (`hand.dispute_note`)."""
    hands = {h.pk: h for hs in hands_by_game.values() for h in hs}
    for hand in hands.values():
        hand.correction, hand.void, hand.past_disputes = None, None, []
    open_disputes: dict[int, dict] = {}
    rows = LedgerRow.objects.filter(
        match=match, action__in=("hand_disputed", *DISPUTE_ENDS), hand_id__in=list(hands)
    ).order_by("position")
    fields = ("hand_id", "action", "actor", "before", "after", "reason", "entry__seat")
    for row in rows.select_related("entry").only(*fields):
        hand = hands[row.hand_id]
        if row.action in DISPUTE_ENDS and row.hand_id in open_disputes:
            settled = open_disputes.pop(row.hand_id)
            settled["ended"] = ledger.action_label(row.action)
            hand.past_disputes.append(settled)
        if row.action == "hand_corrected":
            hand.correction = {"before": _hand_words(match, row.before or {}), "reason": row.reason}
        elif row.action == "hand_voided":
            hand.void = {"by": row.actor, "reason": row.reason}
        elif row.action == "hand_disputed":
            open_disputes[row.hand_id] = {"by": row.actor, "note": _dispute_note(match, hand, row)}
    for hand_id, dispute in open_disputes.items():
        if hands[hand_id].state == Hand.State.DISPUTED:
            hands[hand_id].dispute_note = dispute["note"]


def _dispute_note(match: Match, hand: Hand, row: LedgerRow) -> str:
    """A dispute's ledger row in the reader's words: the figures in dispute, the first
    entry's and the disputer's by name, and the disputer's own words."""
    diff = (row.after or {}).get("differences")
    seat = row.entry.seat if row.entry is not None else ""
    first = hand.entered_names[0] if hand.entered_names else _("an organiser")
    disputer = match.player(seat).name if seat else _("an organiser")
    return dispute_words(diff, row.reason, names=(first, disputer), seats=words.names_of(match))


def _hand_words(match: Match, hand: dict) -> str:
    """A hand as it stood ('knock by Ada, deadwood 4 v 30: Ada +26'), with names."""
    outcome = str(hand.get("outcome") or "")
    if outcome == "dead":
        return _("dead hand, no points")
    text = outcome_text(outcome) if outcome else ""
    if hand.get("knocker"):
        # Translators: "knock by Ada": how the hand ended, and who knocked.
        text = _("%(outcome)s by %(knocker)s") % {
            "outcome": text,
            "knocker": match.player(hand["knocker"]).name,
        }
    if hand.get("knocker_deadwood") is not None or hand.get("defender_deadwood") is not None:
        text = _("%(hand)s, deadwood %(knocker_deadwood)s v %(defender_deadwood)s") % {
            "hand": text,
            "knocker_deadwood": hand.get("knocker_deadwood"),
            "defender_deadwood": hand.get("defender_deadwood"),
        }
    if hand.get("winner"):
        text = _("%(hand)s: %(winner)s +%(points)s") % {
            "hand": text,
            "winner": match.player(hand["winner"]).name,
            "points": hand.get("points"),
        }
    return text


def _next_dealer(match: Match, game: Game | None, hands_by_game) -> str | None:
    if game is None or match.state != Match.State.IN_PROGRESS:
        return None
    live = [h for h in hands_by_game.get(game.pk, []) if h.state != Hand.State.VOIDED]
    return dealer_after(game.first_dealer, live[-1] if live else None, profile_of(match))


def current_standing(match: Match) -> dict[str, int]:
    """Where the match's current game (the lowest in progress) stands, for a ruling that
    stops it (time called, docs/rules.md §13): the engine's `game_standing` of its
    confirmed hands, so a fixed-length game counts its boxes and earned game bonuses as
    §7 decides it. 0 to 0 with no game in progress."""
    game = match.games.filter(state=Game.State.IN_PROGRESS).order_by("number").first()
    if game is None:
        return {"A": 0, "B": 0}
    profile = profile_of(match)
    if profile.hollywood:  # game 1 holds every hand; each game is to a target (§8a)
        return {"A": game.hand_points_a, "B": game.hand_points_b}
    hands = game.hands.filter(state=Hand.State.CONFIRMED).order_by("number")
    return game_standing([(h.winner or None, h.points) for h in hands], profile).totals


def visible_match(actor: permissions.Actor, match_id: int, *, polled: bool = False) -> Match:
    """The match with its club and players, if `actor` may see it (404, else 403).

    `polled`: for the scoreboard poll, the same query also reads the match's ledger
    position and its round clock (`match_version`, hooks.match_clock), so a poll that
    answers 304 makes one query after its session's, not three: on PostgreSQL, with the
    hall's two cores busy, each round trip was a wait for another process."""
    answered = permissions.asks_organiser_answer(actor)
    values = {"match_id": int(match_id)}
    if answered:
        values["user_id"] = actor.user.pk
    if polled:
        values["chain"] = f"match:{match_id}"
    found = _visible_matches[polled, answered](**values)
    if not found:
        raise Http404
    match = found[0]
    permissions.remember_organiser_answer(actor, match, match.club)
    permissions.require_view_match(actor, match)
    return match


def _visible_matches_query(polled: bool, answered: bool) -> Prepared:
    """`visible_match`'s read, prepared (ginclub.prepared): every request about a match
    starts with it, and building and compiling its joins took Django longer than the
    database took to answer. One for each shape: polled or not, with or without the
    actor's organiser answer (permissions.with_organiser_answer)."""

    def build(match_id: int, user_id: int = 0, chain: str = "") -> QuerySet:
        matches = Match.objects.select_related("club", "player_a", "player_b").filter(pk=match_id)
        if polled:
            matches = matches.select_related(*hooks.match_clock_related()).annotate(
                ledger_last=Subquery(
                    LedgerRow.objects.filter(chain=chain)
                    .order_by("-position")
                    .values("position")[:1]
                )
            )
        if answered:
            matches = matches.annotate(
                actor_organises=permissions.organiser_answer(user_id, "club_id")
            )
        return matches

    kinds = {"match_id": int}
    if answered:
        kinds["user_id"] = int
    if polled:
        kinds["chain"] = str
    return Prepared(build, kinds)


_visible_matches = {
    (polled, answered): _visible_matches_query(polled, answered)
    for polled in (False, True)
    for answered in (False, True)
}


def visible_hand(actor: permissions.Actor, hand_id: int) -> Hand:
    """The hand with its game and its match (club, players: `visible_match`'s), in one
    query, if `actor` may see the match (404, else 403)."""
    hands = Hand.objects.select_related(
        "game__match__club", "game__match__player_a", "game__match__player_b"
    )
    hands = permissions.with_organiser_answer(hands, actor, "game__match__club_id")
    hand = get_object_or_404(hands, pk=hand_id)
    permissions.remember_organiser_answer(actor, hand, hand.game.match.club)
    permissions.require_view_match(actor, hand.game.match)
    return hand


def match_version(match: Match) -> tuple:
    """What the match's scoreboard shows, cheaply: the last position of the match's ledger
    chain (every hand and match change appends a row) with the match row already loaded
    (state, games, rules, names). One indexed query, or none for a match read with its
    ledger position (`visible_match(..., polled=True)`)."""
    if hasattr(match, "ledger_last"):
        last = match.ledger_last
    else:
        last = (
            LedgerRow.objects.filter(chain=f"match:{match.pk}")
            .order_by("-position")
            .values_list("position", flat=True)
            .first()
        )
    return (
        last,
        match.state,
        match.games_won_a,
        match.games_won_b,
        match.winner,
        match.agreement,
        repr(match.rules),
        match.player_a.name,
        match.player_b.name,
    )


def matches_for(user) -> QuerySet[Match]:
    """Matches a logged-in user may open (permissions.openable_matches)."""
    actor = permissions.Actor(user=user)
    return permissions.openable_matches(actor).select_related("club", "player_a", "player_b")


def whose_matches(user) -> tuple[str, list[str]]:
    """Whose matches `matches_for` lists, for its heading: "every" club's (admins and
    site-wide auditors), the "clubs" the user organises, keeps score at or audits (their
    names, A to Z: those matches are the clubs', not the user's), else the user's "own"."""
    actor = permissions.Actor(user=user)
    if actor.is_admin() or permissions.audits_every_club(actor):
        return "every", []
    names = list(permissions.read_clubs(actor).order_by("name").values_list("name", flat=True))
    return ("clubs", names) if names else ("own", [])


def open_call(match: Match):
    """The call from `match`'s table still waiting for staff (a TableCall), or None."""
    return (
        TableCall.objects.filter(match=match, resolved_at=None)
        .select_related("player", "taken_by")
        .first()
    )


def calls_of(match: Match) -> QuerySet:
    """Every call from `match`'s table, oldest first."""
    return match.calls.select_related("player", "taken_by", "resolved_by").order_by("called_at")


def clubs_for(user) -> QuerySet[Club]:
    """The clubs a logged-in user organises, audits or plays at (permissions.known_clubs)."""
    return permissions.known_clubs(permissions.Actor(user=user))


def players_of(club: Club) -> QuerySet[Player]:
    return club.players.order_by("name")


def ledger_of(match: Match) -> QuerySet[LedgerRow]:
    return LedgerRow.objects.filter(match=match).order_by("position")


def entries_of(hand: Hand) -> QuerySet[Entry]:
    return hand.entries.select_related("player", "user").order_by("id")


def penalties_of(match: Match) -> list[Penalty]:
    """The match's penalties, standing and reversed, oldest first (the players at the
    table and the staff read them)."""
    return list(
        Penalty.objects.filter(match=match)
        .select_related("match__player_a", "match__player_b", "recorded_by", "reversed_by")
        .order_by("recorded_at", "id")
    )
