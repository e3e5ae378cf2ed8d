"""Tournaments, registrations, rounds and pairings.

Terms:
    registration  a player entered in a tournament (checked in, late, withdrawn).
    round         one set of pairings; drafted, then published (matches and tables
                  created), then closed when every match is finished.
    pairing       two registrations at a numbered table, or one with a bye; it records
                  why it was made (score group, pull-up, bye, set by organiser) and, once
                  published, the match played through the scoring services.
    decided       a pairing counts in the standings once its match is finished (or
                  closed), or once it is *resolved*: a bye, a result the organiser
                  recorded, or the time-called policy. A resolved pairing keeps its own
                  winner, games and points (`result_*`), which win over the match's.
    frozen        `Tournament.rules` is set when round 1 is published; from then on the
                  profile changes only through the rules-change services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.models import Club, Match, Player


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")
        ELIMINATION = "elimination", _("single elimination")
        SWISS_CUT = "swiss_cut", _("Swiss then top cut")

    class FirstRound(models.TextChoices):  # first_round: how round 1 of a Swiss is paired
        RANDOM = "random", _("at random (a recorded draw)")
        SEED = "seed", _("by seed (top half against bottom half)")
        LIST = "list", _("in list order (neighbours in the player list meet)")
        RATING = "rating", _("by club rating (top half against bottom half)")

    class LateEntry(models.TextChoices):  # what a late entry's missed rounds count as
        LOSS = "loss", _("not played: no match, no games, no points")
        BYE = "bye", _("byes (the bye score)")

    class State(models.TextChoices):
        SETUP = "setup", pgettext_lazy("tournament state", "setting up")
        RUNNING = "running", pgettext_lazy("tournament state", "running")
        FINISHED = "finished", pgettext_lazy("tournament state", "finished")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    profile = models.CharField(max_length=20, default="tournament")
    overrides = models.JSONField(default=dict, blank=True)
    rules = models.JSONField(
        null=True, blank=True, help_text="Frozen profile once the first round starts."
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(default=5)
    cut_size = models.PositiveSmallIntegerField(default=0, help_text="Top cut: 0, 4 or 8.")
    round_minutes = models.PositiveSmallIntegerField(default=50)
    first_round = models.CharField(  # first_round: see tournaments.pairing.first_round
        max_length=6, choices=FirstRound.choices, default=FirstRound.RANDOM
    )
    tiebreaks = models.JSONField(default=list, blank=True)
    bye_games = models.PositiveSmallIntegerField(default=3, help_text="Games a bye counts as won.")
    bye_points = models.PositiveIntegerField(default=0, help_text="Points a bye counts for.")
    agreement = models.CharField(
        max_length=10, choices=Match.Agreement.choices, default=Match.Agreement.CONFIRM
    )
    hide_standings_during_round = models.BooleanField(default=False)
    hide_last_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Hide the standings of the last N rounds until the end."
    )
    public = models.BooleanField(default=True)
    # The event's language: printed table cards, score sheets and standings are in it,
    # whoever prints them ("" = the organiser's own language at the time).
    language = models.CharField(max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    check_in_required = models.BooleanField(
        default=False, help_text="Pair only players who checked in."
    )
    # Sign-up by players and check-in from their phones (tournaments.services.signups;
    # changed there, by organisers, not through SETTINGS).
    signup_open = models.BooleanField(default=False)
    signup_code = models.CharField(
        max_length=8, blank=True, default="", help_text="The short code players type."
    )
    signup_capacity = models.PositiveIntegerField(
        null=True, blank=True, help_text="Places; the others wait on the list (none: no limit)."
    )
    signup_approval = models.BooleanField(
        default=False, help_text="An organiser approves each sign-up."
    )
    signup_closes_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="When round 1 is due to start."
    )
    check_in_opens = models.PositiveSmallIntegerField(
        default=60, help_text="Minutes before starts_at that players may check in by phone."
    )
    late_entry = models.CharField(max_length=4, choices=LateEntry.choices, default=LateEntry.LOSS)
    roster = models.JSONField(
        default=list,
        blank=True,
        help_text="Registration ids in schedule order (round robin) or seed order "
        "(elimination), fixed with round 1.",
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.SETUP)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # The settings an organiser chooses, in the order the forms show them.
    SETTINGS = (
        "name",
        "date",
        "venue",
        "profile",
        "overrides",
        "format",
        "rounds",
        "cut_size",
        "round_minutes",
        "first_round",
        "tiebreaks",
        "bye_games",
        "bye_points",
        "agreement",
        "hide_standings_during_round",
        "hide_last_rounds",
        "public",
        "language",
        "check_in_required",
    )

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["signup_code"],
                condition=~models.Q(signup_code=""),
                name="tournament_signup_code_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def frozen(self) -> bool:
        return self.rules is not None

    @property
    def chain(self) -> str:
        """This tournament's ledger chain."""
        return f"tournament:{self.pk}"

    # The settings that decide which of its results a visitor may read (its privacy and
    # the hiding options, which count rounds: tournaments.selectors.events.held_rounds).
    VISIBILITY_SETTINGS = frozenset(
        {"public", "hide_last_rounds", "hide_standings_during_round", "rounds"}
    )

    @property
    def holds_results(self) -> bool:
        """Whether it keeps some results from the public while it runs (a round closing,
        or the event finishing, may then release them)."""
        return bool(self.hide_last_rounds or self.hide_standings_during_round)


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    seed = models.PositiveIntegerField(null=True, blank=True)
    checked_in = models.BooleanField(default=False)
    late = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="registration_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class SignUp(models.Model):
    """A player's own sign-up (tournaments.services.signups): from the form to a
    registration, or to the waiting list, or to an organiser's decision.

    Terms:
        pending   an organiser must act: approve it (approval on), or say whether the
                  name or email that matches a club player with no PIN is that player.
        waiting   on the waiting list (the event was full); first come, first in.
        entered   it became `registration`; from then on the registration is the
                  player's one home in the event (check-in, withdrawal).
        left      the player left (or an organiser removed the registration);
        refused   an organiser refused it.
    """

    class State(models.TextChoices):
        PENDING = "pending", pgettext_lazy("sign-up state", "awaiting the organiser")
        WAITING = "waiting", pgettext_lazy("sign-up state", "on the waiting list")
        ENTERED = "entered", pgettext_lazy("sign-up state", "registered")
        LEFT = "left", pgettext_lazy("sign-up state", "left")
        REFUSED = "refused", pgettext_lazy("sign-up state", "refused")

    OPEN = (State.PENDING, State.WAITING, State.ENTERED)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="signups")
    # The club player signing up; null while an organiser must say who the name is.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="signups"
    )
    name = models.CharField(max_length=120)
    email = models.EmailField(blank=True)
    # The club player the name or email matched, when the signer could not prove it
    # with that player's PIN (the player has none): the organiser resolves it.
    claims = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The PIN the signer chose, kept (hashed, as Player keeps it) until the claim is
    # resolved; cleared once it is on a player.
    pin_hash = models.CharField(max_length=128, blank=True)
    state = models.CharField(max_length=8, choices=State.choices)
    registration = models.OneToOneField(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="signup"
    )
    # When it got a place from the waiting list (the player's page says so).
    moved_up_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        indexes = [models.Index(fields=["tournament", "state"], name="signup_tournament_state")]

    def __str__(self) -> str:
        return f"{self.name} signing up for {self.tournament}"


