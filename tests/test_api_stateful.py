"""A property test of the whole writing API (issue 24): whatever sequence of calls any
role makes, no request answers 5xx, every refusal says why, the audit ledger verifies,
no write succeeds for someone ginclub.permissions refuses, and the stored totals agree
with the hands.

Hypothesis drives a `RuleBasedStateMachine` through the real HTTP API (DRF's APIClient,
so middleware, serializers, the exception handler and the services all run). Each
example starts from one small world built by the factories and services (a club with
three players who log in, an organiser, an admin, another club and its organiser, a
casual match, a tournament whose round 1 is published) and rolls back at its end, so
examples never meet each other's rows.

Roles: the anonymous, two phones (sessions that open table links and sit down with a
PIN), players A and B logged in (opponents in the casual match), C (a member of the
club), the club's organiser, another club's organiser, an admin. Rules: start matches,
open links, sit down (right and wrong PINs), submit hands (quick and by cards, legal
and not, the right number and not), confirm, dispute, withdraw, correct, void, close
and reopen matches, decide a table and withdraw the decision, the round's actions
(timer, call time, time policy, undo, extend, close, draft, publish, discard),
idempotency keys from a small pool (so keys are replayed by the same and by other
actors, with the same and with other bodies) and junk bodies on every writing route.

Bounded for CI (derandomized, a fixed number of examples and steps): set
STATEFUL_EXAMPLES / STATEFUL_STEPS in the environment to run it longer, STATEFUL_RANDOM=1
to draw new sequences each run, STATEFUL_DEBUG=1 to print every refusal and a summary of
the statuses each route answered.
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from rest_framework.test import APIClient

from ginclub import ledger
from ginclub.permissions import table_token
from scoring import services as scoring
from scoring.match_rules import entry_game, is_hollywood
from scoring.models import Club, Entry, Game, Hand, Match, Player
from tests.factories import PIN, ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import QUICK, actor, new_event
from tournaments import services as tournaments
from tournaments.models import Pairing, Registration, Round, Tournament

EXAMPLES = int(os.environ.get("STATEFUL_EXAMPLES", "12"))
STEPS = int(os.environ.get("STATEFUL_STEPS", "30"))

PHONES = ("phone_1", "phone_2")
LOGINS = ("player_a", "player_b", "member", "organiser", "other_organiser", "admin")
ROLES = ("anonymous", *PHONES, *LOGINS)
# Those who may act, more often than those who may not: sequences then get far enough
# for the refusals to be interesting (a stale version, a game already over...).
ACTING = st.sampled_from(
    ["organiser"] * 4 + ["player_a", "player_b"] * 2 + list(PHONES) * 3 + ["admin"] + list(ROLES)
)
WRONG_PIN = "9999"
KEYS = st.sampled_from(["k1", "k2", "k3", "k4"]) | st.uuids().map(str)
OFFSETS = st.sampled_from([0] * 8 + [-1, 1, 2])
SEATS = st.sampled_from(["A", "B"])
REASONS = st.sampled_from(["", "scorer's slip", "x" * 501, "table 3\u0007"])

# Card hands the engine accepts: a knock (deadwood 2 against 63), a gin, a knock the
# defender undercuts... and ones it refuses (a card twice, nine cards, no meld at all).
LEGAL_CARDS = [
    ("AS 2S 3S 4H 4D 4C 7C 8C 9C 2D", "KH QH JD 9S 8D 6H 5S 3D 2H TC", "knock"),
    ("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", "KH QH JD 9S 8D 6H 5S 3D 2H 2D", "gin"),
    ("AS 2S 3S 4H 4D 4C 7C 8C 9C 6D", "KH KS KD 9S 8D 6H 5S 3D 2H AC", "knock"),
    ("AS 2S 3S 4H 4D 4C 7C 8C 9C 9D", "AH 2H 3H 5D 5C 5S KD KC KS AC", "knock"),
]
ILLEGAL_CARDS = [
    ("AS AS 3S 4H 4D 4C 7C 8C 9C 2D", "KH QH JD 9S 8D 6H 5S 3D 2H TC", "knock"),
    ("AS 2S 3S 4H 4D 4C 7C 8C 9C", "KH QH JD 9S 8D 6H 5S 3D 2H TC", "knock"),
    ("KH QH JD 9S 8D 6H 5S 3D 2H TC", "AS 2S 3S 4H 4D 4C 7C 8C 9C 2D", "knock"),
    ("AS 2S 3S 4H 4D 4C 7C 8C 9C 2D", "AS QH JD 9S 8D 6H 5S 3D 2H TC", "gin"),
    ("ZZ 2S 3S", "KH", "knock"),
]

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "game",
                    "number",
                    "outcome",
                    "knocker",
                    "knocker_deadwood",
                    "defender_deadwood",
                    "knocker_cards",
                    "defender_cards",
                    "knocker_melds",
                    "layoffs",
                    "upcard",
                    "version",
                    "idempotency_key",
                    "player",
                    "pin",
                    "reason",
                    "winner",
                    "games_a",
                    "points_b",
                    "minutes",
                    "hands",
                    "pairing_ids",
                    "club",
                    "player_a",
                    "player_b",
                    "profile",
                    "rules",
                    "token",
                    "zz",
                ]
            )
            | st.text(max_size=6),
            inner,
            max_size=5,
        )
    ),
    max_leaves=10,
)
RAW = st.sampled_from(
    [
        (b"{", "application/json"),
        (b"\xff\xfe", "application/json"),
        (b"[]", "application/json"),
        (b'"text"', "application/json"),
        (
            b"game=1&number=x&outcome=knock&knocker_cards=&layoffs={}",
            "application/x-www-form-urlencoded",
        ),
        (
            b'--b\r\nContent-Disposition: form-data; name="game"\r\n\r\n1\r\n--b--\r\n',
            "multipart/form-data; boundary=b",
        ),
        (b"game=1", "text/plain"),
    ]
)
# Writing routes, `{m}` a match, `{h}` a hand, `{r}` a round, `{p}` a pairing, `{g}` a
# registration, `{c}` a club, `{t}` a tournament.
WRITE_ROUTES = [
    "/api/matches/",
    "/api/matches/{m}/hands/",
    "/api/matches/{m}/preview/",
    "/api/matches/{m}/seat/",
    "/api/matches/{m}/close/",
    "/api/matches/{m}/reopen/",
    "/api/hands/{h}/confirm/",
    "/api/hands/{h}/dispute/",
    "/api/hands/{h}/withdraw/",
    "/api/hands/{h}/correct/",
    "/api/hands/{h}/correct/preview/",
    "/api/hands/{h}/void/",
    "/api/hands/{h}/void/preview/",
    "/api/clubs/{c}/players/",
    "/api/clubs/{c}/lift-network-limit/",
    "/api/rounds/{r}/swap/",
    "/api/rounds/{r}/fix/",
    "/api/rounds/{r}/publish/",
    "/api/rounds/{r}/timer/",
    "/api/rounds/{r}/call-time/",
    "/api/rounds/{r}/time-policy/",
    "/api/rounds/{r}/undo-time-call/",
    "/api/rounds/{r}/close/",
    "/api/pairings/{p}/result/",
    "/api/pairings/{p}/result/clear/",
    "/api/pairings/{p}/extend/",
    "/api/tournaments/{t}/rounds/",
    "/api/registrations/{g}/check-in/",
    "/api/registrations/{g}/withdraw/",
    "/api/registrations/{g}/seed/",
]


# (method, route with ids as {id}, status) -> how often: what the run reached.
SEEN: Counter = Counter()


PLAY = dict(
    role=st.sampled_from(["organiser", "player_a", "player_b", *PHONES]),
    m=st.integers(0, 99),
    kind=st.sampled_from(["quick", "quick", "gin", "dead", "cards"]),
    responder=st.sampled_from(["opponent"] * 3 + ["enterer", "organiser", "anyone"]),
    anyone=ACTING,
    answer=st.sampled_from(["confirm"] * 3 + ["dispute", "withdraw"]),
    then=st.sampled_from([None, None, "correct", "void", "preview"]),
    data=st.data(),
)


def pick(items: list, index: int):
    return items[index % len(items)] if items else None


class ApiMachine(RuleBasedStateMachine):
    """The world, the role clients, and what the model knows of who holds which table."""

    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        for alias in ("default", "shared"):
            caches[alias].clear()
        self.build_world()

    # ---------------------------------------------------------------------- the world

    def build_world(self) -> None:
        self.club = ClubFactory(name="Home Club")
        self.other_club = ClubFactory(name="Away Club")
        organiser = UserFactory(username="organiser")
        other_organiser = UserFactory(username="other-organiser")
        self.club.organisers.add(organiser)
        self.other_club.organisers.add(other_organiser)
        admin = UserFactory(username="admin", is_superuser=True, is_staff=True)
        users = {
            "player_a": UserFactory(username="alice"),
            "player_b": UserFactory(username="bob"),
            "member": UserFactory(username="carol"),
            "organiser": organiser,
            "other_organiser": other_organiser,
            "admin": admin,
        }
        alice = PlayerFactory(club=self.club, name="Alice", user=users["player_a"])
        bob = PlayerFactory(club=self.club, name="Bob", user=users["player_b"])
        PlayerFactory(club=self.club, name="Carol", user=users["member"])
        PlayerFactory(club=self.other_club, name="Xavier")
        PlayerFactory(club=self.other_club, name="Yvonne")
        scoring.start_match(
            club=self.club,
            player_a=alice,
            player_b=bob,
            actor=actor(organiser),
            overrides=dict(QUICK),
        )
        self.tournament = new_event(self.club, organiser, players=5, rounds=3)
        for player in Player.objects.filter(club=self.club, pin_hash=""):
            player.set_pin(PIN)
            player.save(update_fields=["pin_hash"])
        rnd = tournaments.draft_round(tournament_id=self.tournament.pk, actor=actor(organiser))
        tournaments.publish_round(round_id=rnd.pk, actor=actor(organiser))

        self.clients: dict[str, APIClient] = {}
        self.player_of: dict[str, int | None] = {}
        for role in ROLES:
            client = APIClient(REMOTE_ADDR="127.0.0.1", HTTP_USER_AGENT=f"stateful-{role}")
            if role in users:
                client.force_authenticate(users[role])
                player = Player.objects.filter(user=users[role]).first()
                self.player_of[role] = player.pk if player else None
            else:
                self.player_of[role] = None
            self.clients[role] = client
        self.organises = {
            "organiser": {self.club.pk},
            "other_organiser": {self.other_club.pk},
        }
        self.links: dict[str, set[int]] = {role: set() for role in ROLES}
        self.seats: dict[str, dict[int, int]] = {role: {} for role in ROLES}
        # Hand writes that carried an idempotency key: (path, body), to replay.
        self.sent: list[tuple[str, dict]] = []

    def teardown(self):
        try:
            # raises CommandError on a break
            call_command("verify_ledger", stdout=io.StringIO(), stderr=io.StringIO())
        finally:
            transaction.set_rollback(True)
            self._atomic.__exit__(None, None, None)

    # ------------------------------------------------------------------- the oracle

    def may_organise(self, role: str, club_id: int) -> bool:
        return role == "admin" or club_id in self.organises.get(role, set())

    def acts_for_player(self, role: str, match: Match, body: dict) -> bool:
        """Whether ginclub.permissions lets `role` act for one of the match's players."""
        players = {match.player_a_id, match.player_b_id}
        if self.player_of[role] in players:
            return True
        holds = match.pk in self.links[role]
        if holds and self.seats[role].get(match.pk) in players:
            return True
        return (
            (holds or self.player_of[role] in players)
            and body.get("player") in players
            and body.get("pin") == PIN
        )

    # --------------------------------------------------------------------- requests

    def call(self, role: str, method: str, path: str, body=None, *, raw=None):
        client = self.clients[role]
        if raw is not None:
            response = client.generic(method.upper(), path, raw[0], content_type=raw[1])
        elif method == "get":
            response = client.get(path)
        else:
            response = getattr(client, method)(path, body, format="json")
        status = response.status_code
        if status < 300 and isinstance(body, dict) and "idempotency_key" in body:
            self.sent.append((path, dict(body)))
        SEEN[(method.upper(), re.sub(r"/(\d+|t/[^/]+)/", "/{id}/", path), status)] += 1
        where = f"{method.upper()} {path} as {role} with {body!r}"
        assert status < 500, f"{where} answered {status}: {response.content[:500]!r}"
        if status >= 400 and path.startswith("/api/"):
            assert response["Content-Type"].startswith("application/json"), where
            error = response.json().get("error")
            assert isinstance(error, dict), f"{where}: {response.content[:300]!r}"
            assert isinstance(error.get("code"), str) and error["code"], where
            message = error.get("message")
            assert isinstance(message, str) and message.strip(), where
            assert message != error["code"] and "Traceback" not in message, where
            if os.environ.get("STATEFUL_DEBUG"):
                print(where, status, error["code"], message)
        return response

    def preview_or_send(self, role: str, path: str, body: dict, key: str, preview: bool):
        """A correction or a void: previewed (no key) or sent with its idempotency key."""
        if preview:
            return self.call(role, "post", path + "preview/", body)
        return self.call(role, "post", path, {**body, "idempotency_key": key})

    def match_ids(self) -> list[int]:
        return list(Match.objects.order_by("pk").values_list("pk", flat=True))

    def a_match(self, role: str, index: int, stray: bool) -> Match:
        """Mostly a match `role` may act at (its own, one whose link it holds, its
        club's; a phone first opens the link of a match when it holds none); a stray one
        of any club when asked."""
        matches = Match.objects.order_by("pk")
        if role in PHONES and not stray and not self.links[role]:
            self.open_link(role, index)
        if not stray:
            player = self.player_of[role]
            mine = (
                matches.filter(club__in=self.organises.get(role, set()))
                | matches.filter(pk__in=self.links[role])
                | matches.filter(player_a=player)
                | matches.filter(player_b=player)
            )
            if role == "admin" or mine.exists():
                matches = matches if role == "admin" else mine
        return pick(list(matches), index)

    def hand_ids(self) -> list[int]:
        return list(Hand.objects.order_by("pk").values_list("pk", flat=True))

    def next_hand(self, match: Match) -> tuple[int, int]:
        game = entry_game(match) or match.games.order_by("-number").first()
        numbers = Hand.objects.filter(game=game).values_list("number", flat=True)
        return game.number, max(numbers, default=0) + 1

    def hand_body(self, kind: str, data) -> dict:
        knocker = data.draw(SEATS)
        if kind == "quick":
            return {
                "outcome": "knock",
                "knocker": knocker,
                "knocker_deadwood": data.draw(st.integers(0, 10)),
                "defender_deadwood": data.draw(st.integers(0, 60)),
            }
        if kind == "gin":
            return {
                "outcome": data.draw(st.sampled_from(["gin", "big_gin"])),
                "knocker": knocker,
                "defender_deadwood": data.draw(st.integers(0, 60)),
            }
        if kind == "dead":
            return {"outcome": "dead"}
        if kind == "bad_quick":
            return data.draw(
                st.sampled_from(
                    [
                        {"outcome": "knock", "knocker": knocker, "knocker_deadwood": 15},
                        {"outcome": "knock", "knocker": "C", "defender_deadwood": 3},
                        {"outcome": "knock", "knocker": knocker, "knocker_deadwood": -4},
                        {"outcome": "undercut", "knocker": knocker},
                        {"outcome": "gin", "knocker": knocker, "knocker_deadwood": 7},
                        {"outcome": "knock"},
                        {
                            "outcome": "knock",
                            "knocker": knocker,
                            "knocker_deadwood": 9,
                            "defender_deadwood": 40000,
                        },
                    ]
                )
            )
        knocker_cards, defender_cards, outcome = data.draw(
            st.sampled_from(LEGAL_CARDS if kind == "cards" else ILLEGAL_CARDS)
        )
        body = {
            "outcome": outcome,
            "knocker": knocker,
            "knocker_cards": knocker_cards.split(),
            "defender_cards": defender_cards.split(),
        }
        if data.draw(st.booleans()):
            body["layoffs"] = data.draw(st.sampled_from([[], ["TC"], ["AH"], None]))
        return body

    # ------------------------------------------------------------------------ rules

    @rule(
        role=st.sampled_from(["member", "player_a", "player_b", *ROLES]),
        a=st.integers(0, 99),
        b=st.integers(0, 99),
        profile=st.sampled_from(["standard", "hollywood", "oklahoma", "nonsense"]),
        rules=st.sampled_from([{}, dict(QUICK), {"game_target": -5}, {"games_to_win": "x"}]),
        club=st.sampled_from(["home"] * 3 + ["away", "none"]),
    )
    def start_match(self, role, a, b, profile, rules, club):
        players = list(Player.objects.order_by("pk"))
        player_a, player_b = pick(players, a), pick(players, b)
        slug = {"home": self.club.slug, "away": self.other_club.slug, "none": "no-such"}[club]
        body = {
            "club": slug,
            "player_a": player_a.pk,
            "player_b": player_b.pk,
            "profile": profile,
            "rules": rules,
        }
        response = self.call(role, "post", "/api/matches/", body)
        if response.status_code == 201:
            target = Club.objects.get(slug=slug)
            own = self.player_of[role]
            assert self.may_organise(role, target.pk) or own in (player_a.pk, player_b.pk), (
                f"{role} started {body}"
            )
            assert player_a.club_id == player_b.club_id == target.pk, body

    @rule(role=st.sampled_from(PHONES), m=st.integers(0, 99))
    def open_link(self, role, m):
        """A phone opens a table link: the QR code on the table."""
        match = Match.objects.get(pk=pick(self.match_ids(), m))
        response = self.call(role, "get", f"/t/{table_token(match)}/")
        if response.status_code < 400:
            self.links[role].add(match.pk)

    @rule(
        role=ACTING,
        m=st.integers(0, 99),
        seat=SEATS,
        right=st.sampled_from([True, True, True, False]),
        stranger=st.sampled_from([False] * 5 + [True]),
        stray=st.sampled_from([False] * 4 + [True]),
    )
    def sit_down(self, role, m, seat, right, stranger, stray):
        match = self.a_match(role, m, stray)
        player = match.player_a_id if seat == "A" else match.player_b_id
        if stranger:
            player = (
                Player.objects.exclude(pk__in=[match.player_a_id, match.player_b_id]).first().pk
            )
        body = {"player": player, "pin": PIN if right else WRONG_PIN}
        response = self.call(role, "post", f"/api/matches/{match.pk}/seat/", body)
        if response.status_code == 200:
            assert right and not stranger, f"{role} sat down with {body}"
            viewer = match.pk in self.links[role] or self.player_of[role] in (
                match.player_a_id,
                match.player_b_id,
            )
            assert viewer or self.may_organise(role, match.club_id), f"{role} sat at {match.pk}"
            self.seats[role][match.pk] = player

    @rule(
        role=ACTING,
        m=st.integers(0, 99),
        kind=st.sampled_from(["quick", "quick", "gin", "dead", "cards", "bad_quick", "bad_cards"]),
        game_offset=OFFSETS,
        number_offset=OFFSETS,
        key=KEYS,
        for_player=st.sampled_from([None, None, "A", "B"]),
        right=st.booleans(),
        stray=st.sampled_from([False] * 4 + [True]),
        data=st.data(),
    )
    def submit_hand(
        self, role, m, kind, game_offset, number_offset, key, for_player, right, stray, data
    ):
        match = self.a_match(role, m, stray)
        game, number = self.next_hand(match)
        body = {
            "game": max(1, game + game_offset),
            "number": max(1, number + number_offset),
            **self.hand_body(kind, data),
            "idempotency_key": key,
        }
        if for_player:
            body["player"] = match.player_a_id if for_player == "A" else match.player_b_id
            body["pin"] = PIN if right else WRONG_PIN
        response = self.call(role, "post", f"/api/matches/{match.pk}/hands/", body)
        if response.status_code in (200, 201):
            assert self.may_organise(role, match.club_id) or self.acts_for_player(
                role, match, body
            ), f"{role} entered {body} at match {match.pk}"

    @rule(**PLAY)
    def play_a_hand(self, role, m, kind, responder, anyone, answer, then, data):
        """The game going on: the next hand, entered by someone who may, then answered:
        mostly by the opponent typing their PIN on the same phone; then perhaps the
        organiser corrects or voids it."""
        before = len(self.hand_ids())
        self.submit_hand(role, m, kind, 0, 0, str(data.draw(st.uuids())), None, True, False, data)
        if len(self.hand_ids()) == before:
            return
        hand = Hand.objects.get(pk=self.hand_ids()[before])
        entered = hand.entries.filter(kind=Entry.Kind.SUBMIT).first()
        seat = entered.seat if entered else ""
        key = str(data.draw(st.uuids()))
        if responder == "opponent" and seat:
            by = {"A": "B", "B": "A"}[seat]
            self.hand_action(role, before, answer, 0, key, by, "")
        else:
            who = {"enterer": role, "organiser": "organiser"}.get(responder, anyone)
            self.hand_action(who, before, answer, 0, key, None, "")
        key = str(data.draw(st.uuids()))
        if then == "void":
            self.void("organiser", before, 0, key, "scorer's slip", False)
        elif then:
            fixed = data.draw(st.sampled_from(["quick", "gin", "dead", "cards"]))
            self.correct(
                "organiser", before, fixed, 0, key, "scorer's slip", then == "preview", data
            )

    # Hands are most of what a club night writes: two more ways to the same rule, so the
    # sequences Hypothesis draws (it leaves out some rules in each) play more of them.
    play_another_hand = rule(**PLAY)(lambda self, **kw: self.play_a_hand(**kw))
    play_a_third_hand = rule(**PLAY)(lambda self, **kw: self.play_a_hand(**kw))

    @rule(
        role=ACTING,
        h=st.integers(0, 999),
        action=st.sampled_from(["confirm", "confirm", "dispute", "withdraw"]),
        version_offset=OFFSETS,
        key=KEYS,
        for_player=st.sampled_from([None, None, "A", "B"]),
        reason=REASONS,
    )
    @precondition(lambda self: Hand.objects.exists())
    def hand_action(self, role, h, action, version_offset, key, for_player, reason):
        hand = Hand.objects.select_related("game__match").get(pk=pick(self.hand_ids(), h))
        match = hand.game.match
        body = {"version": max(1, hand.version + version_offset), "idempotency_key": key}
        if action == "dispute" and reason:
            body["reason"] = reason
        if for_player:
            body["player"] = match.player_a_id if for_player == "A" else match.player_b_id
            body["pin"] = PIN
        response = self.call(role, "post", f"/api/hands/{hand.pk}/{action}/", body)
        if response.status_code == 200:
            assert self.may_organise(role, match.club_id) or self.acts_for_player(
                role, match, body
            ), f"{role} did {action} {body} on hand {hand.pk}"

    @rule(
        role=ACTING,
        h=st.integers(0, 999),
        kind=st.sampled_from(["quick", "gin", "dead", "cards", "bad_quick", "bad_cards"]),
        version_offset=OFFSETS,
        key=KEYS,
        reason=REASONS,
        preview=st.booleans(),
        data=st.data(),
    )
    @precondition(lambda self: Hand.objects.exists())
    def correct(self, role, h, kind, version_offset, key, reason, preview, data):
        hand = Hand.objects.select_related("game__match").get(pk=pick(self.hand_ids(), h))
        match = hand.game.match
        body = {
            "game": hand.game.number,
            "number": hand.number,
            **self.hand_body(kind, data),
            "version": max(1, hand.version + version_offset),
            "reason": reason,
        }
        response = self.preview_or_send(role, f"/api/hands/{hand.pk}/correct/", body, key, preview)
        if response.status_code == 200:
            assert self.may_organise(role, match.club_id), f"{role} corrected hand {hand.pk}"

    @rule(
        role=ACTING,
        h=st.integers(0, 999),
        version_offset=OFFSETS,
        key=KEYS,
        reason=REASONS,
        preview=st.booleans(),
    )
    @precondition(lambda self: Hand.objects.exists())
    def void(self, role, h, version_offset, key, reason, preview):
        hand = Hand.objects.select_related("game__match").get(pk=pick(self.hand_ids(), h))
        body = {"version": max(1, hand.version + version_offset), "reason": reason}
        response = self.preview_or_send(role, f"/api/hands/{hand.pk}/void/", body, key, preview)
        if response.status_code == 200:
            assert self.may_organise(role, hand.game.match.club_id), f"{role} voided {hand.pk}"

    @rule(
        role=ACTING,
        m=st.integers(0, 99),
        action=st.sampled_from(["close", "reopen"]),
        reason=REASONS,
        stray=st.booleans(),
    )
    def close_or_reopen(self, role, m, action, reason, stray):
        match = self.a_match(role, m, stray)
        response = self.call(role, "post", f"/api/matches/{match.pk}/{action}/", {"reason": reason})
        if response.status_code == 200:
            assert self.may_organise(role, match.club_id), f"{role} did {action} {match.pk}"

    @rule(
        role=ACTING,
        p=st.integers(0, 99),
        winner=SEATS,
        reason=REASONS,
        games=st.sampled_from([(None, None), (2, 0), (1, 1), (0, 2), (7, 0)]),
        points=st.sampled_from([(None, None), (310, 0), (0, -5), (2**31, 0)]),
        clear=st.booleans(),
    )
    def decide_table(self, role, p, winner, reason, games, points, clear):
        pairings = list(Pairing.objects.order_by("pk").values_list("pk", flat=True))
        pairing = Pairing.objects.select_related("round__tournament").get(pk=pick(pairings, p))
        if clear:
            response = self.call(
                role, "post", f"/api/pairings/{pairing.pk}/result/clear/", {"reason": reason}
            )
        else:
            body = {
                "winner": winner,
                "reason": reason,
                "games_a": games[0],
                "games_b": games[1],
                "points_a": points[0],
                "points_b": points[1],
            }
            response = self.call(role, "post", f"/api/pairings/{pairing.pk}/result/", body)
        if response.status_code == 200:
            club_id = pairing.round.tournament.club_id
            assert self.may_organise(role, club_id), f"{role} decided pairing {pairing.pk}"

    @rule(
        role=ACTING,
        r=st.integers(0, 99),
        action=st.sampled_from(
            [
                "timer",
                "call-time",
                "time-policy",
                "undo-time-call",
                "close",
                "publish",
                "extend",
                "draft",
                "discard",
            ]
        ),
        minutes=st.sampled_from([None, 0, 1, 30, 10**6]),
        reason=REASONS,
    )
    def round_action(self, role, r, action, minutes, reason):
        rounds = list(Round.objects.order_by("pk").values_list("pk", flat=True))
        rnd = Round.objects.select_related("tournament").get(pk=pick(rounds, r))
        if action == "draft":
            path, body = f"/api/tournaments/{rnd.tournament.slug}/rounds/", None
        elif action == "discard":
            response = self.call(role, "delete", f"/api/rounds/{rnd.pk}/")
            if response.status_code == 204:
                assert self.may_organise(role, rnd.tournament.club_id), f"{role} discarded"
            return
        elif action == "extend":
            pairing = rnd.pairings.order_by("pk").first()
            path = f"/api/pairings/{pairing.pk}/extend/"
            body = {"minutes": minutes, "reason": reason}
        else:
            path = f"/api/rounds/{rnd.pk}/{action}/"
            body = {
                "timer": {"minutes": minutes},
                "undo-time-call": {"reason": reason},
            }.get(action, {})
        response = self.call(role, "post", path, body)
        if response.status_code < 300:
            assert self.may_organise(role, rnd.tournament.club_id), f"{role} did {action}"

    @rule(
        role=st.sampled_from(["organiser", "admin"]),
        minutes=st.sampled_from([None, 1, 30]),
        undo=st.sampled_from([False, False, True]),
    )
    @precondition(lambda self: Round.objects.filter(state=Round.State.PUBLISHED).exists())
    def time_runs_out(self, role, minutes, undo):
        """The latest published round's clock: started, time called, the time policy
        applied to its tables (or the call undone)."""
        rnd = Round.objects.filter(state=Round.State.PUBLISHED).order_by("-pk").first()
        self.call(role, "post", f"/api/rounds/{rnd.pk}/timer/", {"minutes": minutes})
        self.call(role, "post", f"/api/rounds/{rnd.pk}/call-time/", {})
        if undo:
            body = {"reason": "called too early"}
            self.call(role, "post", f"/api/rounds/{rnd.pk}/undo-time-call/", body)
        else:
            self.call(role, "post", f"/api/rounds/{rnd.pk}/time-policy/", {})

    @rule(role=st.sampled_from(["organiser", "admin"]), winner=SEATS)
    @precondition(lambda self: Tournament.objects.exclude(state=Tournament.State.FINISHED).exists())
    def next_round(self, role, winner):
        """The organiser decides every open table of the latest round, closes it, drafts
        the next and publishes it (each step may be refused: the last round, say)."""
        rnd = Round.objects.select_related("tournament").order_by("-pk").first()
        for pairing in rnd.pairings.exclude(match=None).select_related("match"):
            if not pairing.match.decided:
                body = {"winner": winner, "reason": "decided at the table"}
                self.call(role, "post", f"/api/pairings/{pairing.pk}/result/", body)
        self.call(role, "post", f"/api/rounds/{rnd.pk}/close/", {})
        response = self.call(role, "post", f"/api/tournaments/{rnd.tournament.slug}/rounds/")
        if response.status_code == 201:
            drafted = response.json()["id"]
            self.call(role, "post", f"/api/rounds/{drafted}/publish/", {})

    @rule(role=st.sampled_from(ROLES), index=st.integers(0, 999), same_body=st.booleans())
    @precondition(lambda self: self.sent)
    def replay(self, role, index, same_body):
        """Someone sends a key that was used before: with its body (the replay answers
        the first response again, but only to whoever made the entry) or another."""
        path, body = pick(self.sent, index)
        if not same_body:
            body = (
                {**body, "reason": "another body"} if "version" in body else {**body, "number": 99}
            )
        response = self.call(role, "post", path, body)
        if response.status_code < 300:
            if path.startswith("/api/matches/"):
                match = Match.objects.get(pk=int(path.split("/")[3]))
            else:
                match = Hand.objects.get(pk=int(path.split("/")[3])).game.match
            organiser_only = "/correct/" in path or "/void/" in path
            assert self.may_organise(role, match.club_id) or (
                not organiser_only and self.acts_for_player(role, match, body)
            ), f"{role} replayed {path} {body}"

    @rule(
        role=ACTING,
        route=st.sampled_from(WRITE_ROUTES),
        method=st.sampled_from(["post", "post", "post", "patch", "put", "delete"]),
        ids=st.integers(0, 999),
        junk_id=st.booleans(),
        body=JSON,
        raw=st.none() | RAW,
    )
    def junk(self, role, route, method, ids, junk_id, body, raw):
        def one(model):
            values = list(model.objects.order_by("pk").values_list("pk", flat=True))
            return 2147483647 if junk_id or not values else pick(values, ids)

        path = route.format(
            m=one(Match) if "{m}" in route else "",
            h=one(Hand) if "{h}" in route else "",
            r=one(Round) if "{r}" in route else "",
            p=one(Pairing) if "{p}" in route else "",
            g=one(Registration) if "{g}" in route else "",
            c=self.club.slug,
            t=Tournament.objects.first().slug,
        )
        self.call(role, method, path, body, raw=raw)

    # ------------------------------------------------------------------- invariants

    @invariant()
    def ledger_verifies(self):
        breaks = ledger.verify()
        assert not breaks, [str(b) for b in breaks]

    @invariant()
    def totals_agree_with_the_hands(self):
        """A game's hand points are its confirmed hands' points, seat by seat (voided,
        pending and disputed hands count for nothing); an unfinished game's totals are
        its hand points; a match the hands decide has won the games its finished games
        say."""
        for match in Match.objects.prefetch_related("games__hands"):
            if is_hollywood(match):
                continue
            won = {"A": 0, "B": 0}
            for game in match.games.all():
                confirmed = [h for h in game.hands.all() if h.state == Hand.State.CONFIRMED]
                for seat in ("A", "B"):
                    points = sum(h.points for h in confirmed if h.winner == seat)
                    stored = game.hand_points_a if seat == "A" else game.hand_points_b
                    assert stored == points, (match.pk, game.number, seat, stored, points)
                if game.state == Game.State.IN_PROGRESS:
                    assert (game.total_a, game.total_b) == (game.hand_points_a, game.hand_points_b)
                elif game.winner:
                    won[game.winner] += 1
            if not match.overruled:
                assert (match.games_won_a, match.games_won_b) == (won["A"], won["B"]), match.pk


@pytest.mark.django_db
def test_any_sequence_of_calls_keeps_the_ledger_and_answers_no_5xx(db):
    SEEN.clear()
    run_state_machine_as_test(
        ApiMachine,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=not os.environ.get("STATEFUL_RANDOM"),
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    if os.environ.get("STATEFUL_DEBUG"):
        for key, count in sorted(SEEN.items()):
            print(*key, count)
    # Not a walk of refusals only: hands were entered and answered, seats taken.
    reached = {(route, status) for _method, route, status in SEEN}
    for success in [
        ("/api/matches/{id}/hands/", 201),
        ("/api/matches/{id}/seat/", 200),
        ("/api/hands/{id}/confirm/", 200),
    ]:
        assert success in reached, success
