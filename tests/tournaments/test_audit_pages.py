"""The corrections page lists results set by hand and the event's own ledger, readable
(issue 9, trap 11: the corrections page omitted results set by hand)."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.helpers import actor, new_event
from tournaments import selectors, services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def test_a_result_by_hand_is_listed_and_its_ledger_row_reads_with_names(client, club, organiser):
    event = new_event(club, organiser, players=["Cleo", "Dev"])
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    pairing = Pairing.objects.select_related("player_a__player").get(round=rnd)
    cleo = "A" if pairing.player_a.player.name == "Cleo" else "B"
    services.record_result(
        pairing_id=pairing.pk,
        actor=actor(organiser),
        winner=cleo,
        reason="Dev had to leave",
        games_a=1 if cleo == "A" else 0,
        games_b=0 if cleo == "A" else 1,
    )
    client.force_login(organiser)
    response = client.get(f"/tournaments/{event.slug}/manage/corrections/")
    assert response.status_code == 200
    text = re.sub(r"\s+", " ", response.content.decode())
    listed = text.split('data-testid="results-by-hand"')[1].split("</ul>")[0]
    games = "1–0" if cleo == "A" else "0–1"  # shown in seat order, as the names are
    assert "Round 1, table 1:" in listed
    assert f"<strong>Cleo</strong> {games} games" in listed
    assert "Dev had to leave" in listed
    row = next(part for part in text.split("ledger-row") if "Result recorded" in part)
    assert "Result recorded · table 1:" in row
    assert '<th scope="row">winner</th><td>—</td><td>Cleo</td>' in row
    assert '<th scope="row">decided by hand</th><td>no</td><td>yes</td>' in row


def test_your_matches_on_the_home_page_say_event_round_table_and_club(client, club, organiser):
    """Issue 9, trap 10: "Ada v Ben" three times with no event, round or club."""
    event = new_event(club, organiser, players=["Ada", "Ben"], rounds=3, name="Winter Open")
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    client.force_login(organiser)
    text = re.sub(r"\s+", " ", client.get("/").content.decode())
    listed = text.split('data-testid="your-matches"')[1].split("</ul>")[0]
    assert f"Winter Open · round 1, table 1 · {club.name} · " in listed


def test_the_corrections_page_sends_to_the_audit_when_a_match_differs_from_its_ledger(
    client, club, organiser
):
    """The corrections page asks the audit's verifier (chains, checkpoint and each match
    replayed): a result forged in the tables behind a chain that still fits is counted
    there with a link to the audit, which names it."""
    event = new_event(club, organiser, players=["Cleo", "Dev"])
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    pairing = Pairing.objects.select_related("match").get(round=rnd)
    client.force_login(organiser)
    corrections = f"/tournaments/{event.slug}/manage/corrections/"
    assert 'data-testid="audit-problems"' not in client.get(corrections).content.decode()
    type(pairing.match).objects.filter(pk=pairing.match.pk).update(winner="B", points_b=500)
    text = re.sub(r"\s+", " ", client.get(corrections).content.decode())
    assert "The chain does not verify" not in text
    found = text.split('data-testid="audit-problems"')[1].split("</p>")[0]
    differences = selectors.verify_tournament(event).differences
    assert differences and all(d.match_id == pairing.match.pk for d in differences)
    assert f"The audit finds {len(differences)} problem" in found
    assert f'href="/tournaments/{event.slug}/manage/audit/"' in found