class Round(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("round state", "draft")
        PUBLISHED = "published", pgettext_lazy("round state", "published")
        CLOSED = "closed", pgettext_lazy("round state", "closed")

    class Stage(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")
        ELIMINATION = "elimination", _("elimination")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, choices=Stage.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    time_called = models.BooleanField(default=False)
    # When time was called (docs/rules.md §13): hands entered from then on count against
    # each table's hand in play.
    time_called_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return gettext("Round %(number)s of %(tournament)s") % {
            "number": self.number,
            "tournament": self.tournament,
        }


class Pairing(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    player_a = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="pairing"
    )
    position = models.PositiveSmallIntegerField(
        default=0, help_text="Order the pairing came in (bracket order in elimination)."
    )
    # A bye's result (a bye has no match): the games and points it counts as won, fixed
    # when the round is published. A table's result lives on its match (scoring.Match).
    bye_games = models.PositiveSmallIntegerField(default=0)
    bye_points = models.IntegerField(default=0)
    # An organiser's extension of this table's time (docs/rules.md §13): it plays on until
    # plays_until, then finishes the hand in play plus extra_hands more.
    plays_until = models.DateTimeField(null=True, blank=True)
    extra_hands = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="pairing_table_unique"),
        ]

    def __str__(self) -> str:
        if self.player_b is None:
            return gettext("Table %(table)s: %(player)s v bye") % {
                "table": self.table,
                "player": self.player_a.player.name,
            }
        return gettext("Table %(table)s: %(a)s v %(b)s") % {
            "table": self.table,
            "a": self.player_a.player.name,
            "b": self.player_b.player.name,
        }

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def resolved(self) -> bool:
        """A bye, or a table whose result an organiser or the time policy set."""
        return self.is_bye or (self.match is not None and self.match.overruled)


