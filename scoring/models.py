"""Clubs, players, matches, games, hands, entries and the audit ledger.

Terms:
    seat      "A" or "B": the two players of a match, in the order the match names them.
    entry     one submission by anyone (a hand, a confirmation, a correction...); entries
              are append-only and a hand's accepted result points at the entry it came from.
    ledger    one row per state change, hash-chained per match so an edit behind the
              service's back is caught by `manage.py verify_ledger`.
Derived numbers (game totals, games won) are stored for fast pages, and always recomputed
from the hand rows by the services, never edited by hand.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.contrib.sessions.base_session import AbstractBaseSession, BaseSessionManager
from django.db import models
from django.db.models import Q
from django.utils.translation import pgettext_lazy


class Seat(models.TextChoices):
    A = "A", "A"
    B = "B", "B"


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_clubs", blank=True
    )
    # Read-only: everything the organisers read (private events, held-back rounds,
    # ledgers, devices, exports), nothing they change (ginclub.permissions.audits).
    auditors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="audited_clubs", blank=True
    )
    # Run rounds on the day (the clock and time policy, results by hand, confirming for
    # a player, corrections and voids, the calls from the tables) and change nothing of
    # the settings, rules, players or roles (ginclub.permissions.scorekeeps).
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="scorekept_clubs", blank=True
    )
    player_pages_public = models.BooleanField(
        default=False,
        help_text="Anyone may read the players' pages (records, statistics, charts); "
        "otherwise only the club's members and organisers.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        # Given by admins (a user's permissions, or a group's): an auditor of every club.
        permissions = [("audit_every_club", "Can audit every club (read-only)")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=120)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    email = models.EmailField(blank=True)
    member_id = models.CharField(max_length=40, blank=True)
    pin_hash = models.CharField(max_length=128, blank=True)
    # The language the player last chose at a table ("" = none yet): a phone seated for
    # this player shows the table in it, whatever the phone's browser prefers.
    language = models.CharField(max_length=8, blank=True, choices=settings.LANGUAGES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.name

    # A table PIN is 4 to 8 digits, mostly 4: 10^4 possibilities. No hash cost protects so
    # small a secret from someone holding the database (Django's PBKDF2, ~0.3 s a guess
    # here, gives up all 10^4 in under an hour on one core, far less on a GPU), so cost
    # buys little there; it did make every guess at the table cost ~0.3 s of server CPU,
    # a denial-of-service lever (64 phones seating at once took seconds). What protects
    # a PIN is the rate limits in scoring.services.players, checked before any hash.
    # So: a fast salted SHA-256 (microseconds), compared in constant time. Hashes made
    # by Django's hashers before this still check, and are rewritten on their first match
    # (`pin_is_legacy`).
    PIN_HASH_PREFIX = "pin-sha256"

    def set_pin(self, pin: str) -> None:
        salt = secrets.token_hex(12)
        self.pin_hash = f"{self.PIN_HASH_PREFIX}${salt}${_pin_digest(salt, pin)}"

    def check_pin(self, pin: str) -> bool:
        if not self.pin_hash:
            return False
        if self.pin_is_legacy:
            return check_password(pin, self.pin_hash)
        _prefix, salt, digest = self.pin_hash.split("$", 2)
        return hmac.compare_digest(digest, _pin_digest(salt, pin))

    @property
    def pin_is_legacy(self) -> bool:
        return bool(self.pin_hash) and not self.pin_hash.startswith(self.PIN_HASH_PREFIX + "$")


def _pin_digest(salt: str, pin: str) -> str:
    return hashlib.sha256(f"{salt}${pin}".encode()).hexdigest()


class Match(models.Model):
    class State(models.TextChoices):
        IN_PROGRESS = "in_progress", pgettext_lazy("match state", "in progress")
        FINISHED = "finished", pgettext_lazy("match state", "finished")
        CLOSED = "closed", pgettext_lazy("match state", "closed")

    class Agreement(models.TextChoices):
        CONFIRM = "confirm", pgettext_lazy("agreement", "opponent confirms")
        DOUBLE = "double", pgettext_lazy("agreement", "double entry")

    # The states of a match that is over: finished by its hands, or closed (stopped by
    # an organiser or the time policy, or closed after it finished). A match is decided
    # when it is over with a winner (`decided`).
    OVER = (State.FINISHED, State.CLOSED)

    class DecidedBy(models.TextChoices):
        """Who decided the result over the hands (blank: the hands decide it)."""

        ORGANISER = "organiser", pgettext_lazy("result set by", "organiser")
        TIME = "time", pgettext_lazy("result set by", "time policy")
        PENALTY = "penalty", pgettext_lazy("result set by", "match loss penalty")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="matches")
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    rules = models.JSONField(help_text="Frozen rule profile, options included.")
    agreement = models.CharField(
        max_length=10, choices=Agreement.choices, default=Agreement.CONFIRM
    )
    first_dealer = models.CharField(max_length=1, choices=Seat.choices)
    state = models.CharField(max_length=12, choices=State.choices, default=State.IN_PROGRESS)
    winner = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    games_won_a = models.PositiveSmallIntegerField(default=0)
    games_won_b = models.PositiveSmallIntegerField(default=0)
    points_a = models.IntegerField(default=0)
    points_b = models.IntegerField(default=0)
    # The match's one result (docs/rules.md §13, §17): winner, games and points above are
    # what the hands say, unless a decision was set over them (an organiser's result, the
    # time policy), which then stands with who set it, why and when. Every reader (records,
    # ratings, standings, ladders, brackets, exports) reads the result here.
    decided_by = models.CharField(max_length=12, choices=DecidedBy.choices, blank=True)
    decision_reason = models.TextField(blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    link_generation = models.PositiveIntegerField(
        default=0,
        help_text="Signed into every table link and grant; revoking the links bumps it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_a=models.F("player_b")), name="match_players_differ"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} v {self.player_b}"

    def player(self, seat: str) -> Player:
        return self.player_a if seat == Seat.A else self.player_b

    def seat_of(self, player: Player) -> str | None:
        if player.pk == self.player_a_id:
            return Seat.A
        if player.pk == self.player_b_id:
            return Seat.B
        return None

    @property
    def margin(self) -> int:
        return abs(self.points_a - self.points_b)

    @property
    def decided(self) -> bool:
        """The match has a winner, by its hands or by a decision set over them."""
        return self.state in self.OVER and bool(self.winner)

    @property
    def overruled(self) -> bool:
        """An organiser or the time policy set the result, not the hands."""
        return bool(self.decided_by)


class Game(models.Model):
    class State(models.TextChoices):
        IN_PROGRESS = "in_progress", pgettext_lazy("game state", "in progress")
        FINISHED = "finished", pgettext_lazy("game state", "finished")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveSmallIntegerField()
    first_dealer = models.CharField(max_length=1, choices=Seat.choices)
    state = models.CharField(max_length=12, choices=State.choices, default=State.IN_PROGRESS)
    winner = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    hand_points_a = models.IntegerField(default=0)
    hand_points_b = models.IntegerField(default=0)
    total_a = models.IntegerField(default=0)
    total_b = models.IntegerField(default=0)
    breakdown = models.JSONField(
        default=dict, blank=True, help_text="The engine's game result once finished."
    )
    explanation = models.TextField(blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique")
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of {self.match}"


class Hand(models.Model):
    class Outcome(models.TextChoices):
        KNOCK = "knock", pgettext_lazy("hand outcome", "knock")
        UNDERCUT = "undercut", pgettext_lazy("hand outcome", "undercut")
        GIN = "gin", pgettext_lazy("hand outcome", "gin")
        BIG_GIN = "big_gin", pgettext_lazy("hand outcome", "big gin")
        DEAD = "dead", pgettext_lazy("hand outcome", "dead hand")

    class State(models.TextChoices):
        PENDING = "pending", pgettext_lazy("hand state", "pending")
        CONFIRMED = "confirmed", pgettext_lazy("hand state", "confirmed")
        DISPUTED = "disputed", pgettext_lazy("hand state", "disputed")
        VOIDED = "voided", pgettext_lazy("hand state", "voided")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveSmallIntegerField()
    dealer = models.CharField(max_length=1, choices=Seat.choices)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    knocker = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    knocker_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    defender_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    cards = models.JSONField(
        null=True, blank=True, help_text="Card entry: both hands, melds and lay-offs."
    )
    points = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    explanation = models.TextField(blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    version = models.PositiveIntegerField(default=1)
    accepted_entry = models.ForeignKey(
        "Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            # a withdrawn hand (voided) leaves its number to the hand entered again
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=~models.Q(state="voided"),
                name="hand_number_unique_while_live",
            )
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game.number}"

    @property
    def counts(self) -> bool:
        return self.state == self.State.CONFIRMED


class Penalty(models.Model):
    """An infraction staff recorded against one player of a match, and its penalty
    (docs/rules.md §18). A caution or a warning changes no result; a game loss ends the
    game in play for the opponent (scoring.rules.games.forfeit_game, read by the
    recompute); a match loss sets the match's result over the hands (decide_match).
    Reversing one keeps the row, with who reversed it, when and why."""

    class Kind(models.TextChoices):
        CAUTION = "caution", pgettext_lazy("penalty", "caution")
        WARNING = "warning", pgettext_lazy("penalty", "warning")
        GAME_LOSS = "game_loss", pgettext_lazy("penalty", "game loss")
        MATCH_LOSS = "match_loss", pgettext_lazy("penalty", "match loss")

    class Infraction(models.TextChoices):
        PROCEDURE = "procedure", pgettext_lazy("infraction", "procedural error")
        CARDS = "cards", pgettext_lazy("infraction", "drawing or looking at extra cards")
        SCORING = "scoring", pgettext_lazy("infraction", "wrong score entered")
        SLOW_PLAY = "slow_play", pgettext_lazy("infraction", "slow play")
        CONDUCT = "conduct", pgettext_lazy("infraction", "unsporting conduct")
        OTHER = "other", pgettext_lazy("infraction", "other")

    # The penalties that change a result (the others are a record only).
    CHANGES_RESULT = (Kind.GAME_LOSS, Kind.MATCH_LOSS)

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="penalties")
    seat = models.CharField(max_length=1, choices=Seat.choices)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    infraction = models.CharField(max_length=12, choices=Infraction.choices)
    details = models.TextField(help_text="What happened, in the staff's words.")
    game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The game a game loss ended."
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    reversed_at = models.DateTimeField(null=True, blank=True)
    reversed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reversal_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["match", "recorded_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for seat {self.seat} of match {self.match_id}"

    @property
    def active(self) -> bool:
        return self.reversed_at is None

    @property
    def player(self) -> Player:
        return self.match.player(self.seat)


class Entry(models.Model):
    """One submission, kept forever exactly as it arrived."""

    class Kind(models.TextChoices):
        SUBMIT = "submit", "hand entered"
        CONFIRM = "confirm", "confirmed"
        DISPUTE = "dispute", "disputed"
        WITHDRAW = "withdraw", "withdrawn"
        CORRECT = "correct", "corrected"
        VOID = "void", "voided"

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="entries")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.CharField(
        max_length=1,
        choices=Seat.choices,
        blank=True,
        help_text="Blank when an organiser or admin acted.",
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    device = models.CharField(max_length=200, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    payload = models.JSONField()
    idempotency_key = models.CharField(max_length=80)
    request_hash = models.CharField(max_length=64)
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["match", "idempotency_key"], name="entry_idempotency_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class LedgerRow(models.Model):
    """One state change. Rows chain by hash within their chain (one chain per match)."""

    chain = models.CharField(max_length=40)
    position = models.PositiveIntegerField()
    action = models.CharField(max_length=30)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger"
    )
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger"
    )
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger"
    )
    actor = models.CharField(max_length=150, help_text="Who acted, as shown to auditors.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # The MAC key that made `hash` (ginclub.ledger_keys); "legacy": a plain SHA-256 row
    # written before keys existed.
    key_id = models.CharField(max_length=40, default="legacy")

    class Meta:
        ordering = ["chain", "position"]
        constraints = [
            # Two writers that raced past the lock would fork the chain: refuse the second.
            models.UniqueConstraint(fields=["chain", "position"], name="ledger_chain_position"),
        ]

    def __str__(self) -> str:
        return f"{self.chain}#{self.position} {self.action}"


class LedgerCheckpoint(models.Model):
    """The database's note of each signed checkpoint written to the ledger directory
    (ginclub.checkpoints): a checkpoint file swapped for an older one no longer matches
    the last note. The checkpoint itself lives outside the database."""

    seq = models.PositiveIntegerField(unique=True)
    digest = models.CharField(max_length=64)
    rows = models.PositiveIntegerField()
    written_at = models.DateTimeField()

    class Meta:
        ordering = ["-seq"]

    def __str__(self) -> str:
        return f"checkpoint {self.seq}"


class PinFailure(models.Model):
    """A wrong PIN at a table (or on the player's own event page: no match), from one
    device (browser session) and address. Throttling (scoring.services.players) counts
    these per player and device, per player across devices, and per address
    (generously: a venue shares one)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    device = models.CharField(max_length=64, blank=True, help_text="A hash of the session key.")
    ip = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["player", "created_at"], name="pinfailure_player_time"),
            models.Index(fields=["ip", "created_at"], name="pinfailure_ip_time"),
        ]

    def __str__(self) -> str:
        return f"wrong PIN for {self.player} at match {self.match_id}"


