"""Round 1 of a Swiss by club rating, and seeding by club rating (issue 12).

The ratings are written by hand (Rating rows, as scoring.services.ratings would leave
them), so each case is worked out in its comment. Five players registered in the order
Ada, Ben, Cleo, Dev, Eve; Cleo rated 10.0, Ada 4.0, Eve 4.004 (4.00 to two decimals,
equal to Ada's: the seed order keeps Ada, registered first, ahead); Ben and Dev unrated.
Rating order: Cleo, Ada, Eve, then Ben, Dev (registration order).
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from ginclub.errors import Conflict, Forbidden, ServiceError
from scoring.models import LedgerRow, Rating
from tests.factories import UserFactory
from tests.tournaments.helpers import actor, new_event, pairs_of, reg
from tournaments import services

pytestmark = pytest.mark.django_db
NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eve"]


def rate(tournament, **ordinals: float) -> None:
    for name, ordinal in ordinals.items():
        player = reg(tournament, name).player
        Rating.objects.create(
            player=player, mu=ordinal + 25, sigma=25 / 3, ordinal=ordinal, matches=3,
            computed_at=timezone.now(),
        )  # fmt: skip


@pytest.fixture
def event(club, organiser):
    tournament = new_event(club, organiser, players=NAMES, first_round="rating")
    rate(tournament, Cleo=10.0, Ada=4.0, Eve=4.004)
    return tournament


def seeds(tournament) -> list[tuple[str, int | None]]:
    rows = tournament.registrations.order_by("seed", "pk").values_list("player__name", "seed")
    return list(rows)


def test_round_one_by_rating_pairs_the_halves_of_the_rating_order(event, organiser):
    # Rating order Cleo, Ada, Eve, Ben, Dev: five, so Dev (last) has the bye; the four
    # others in halves [Cleo, Ada] v [Eve, Ben]: Cleo v Eve, Ada v Ben.
    first = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    assert pairs_of(first) == [("Cleo", "Eve"), ("Ada", "Ben"), ("Dev", None)]
    reasons = list(first.pairings.order_by("position").values_list("reason", flat=True))
    assert reasons == [
        "round 1 by club rating: 1 (rated 10.00) v 3 (rated 4.00)",
        "round 1 by club rating: 2 (rated 4.00) v 4 (unrated)",
        "bye: last by club rating, 5 (unrated)",
    ]
    row = LedgerRow.objects.get(action="round_drafted")
    assert [(e["player"], e["rating"]) for e in row.after["rating_order"]] == [
        ("Cleo", 10.0), ("Ada", 4.0), ("Eve", 4.004), ("Ben", None), ("Dev", None),
    ]  # fmt: skip
    assert "draw" not in row.after


def test_round_one_by_rating_with_nobody_rated_is_the_seed_order_by_halves(club, organiser):
    # Nobody rated: everyone is "unrated" in seed order, so the pairs are by seed's.
    tournament = new_event(club, organiser, players=NAMES, first_round="rating")
    first = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    assert pairs_of(first) == [("Ada", "Cleo"), ("Ben", "Dev"), ("Eve", None)]


def test_seeding_by_rating_puts_the_rated_first_then_the_unrated_in_their_seed_order(
    event, organiser
):
    # Dev already has seed 1 and Ben none: among the unrated Dev (seeded) comes before
    # Ben. New seeds: Cleo 1, Ada 2, Eve 3, Dev 4, Ben 5.
    services.set_seed(registration_id=reg(event, "Dev").pk, actor=actor(organiser), seed=1)
    seeded = services.seed_by_rating(tournament_id=event.pk, actor=actor(organiser))
    assert [(r.player.name, r.seed, rating) for r, rating in seeded] == [
        ("Cleo", 1, 10.0), ("Ada", 2, 4.0), ("Eve", 3, 4.004), ("Dev", 4, None), ("Ben", 5, None),
    ]  # fmt: skip
    assert seeds(event) == [("Cleo", 1), ("Ada", 2), ("Eve", 3), ("Dev", 4), ("Ben", 5)]
    row = LedgerRow.objects.get(action="seeded_by_rating")
    assert row.before["seeds"][0] == {"player": "Dev", "seed": 1}
    assert row.after["seeds"][3] == {"player": "Dev", "seed": 4, "rating": None}


def test_seeding_by_rating_refuses_when_nobody_has_a_rating(club, organiser):
    tournament = new_event(club, organiser, players=NAMES, first_round="rating")
    with pytest.raises(ServiceError) as error:
        services.seed_by_rating(tournament_id=tournament.pk, actor=actor(organiser))
    assert error.value.code == "no_ratings"
    assert error.value.message.startswith(
        "Nobody registered in Club Open has a club rating yet (Ada, Ben, Cleo, Dev, Eve): "
        "ratings come from finished matches of Gin Club."
    )
    assert all(seed is None for _, seed in seeds(tournament))
    assert not LedgerRow.objects.filter(action="seeded_by_rating").exists()


def test_only_the_clubs_organisers_seed_by_rating_and_only_before_round_one(
    event, organiser, other_organiser
):
    for stranger in (other_organiser, UserFactory()):
        with pytest.raises(Forbidden):
            services.seed_by_rating(tournament_id=event.pk, actor=actor(stranger))
    first = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=first.pk, actor=actor(organiser))
    with pytest.raises(Conflict) as error:
        services.seed_by_rating(tournament_id=event.pk, actor=actor(organiser))
    assert error.value.code == "seeding_closed"
    assert all(seed is None for _, seed in seeds(event))


def test_the_players_page_seeds_by_rating_and_says_so(client, event, organiser):
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/players/").content.decode()
    assert 'data-testid="seed-by-rating"' in page
    response = client.post(f"/tournaments/{event.slug}/manage/players/seed-by-rating/")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Seeded by club rating: 3 rated players first, then 2 unrated" in page
    assert seeds(event)[0] == ("Cleo", 1)


def test_the_api_seeds_by_rating_and_refuses_with_the_reason(
    client, club, event, organiser, other_organiser
):
    client.force_login(other_organiser)
    refused = client.post(f"/api/tournaments/{event.slug}/seed-by-rating/")
    assert refused.status_code in (403, 404)
    client.force_login(organiser)
    answer = client.post(f"/api/tournaments/{event.slug}/seed-by-rating/")
    assert answer.status_code == 200
    assert [(r["name"], r["seed"], r["rating"]) for r in answer.json()] == [
        ("Cleo", 1, 10.0), ("Ada", 2, 4.0), ("Eve", 3, 4.004), ("Ben", 4, None), ("Dev", 5, None),
    ]  # fmt: skip
    unrated = new_event(club, organiser, players=["Gus", "Hana"], name="Second Open")
    refused = client.post(f"/api/tournaments/{unrated.slug}/seed-by-rating/")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "no_ratings"


def test_the_settings_page_and_api_offer_round_one_by_rating(client, event, organiser):
    client.force_login(organiser)
    page = client.get(f"/tournaments/{event.slug}/manage/").content.decode()
    assert 'value="rating"' in page and "By club rating" in page
    assert client.get(f"/api/tournaments/{event.slug}/").json()["first_round"] == "rating"
