"""Club ratings (scoring.services.ratings): openskill's Plackett-Luce over every finished
match in order, rebuilt in the background when a rated result moves; the rated list and
the rating change on each match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

from scoring import serializers as ss
from scoring import stats
from scoring.models import Rating, RatingChange
from scoring.services import Actor
from scoring.services.ratings import (
    RatedMatch,
    rate,
    recompute_club_ratings,
    recompute_ratings,
)
from tests.factories import PlayerFactory, UserFactory
from tests.scoring.helpers import play_hand, quick, start
from tests.test_api_outputs import assert_shape

pytestmark = pytest.mark.django_db

SHORT = {"game_target": 50}


def test_two_fresh_players_move_apart_by_the_same_amount():
    # Both start at mu 25, sigma 25/3: ordinal 25 - 3 x 25/3 = 0. The model is symmetric,
    # so the winner gains exactly what the loser loses in mu, and both sigmas shrink alike.
    rated = rate([RatedMatch(1, winner=10, loser=20)])
    (mu_w, sigma_w, n_w), (mu_l, sigma_l, n_l) = rated.ratings[10], rated.ratings[20]
    assert mu_w > 25 > mu_l and mu_w - 25 == pytest.approx(25 - mu_l)
    assert sigma_w == pytest.approx(sigma_l) and sigma_w < 25 / 3
    assert (n_w, n_l) == (1, 1)
    (_, p1, before1, after1), (_, p2, before2, after2) = rated.changes
    assert (p1, p2) == (10, 20)
    assert before1 == pytest.approx(0) and before2 == pytest.approx(0)
    assert after1 == pytest.approx(mu_w - 3 * sigma_w) and after2 < 0


def test_a_sequence_is_rated_in_order_as_openskill_rates_it():
    """A beats B, B beats C, A beats C: the same as calling openskill by hand."""
    matches = [RatedMatch(1, 1, 2), RatedMatch(2, 2, 3), RatedMatch(3, 1, 3)]
    model = PlackettLuce()
    r = {p: model.rating() for p in (1, 2, 3)}
    for m in matches:
        [[r[m.winner]], [r[m.loser]]] = model.rate([[r[m.winner]], [r[m.loser]]])
    rated = rate(matches)
    for player in (1, 2, 3):
        mu, sigma, _n = rated.ratings[player]
        assert (mu, sigma) == pytest.approx((r[player].mu, r[player].sigma))
    assert rated.ratings[1][2] == 2 and rated.ratings[2][2] == 2
    # B's second match starts from where the first left B.
    assert rated.changes[2][2] == pytest.approx(rated.changes[1][3])


@pytest.fixture
def carol(club):
    return PlayerFactory(club=club, name="Carol", user=UserFactory(username="carol"))


def finished(club, organiser, winner, loser, first_is_winner=True):
    a, b = (winner, loser) if first_is_winner else (loser, winner)
    match = start(club, a, b, organiser, overrides=SHORT)
    seat = "A" if first_is_winner else "B"
    play_hand(match, winner, loser, quick(1, knocker=seat, kd=0, dd=60, outcome="gin"))
    match.refresh_from_db()
    assert match.state == "finished" and match.winner == seat
    return match


def test_a_finished_match_queues_the_clubs_ratings(
    club, organiser, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match = finished(club, organiser, alice, bob)
    assert callbacks  # the task was queued on commit (the test backend runs it at once)
    assert Rating.objects.get(player=alice).ordinal > Rating.objects.get(player=bob).ordinal
    changes = {c.player_id: c.change for c in RatingChange.objects.filter(match=match)}
    assert changes[alice.pk] > 0 > changes[bob.pk]


def test_recompute_rebuilds_from_every_finished_match_in_order(club, organiser, alice, bob, carol):
    m1 = finished(club, organiser, alice, bob)
    m2 = finished(club, organiser, bob, carol, first_is_winner=False)
    start(club, alice, carol, organiser)  # in play: not rated
    assert recompute_ratings(club_id=club.pk) == 2
    expected = rate([RatedMatch(m1.pk, alice.pk, bob.pk), RatedMatch(m2.pk, bob.pk, carol.pk)])
    for player in (alice, bob, carol):
        rating = Rating.objects.get(player=player)
        mu, sigma, n = expected.ratings[player.pk]
        assert (rating.mu, rating.sigma, rating.matches) == pytest.approx((mu, sigma, n))
        assert rating.ordinal == pytest.approx(mu - 3 * sigma)
    assert RatingChange.objects.count() == 4
    assert recompute_ratings(club_id=club.pk) == 2  # again: the same, not doubled
    assert RatingChange.objects.count() == 4 and Rating.objects.count() == 3


def test_a_task_queued_before_the_last_recompute_does_nothing(club, organiser, alice, bob):
    finished(club, organiser, alice, bob)
    recompute_ratings(club_id=club.pk)
    earlier = (timezone.now() - timedelta(minutes=1)).isoformat()
    assert recompute_club_ratings.call(club.pk, earlier) == 0
    later = (timezone.now() + timedelta(minutes=1)).isoformat()
    assert recompute_club_ratings.call(club.pk, later) == 1


def test_the_rated_list_page_and_api(client, club, organiser, alice, bob, carol):
    finished(club, organiser, alice, bob)
    finished(club, organiser, alice, carol)
    recompute_ratings(club_id=club.pk)
    client.force_login(bob.user)
    html = client.get(reverse("scoring:ratings", args=[club.slug])).content.decode()
    assert html.index("Alice") < html.index("Bob") and "Carol" in html
    computed = Rating.objects.get(player=alice).computed_at
    shown = date_format(timezone.localtime(computed), "SHORT_DATETIME_FORMAT")
    assert f"Last computed {shown}." in html  # the list said "Last computed ." once
    api = APIClient()
    api.force_authenticate(bob.user)
    data = api.get(reverse("api-club-ratings", args=[club.slug])).json()
    assert_shape(data, ss.RatedPlayerOutputSerializer(many=True))
    # Alice won twice. Bob lost to a fresh Alice; Carol lost later to an Alice the model
    # already rated higher and surer of, so losing to her costs Carol less than Bob.
    assert [(row["rank"], row["player"]["name"]) for row in data] == [
        (1, "Alice"),
        (2, "Carol"),
        (3, "Bob"),
    ]
    client.logout()
    assert client.get(reverse("scoring:ratings", args=[club.slug])).status_code == 404
    assert APIClient().get(reverse("api-club-ratings", args=[club.slug])).status_code == 404


def test_the_player_page_shows_the_rating_and_each_matchs_change(
    client, club, organiser, alice, bob
):
    match = finished(club, organiser, alice, bob)
    recompute_ratings(club_id=club.pk)
    change = RatingChange.objects.get(match=match, player=alice).change
    record = stats.player_record(alice, Actor(user=organiser))
    assert record.rating.matches == 1
    assert record.matches[0].rating_change == round(change, 2)
    client.force_login(alice.user)
    html = client.get(reverse("scoring:player", args=[alice.pk])).content.decode()
    assert f"+{change:.1f}" in html and "Club rating" in html


def test_a_corrected_result_re_rates_the_club(
    club, organiser, alice, bob, django_capture_on_commit_callbacks
):
    from scoring import services

    with django_capture_on_commit_callbacks(execute=True):
        match = finished(club, organiser, alice, bob)
    assert Rating.objects.get(player=alice).ordinal > 0
    hand = match.games.get().hands.get()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        # The organiser finds Bob went gin, not Alice: the match now goes to Bob.
        services.correct_hand(
            hand_id=hand.pk,
            actor=Actor(user=organiser),
            hand_input=quick(1, knocker="B", kd=0, dd=60, outcome="gin"),
            version=hand.version,
            reason="wrong player entered",
            idempotency_key="fix-1",
        )
    assert callbacks
    match.refresh_from_db()
    assert match.winner == "B"
    assert Rating.objects.get(player=bob).ordinal > 0 > Rating.objects.get(player=alice).ordinal
    changes = {c.player_id: c.change for c in RatingChange.objects.filter(match=match)}
    assert changes[bob.pk] > 0 > changes[alice.pk]


def test_a_hand_that_moves_no_rated_result_queues_nothing(
    club, organiser, alice, bob, django_capture_on_commit_callbacks
):
    match = start(club, alice, bob, organiser, overrides=SHORT)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play_hand(match, alice, bob, quick(1, knocker="A", kd=5, dd=20))  # 15 of 50: in play
    assert not [c for c in callbacks if "enqueue" in getattr(c, "__qualname__", "")]
    assert not Rating.objects.exists()