class LoginCount(models.Model):
    """How many login attempts one key (an address, a username, a trusted device; a
    digest, never the name itself) made in one window of LOGIN_WINDOW seconds. The
    login form's limits (ginclub.login_limits) count here, in the database, so that
    every app server counts the same attempts."""

    key = models.CharField(max_length=64)
    window = models.BigIntegerField(help_text="Seconds since the epoch // the window.")
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key", "window"], name="logincount_once"),
        ]
        indexes = [models.Index(fields=["window"], name="logincount_window")]

    def __str__(self) -> str:
        return f"{self.key} in window {self.window}: {self.count}"


class SessionManager(BaseSessionManager):
    def get_queryset(self):
        return super().get_queryset().select_related("user")


class Session(AbstractBaseSession):
    """A browser's session: Django's, with the user it is logged in as in a column of its
    own, written from the session's data whenever the session is saved (ginclub.sessions,
    the one place it is). A request then reads who is asking, its session and its user,
    in one statement, and a user's sessions go when the user does."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    objects = SessionManager()  # a session's row comes with its user's

    @classmethod
    def get_session_store_class(cls):
        from ginclub.sessions import SessionStore

        return SessionStore


class PinDevice(models.Model):
    """A device (browser session) that gave a player's right PIN: the player's own
    phone. The hourly per-player ceiling, which strangers can reach, does not hold it
    (scoring.services.players); its own per-phone limit does."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    device = models.CharField(max_length=64, help_text="A hash of the session key.")
    last_used = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "device"], name="pindevice_once"),
        ]

    def __str__(self) -> str:
        return f"a phone {self.player} sat at"


