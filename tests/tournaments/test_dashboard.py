"""The organiser's dashboard: each table's state; and two organisers at once."""

from __future__ import annotations

import re

import pytest
from django.middleware.csrf import _unmask_cipher_token

from ginclub.errors import Conflict
from scoring import services as scoring
from scoring.hand_input import HandInput
from scoring.models import LedgerRow, Match
from tests.threads import run_together
from tests.tournaments.helpers import actor, new_event, play_round, win
from tournaments import selectors, services
from tournaments.models import Round
from tournaments.serializers import ViewerTableOutputSerializer


def submit(pairing, seat="A", key="k"):
    player = (pairing.player_a if seat == "A" else pairing.player_b).player
    return scoring.submit_hand(
        match_id=pairing.match_id,
        actor=scoring.Actor(player=player),
        idempotency_key=key,
        hand=HandInput(
            game=1, number=1, outcome="knock", knocker="A", knocker_deadwood=4, defender_deadwood=9
        ),
    ).hand


@pytest.mark.django_db
def test_every_table_shows_its_state(club, organiser):
    event = new_event(club, organiser, players=9)
    rnd = play_round(event, organiser, play=False, close=False)
    playing, pending, disputed, finished, bye = rnd.pairings.order_by("position").select_related(
        "player_a__player", "player_b__player", "match"
    )
    submit(pending, key="p")
    hand = submit(disputed, key="d")
    scoring.dispute_hand(
        hand_id=hand.pk,
        actor=scoring.Actor(player=disputed.player_b.player),
        version=1,
        reason="I had 7",
        idempotency_key="d2",
    )
    win(finished, organiser, finished.player_b.player.name)
    board = selectors.dashboard(Round.objects.get(pk=rnd.pk))
    assert [row.state for row in board.tables] == [
        "playing",
        "pending",
        "disputed",
        "finished",
        "bye",
    ]
    assert board.counts == {"playing": 1, "pending": 1, "disputed": 1, "finished": 1, "bye": 1}
    assert [row.pairing.table for row in board.disputes] == [3] and not board.can_close
    assert board.tables[1].current_points == {"A": 0, "B": 0}
    assert board.tables[3].winner_name == finished.player_b.player.name
    public = ViewerTableOutputSerializer(board.tables[2], context={"public": True}).data
    assert public["state"] == "playing" and "disputed" not in public
    # The poll reads the same tables as plain values (selectors.PairingFacts), before and
    # after time is called.
    assert_facts_agree(rnd)
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    facts = assert_facts_agree(rnd)
    assert facts.play_counts["last_hand"] == 3  # playing, pending and disputed


def assert_facts_agree(rnd: Round) -> selectors.Dashboard:
    rnd = Round.objects.get(pk=rnd.pk)
    board, facts = selectors.dashboard(rnd), selectors.dashboard_facts(rnd)

    def shown(row):
        return (row.pairing.pk, row.state, row.pending, row.disputed, row.current_game)

    assert [shown(row) for row in facts.tables] == [shown(row) for row in board.tables]
    assert [(r.current_points, r.play) for r in facts.tables] == [
        (r.current_points, r.play) for r in board.tables
    ]
    assert (facts.counts, facts.play_counts, facts.can_close) == (
        board.counts,
        board.play_counts,
        board.can_close,
    )
    return facts


@pytest.mark.django_db(transaction=True)
def test_two_organisers_publishing_at_once_start_each_match_once(club, organiser):
    event = new_event(club, organiser, players=6)
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    results = run_together(
        2, lambda i: services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    )
    conflicts = [r for r in results if isinstance(r, Conflict)]
    assert len(conflicts) == 1 and conflicts[0].code == "not_draft", results
    assert Match.objects.count() == 3
    assert LedgerRow.objects.filter(chain=event.chain, action="round_published").count() == 1


@pytest.mark.django_db
def test_a_poll_renders_only_the_tables_that_moved_and_each_viewer_gets_its_own_forms(
    club, organiser, client, monkeypatch
):
    """The dashboard's rows are kept per change (views.rounds.board_rows): a hand at one
    table re-renders that row alone; another organiser's rows carry their own CSRF token."""
    from django.core.cache import caches
    from django.test import Client

    from tournaments.views import rounds as views

    caches["shared"].clear()
    event = new_event(club, organiser, players=8)
    rnd = play_round(event, organiser, play=False, close=False)
    first = rnd.pairings.order_by("position").select_related("player_a__player").first()
    rendered = []
    real = views.render_to_string
    monkeypatch.setattr(
        views, "render_to_string", lambda *a, **k: rendered.append(a[0]) or real(*a, **k)
    )
    client.force_login(organiser)
    url = f"/tournaments/{event.slug}/manage/dashboard/tables/"
    page = client.get(url)
    assert page.status_code == 200 and rendered.count("tournaments/_dashboard_row.html") == 4
    rendered.clear()
    submit(first, key="moved")
    page = client.get(url)
    assert rendered.count("tournaments/_dashboard_row.html") == 1  # the table that moved
    assert "1 pending" in page.content.decode()
    # With the clock running each row has forms ("More time..."): another organiser's
    # rows are rendered for it, with its own CSRF token.
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser), minutes=30)
    other = Client()
    other.force_login(organiser)
    other.get(f"/tournaments/{event.slug}/manage/dashboard/")  # sets its CSRF cookie
    client.get(url)
    rendered.clear()
    body = other.get(url).content.decode()
    assert rendered.count("tournaments/_dashboard_row.html") == 4
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', body))
    assert tokens and {_unmask_cipher_token(t) for t in tokens} == {
        other.cookies["csrftoken"].value
    }
