"""A player's record for one viewer: everything their page and the API show, and who
may see it. The figures from their hands and finished matches (`History`) change only
when one of their matches does, so they are cached under a version of those matches.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from django.core.cache import cache
from django.db.models import Case, Count, Exists, Max, OuterRef, Q, When
from django.utils.translation import gettext as _

from ginclub import permissions
from ginclub.errors import NotFound
from scoring import hooks
from scoring.models import Club, Match, Player, Rating
from scoring.stats.club_ratings import RatingMonth, rating_months, rating_rows
from scoring.stats.figures import (
    MIN_GAMES,
    MIN_HANDS,
    Figure,
    card_figures,
    game_figures,
    hand_figures,
    knock_deadwood_counts,
    player_tally,
)
from scoring.stats.match_lines import (
    HeadToHead,
    MatchLine,
    MonthResults,
    finished_rows,
    head_to_head,
    match_lines,
    results_by_month,
)


@dataclass
class PlayerRecord:
    """Everything the player's page and API show, for one viewer."""

    player: Player
    hands: int
    games: int
    figures: list[Figure]
    matches: list[MatchLine]
    head_to_head: list[HeadToHead]
    months: list[MonthResults]
    deadwood: list[tuple[int, int]]
    rating_months: list[RatingMonth] = field(default_factory=list)
    events: tuple = ()
    hidden: frozenset[int] = field(default_factory=frozenset)
    rating: Rating | None = None
    matches_played: int = 0  # all of them, when `matches` shows only the latest
    # The History's version key: the page caches what it draws from the History under it.
    version: str = ""
    # Figures resting on fewer hands (games) are marked too few.
    min_hands: ClassVar[int] = MIN_HANDS
    min_games: ClassVar[int] = MIN_GAMES


def visible_player(actor, player_id: int) -> Player:
    """The player with their club, if `actor` may see them (ginclub.permissions
    may_see_player); anyone else, like an unknown id, gets NotFound."""
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player is None:
        raise permissions.no_player_page()
    permissions.require_see_player(actor, player)
    return player


def visible_club(actor, slug: str) -> Club:
    """The club, if `actor` may read its players' pages (else NotFound, as for no club)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not permissions.may_see_players_of(actor, club):
        raise NotFound("not_found", _("No such club."))
    return club


@dataclass(frozen=True)
class History:
    """What the player's page shows from their hands and finished matches: it changes
    only when one of their matches does, so it is cached (`history`)."""

    hand_figures: list[Figure]
    game_figures: list[Figure]
    card_figures: list[Figure]
    head_to_head: list[HeadToHead]
    months: list[MonthResults]
    deadwood: list[tuple[int, int]]


@dataclass(frozen=True)
class Version:
    """A version of everything `History` is made from, read in one small query: every
    change to a hand recomputes its match and saves the match row
    (scoring.services.recompute), so the latest `Match.updated_at` of the player's
    matches moves with any change to their hands, games or results; the count and the
    newest id catch a match added or removed. `hidden` is the viewer's part: results held
    back from them."""

    player_id: int
    matches: int
    newest: int | None
    changed: Any
    hidden: frozenset[int]

    @property
    def key(self) -> str:
        changed = self.changed.isoformat() if self.changed else "-"
        hidden = hashlib.sha256(",".join(map(str, sorted(self.hidden))).encode()).hexdigest()
        return (
            f"player-history:{HISTORY_FORMAT}:{self.player_id}:{self.matches}:{self.newest}:"
            f"{changed}:{hidden[:16]}"
        )


HISTORY_FORMAT = 1  # raise when History's shape changes: old entries are then not read
HISTORY_SECONDS = 24 * 60 * 60


def history_version(player: Player, hidden: frozenset[int] = frozenset()) -> Version:
    n = Match.objects.filter(Q(player_a=player) | Q(player_b=player)).aggregate(
        matches=Count("pk"), newest=Max("pk"), changed=Max("updated_at")
    )
    return Version(player.pk, n["matches"], n["newest"], n["changed"], hidden)


def history(player: Player, hidden: frozenset[int] = frozenset(), version=None) -> History:
    """The player's History for a viewer to whom `hidden` results are held back: from
    the cache when their matches have not changed since it was made (one query), else
    made (two: their seat summaries, their finished matches) and cached under the new
    version."""
    key = (version or history_version(player, hidden)).key
    found = cache.get(key)
    if found is None:
        tally, finished = player_tally(player.pk, hidden), finished_rows(player, hidden)
        found = History(
            hand_figures=hand_figures(tally),
            game_figures=game_figures(tally),
            card_figures=card_figures(tally),
            head_to_head=head_to_head(player, hidden, finished),
            months=results_by_month(player, hidden, finished),
            deadwood=knock_deadwood_counts(tally),
        )
        cache.set(key, found, HISTORY_SECONDS)
    return found


def player_record(player: Player, actor, *, matches_shown: int | None = None) -> PlayerRecord:
    """The player's record as `actor` may see it (ginclub.permissions): matches of
    events it may not open are left out altogether, results held back from it are
    listed as hidden; neither counts in any figure. The latest `matches_shown` matches
    listed (None: all). A fixed number of queries whatever the player's history; the
    figures from their hands come from `history`'s cache while none of their matches
    has changed."""
    found = hooks.player_events(player.pk, actor)
    unseen, hidden = withheld(player, actor)
    left_out = unseen | hidden
    version = history_version(player, left_out)
    past = history(player, left_out, version)
    matches = match_lines(player, hidden, matches_shown, unseen=unseen)
    places = hooks.match_places([line.match.pk for line in matches])
    rated = rating_rows(player, left_out)
    changes = {match_id: round(after - before, 2) for match_id, _month, before, after in rated}
    return PlayerRecord(
        player=player,
        hands=past.hand_figures[0].basis,
        games=past.game_figures[0].basis,
        figures=past.hand_figures + past.game_figures + past.card_figures,
        matches=[
            replace(
                line,
                place=places.get(line.match.pk, ""),
                rating_change=changes.get(line.match.pk),
            )
            for line in matches
        ],
        rating=Rating.objects.filter(player=player).first(),
        matches_played=len(matches) if matches_shown is None else version.matches - len(unseen),
        head_to_head=past.head_to_head,
        months=past.months,
        deadwood=past.deadwood,
        rating_months=rating_months(rated),
        version=version.key,
        events=found.events,
        hidden=hidden,
    )


def withheld(player: Player, actor) -> tuple[frozenset[int], frozenset[int]]:
    """(unseen, hidden): the player's matches `actor` may not know of (tables of events
    it may not open), and the others whose results are held back from it
    (ginclub.permissions). One query over the player's tournament tables (none for the
    club's organisers and auditors, who see everything), plus the hiding options' own."""
    if permissions.reads_club(actor, player.club):
        return frozenset(), frozenset()
    events = permissions.visible_tournaments(actor)
    rows = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player), pairing__isnull=False)
        .annotate(
            seen=Exists(events.filter(pk=OuterRef("pairing__round__tournament_id"))),
            held=Case(
                When(permissions.held_back(actor, "pairing__round"), then=True), default=False
            ),
        )
        .values_list("pk", "seen", "held")
    )
    unseen, hidden = set(), set()
    for pk, seen, held in rows:
        if not seen:
            unseen.add(pk)
        elif held:
            hidden.add(pk)
    return frozenset(unseen), frozenset(hidden)