class Job(models.Model):
    """Long work done off the request by a background worker (tournaments.services.jobs):
    importing an archive, applying a rules change. The work runs in one transaction, so
    a failed job wrote nothing; the row says what became of it, in words for people."""

    class Kind(models.TextChoices):
        IMPORT_ARCHIVE = "import_archive", _("archive import")
        RULES_CHANGE = "rules_change", _("rules change")

    class State(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("job state", "waiting for a worker")
        RUNNING = "running", pgettext_lazy("job state", "running")
        DONE = "done", pgettext_lazy("job state", "done")
        FAILED = "failed", pgettext_lazy("job state", "failed")

    FINISHED = (State.DONE, State.FAILED)

    kind = models.CharField(max_length=20, choices=Kind.choices)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="jobs")
    # The tournament changed; for an import, the tournament created (set when it is done).
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    label = models.CharField(max_length=200, help_text="What was asked, for the job lists.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # The task's input (an archive, a rules change), cleared once the job has finished.
    payload = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True, help_text="What the work did.")
    error_code = models.CharField(max_length=40, blank=True)
    message = models.TextField(blank=True, help_text="Why the job failed, for people.")
    task_id = models.CharField(max_length=64, blank=True, help_text="The django-tasks result.")
    # label, message and the result's summary as English templates and their values
    # (tournaments.pairing.words.Phrase.as_data): pages word them in the reader's language
    # (tournaments.services.jobs.JobView); label and message keep the English text.
    words = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "-created_at"], name="job_club_recent")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in self.FINISHED


class Season(models.Model):
    """A club's ladder over a stretch of dates (issue 12).

    Terms:
        counted match  a decided match between two players (a bye is no match played)
                       that falls in the season: a table of a counted tournament (its
                       date in the season's dates; all of them, or the chosen ones),
                       or, when club nights count, a club match not played in any
                       tournament, started on a day in the dates.
        ranked         a player with at least `min_matches` counted matches; the others
                       are listed after the ranked, marked, in the same order.
    The ladder is ordered by the tournament standings maths (tournaments.pairing): match
    wins, then the season's tie-breaks. Matches are never drawn (a level table is decided
    by the organiser), so season points are `points_per_win` per match won and order the
    ladder exactly as match wins do.
    """

    class Events(models.TextChoices):
        ALL = "all", _("every tournament of the club in the dates")
        CHOSEN = "chosen", _("only the tournaments chosen")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, help_text="Unique in the club; kept when renamed.")
    starts_on = models.DateField()
    ends_on = models.DateField()
    events = models.CharField(max_length=8, choices=Events.choices, default=Events.ALL)
    tournaments = models.ManyToManyField(Tournament, blank=True, related_name="seasons")
    club_nights = models.BooleanField(
        default=True, help_text="Club matches played outside any tournament count."
    )
    points_per_win = models.PositiveSmallIntegerField(default=1)
    min_matches = models.PositiveSmallIntegerField(
        default=0, help_text="Fewer counted matches: listed after the ranked players."
    )
    tiebreaks = models.JSONField(default=list, blank=True)
    public = models.BooleanField(default=False, help_text="Anyone may read the ladder.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # The settings an organiser chooses, in the order the forms show them.
    SETTINGS = (
        "name",
        "starts_on",
        "ends_on",
        "events",
        "tournaments",
        "club_nights",
        "points_per_win",
        "min_matches",
        "tiebreaks",
        "public",
    )

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique_in_club"),
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def chain(self) -> str:
        """This season's ledger chain."""
        return f"season:{self.pk}"

    @property
    def chosen_tournaments(self):
        """The tournaments chosen to count (with events 'chosen'), by date."""
        return self.tournaments.order_by("date", "name")


class SeasonLadder(models.Model):
    """A season's ladder as last computed (tournaments.selectors.seasons), stored by the
    background refresh (tournaments.services.season_ladders) so that a worker which has
    not computed it serves it, while its version (a digest of its inputs) is still the
    current one. Derived data: never the only copy of anything."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="stored_ladder")
    version = models.CharField(max_length=64)
    data = models.JSONField(help_text="The rows and counts (ladders.Computed.as_data).")
    computed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"ladder of {self.season} ({self.version[:8]})"