class Rating(models.Model):
    """A player's club rating after every finished match of the club they played, as
    last recomputed by scoring.services.ratings (openskill's Plackett-Luce model): `mu`
    the estimate, `sigma` its uncertainty, `ordinal` = mu - 3 sigma what lists show.
    Derived data: recomputed whole from the matches, never edited."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    matches = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating (ordinals before and after)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    before = models.FloatField()
    after = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} at match {self.match_id}: {self.before:.1f} → {self.after:.1f}"

    @property
    def change(self) -> float:
        return self.after - self.before


class SeatSummary(models.Model):
    """What one seat's confirmed hands and finished games of one match add to its
    player's statistics (scoring.stats.summaries: the terms, and `Tally`, whose fields
    these columns are). Derived data: rewritten with the match's games on every change
    to its hands (scoring.services.recompute), rebuilt by
    `manage.py rebuild_seat_summaries`."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_summaries")
    seat = models.CharField(max_length=1, choices=Seat.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seat_summaries")
    hands = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    knocks = models.PositiveIntegerField(default=0)
    gins = models.PositiveIntegerField(default=0)
    big_gins = models.PositiveIntegerField(default=0)
    suffered = models.PositiveIntegerField(default=0)
    opp_knocks = models.PositiveIntegerField(default=0)
    given = models.PositiveIntegerField(default=0)
    knock_deadwood = models.PositiveIntegerField(default=0)
    defended = models.PositiveIntegerField(default=0)
    caught = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    boxes = models.PositiveIntegerField(default=0)
    shutouts = models.PositiveIntegerField(default=0)
    shut_out = models.PositiveIntegerField(default=0)
    card_hands = models.PositiveIntegerField(default=0)
    sets = models.PositiveIntegerField(default=0)
    runs = models.PositiveIntegerField(default=0)
    card_knocks = models.PositiveIntegerField(default=0)
    laid_off = models.PositiveIntegerField(default=0)
    knock_deadwoods = models.JSONField(
        default=dict, blank=True, help_text="Knocks by deadwood: {deadwood: knocks}."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_summary_unique")
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: {self.hands} hands"


class TableCall(models.Model):
    """A call from a table for the organiser ("Organiser, please"): a ruling, a dispute,
    a scoring question. One open call per match at a time (a second tap finds the first);
    staff take it, then resolve it; the match's ledger keeps each step and the wait."""

    class Reason(models.TextChoices):
        RULING = "ruling", pgettext_lazy("table call", "a ruling")
        DISPUTE = "dispute", pgettext_lazy("table call", "a dispute")
        SCORING = "scoring", pgettext_lazy("table call", "a scoring question")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="calls")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    # Who called: the seated player (blank when staff raised it for the table).
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    called_at = models.DateTimeField()
    taken_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["called_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(resolved_at=None), name="one_open_call_per_match"
            )
        ]

    def __str__(self) -> str:
        return f"call {self.pk} at match {self.match_id} ({self.reason})"

    @property
    def state(self) -> str:
        """Open (waiting), taken (staff on the way) or resolved."""
        if self.resolved_at is not None:
            return "resolved"
        return "taken" if self.taken_at is not None else "open"
