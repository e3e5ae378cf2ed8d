"""A tournament's audit (issue 27): every result not made by the two players agreeing,
with who, device, when, why, before and after; filters; CSV and JSON; every chain
verified with a broken row marked where it stands; and the auditor who reads it all."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from ginclub.permissions import Actor
from scoring import services as scoring
from scoring.models import Club, Hand, LedgerRow
from tests.factories import UserFactory
from tests.tournaments.audit_world import audited_event, auditor_of, knock, match_of
from tests.tournaments.helpers import new_event
from tournaments import selectors
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

ALL_KINDS = {
    "dispute",
    "correction",
    "organiser_result",
    "after_close",
    "rules_change",
    "void",
    "time_policy",
}


@pytest.fixture
def event(club, organiser):
    return audited_event(club, organiser)


@pytest.fixture
def auditor(club, organiser):
    return auditor_of(club)


def reader(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_exception_is_listed_with_who_device_when_why_before_and_after(event):
    audit = selectors.tournament_audit(event)
    assert {found.kind for found in audit.exceptions} == ALL_KINDS
    dispute = next(f for f in audit.exceptions if f.kind == "dispute")
    assert (dispute.round, dispute.table, dispute.players) == (1, 1, "P01 v P02")
    assert (dispute.who, dispute.device, dispute.ip) == ("player P02", "P02's phone", "10.0.0.2")
    assert dispute.why == "count again" and "Hand corrected by user org" in dispute.ended
    with translation.override("it"):  # who and when as the reader says them (a walk
        # found "user org" and "2026-11-28 05:55:30" on the Italian page)
        ended = next(
            f.ended for f in selectors.tournament_audit(event).exceptions if f.kind == "dispute"
        )
        when = next(r.created_at for r in LedgerRow.objects.filter(action="hand_corrected"))
        shown = date_format(timezone.localtime(when), "SHORT_DATETIME_FORMAT")
        assert ended == f"Mano corretta da org (utente) il {shown}"
    correction = next(f for f in audit.exceptions if f.why == "recounted at the table")
    assert (correction.device, correction.ip) == ("Organiser laptop", "10.0.0.9")
    assert "deadwood 5 v 30" in correction.before and "deadwood 5 v 35" in correction.after
    result = next(f for f in audit.exceptions if f.kind == "organiser_result")
    assert result.why == "P04 left ill" and result.after.startswith("P03 won, P03 2–0 P04")
    changed = next(f for f in audit.exceptions if f.kind == "after_close")
    assert "620–0" in changed.before and "630–0" in changed.after
    rules = next(f for f in audit.exceptions if f.kind == "rules_change")
    assert rules.before == "box_bonus 25" and rules.after.startswith("box_bonus 10")
    timed = next(f for f in audit.exceptions if f.kind == "time_policy")
    assert timed.why == "time was called and P01 led on games"
    assert all(len(found.hash) == 64 and not found.broken for found in audit.exceptions)


def clash_disputed(club, organiser, **options):
    """A one-table event whose hand 1 P01 entered (deadwood 2) and P02 disputed from the
    clash, claiming deadwood 5, with their own word "recounted"."""
    event = new_event(club, organiser, players=2, rounds=1, **options)
    rnd = tournaments.draft_round(tournament_id=event.pk, actor=Actor(user=organiser))
    tournaments.publish_round(round_id=rnd.pk, actor=Actor(user=organiser))
    match = rnd.pairings.get().match
    hand = scoring.submit_hand(
        match_id=match.pk,
        actor=Actor(player=match.player_a),
        hand=knock(1, 1, kd=2, dd=30),
        idempotency_key="p01-1",
    ).hand
    scoring.dispute_hand(
        hand_id=hand.pk,
        actor=Actor(player=match.player_b),
        version=1,
        reason="recounted",
        claim=knock(1, 1, kd=5, dd=30),
        idempotency_key="p02-1",
    )
    return event


def test_a_disputes_claimed_figures_are_in_the_readers_language(club, organiser):
    """A dispute from the clash keeps the disputer's figures as figures: its why was
    the sentence "P02 entered other figures: ..." in the disputer's language."""
    event = clash_disputed(club, organiser)
    with translation.override("it"):
        why = selectors.tournament_audit(event, kind="dispute").exceptions[0].why
    figures = "deadwood di chi bussa: 2 (P01) contro 5 (P02); punti: 28 (P01) contro 25 (P02)"
    assert why == f"{figures} · «recounted»"


def test_hands_the_two_players_agreed_are_not_exceptions(event):
    audit = selectors.tournament_audit(event)
    # round 2, table 2 has no exception; round 1 table 1's agreed game 2 only through the
    # organiser's corrections
    assert not [f for f in audit.exceptions if (f.round, f.table) == (2, 2)]
    assert len(audit.exceptions) == 8
    assert audit.verified and len(audit.chains) == 5


def test_the_filters_keep_a_kind_a_round_and_a_player(event):
    assert {f.kind for f in selectors.tournament_audit(event, kind="void").exceptions} == {"void"}
    assert {f.round for f in selectors.tournament_audit(event, round="2").exceptions} == {2}
    found = selectors.tournament_audit(event, player="p03").exceptions
    assert {f.players for f in found} == {"P03 v P04", "P01 v P03"}


def test_the_auditor_reads_the_page_and_the_api_of_a_private_event(event, auditor):
    client = reader(auditor)
    page = client.get(f"/tournaments/{event.slug}/manage/audit/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="audit-verified"' in text and "P02&#x27;s phone" in text
    # a row made with no device (the clock's decision) says so, guessing no page it came
    # from (a walk read "an organiser's page" of a player's dispute)
    assert "not recorded</span>" in text and "organiser&#x27;s page" not in text
    answer = client.get(f"/api/tournaments/{event.slug}/audit/?kind=dispute").json()
    assert answer["verified"] is True and [e["kind"] for e in answer["exceptions"]] == ["dispute"]
    assert answer["exceptions"][0]["ended"].startswith("Hand corrected")
    assert len(answer["chains"]) == 5 and answer["filters"]["kind"] == "dispute"


def test_bad_filters_are_refused_with_a_code_and_a_message(event, auditor):
    client = reader(auditor)
    answer = client.get(f"/api/tournaments/{event.slug}/audit/?kind=bribes")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"
    assert answer.json()["error"]["message"] == (
        "There is no kind of exception called “bribes”. The kinds are: Result set by an "
        "organiser, Result set by the time policy, Result set by hand withdrawn, Hand "
        "corrected, Hand voided, Hand disputed, Rules changed, Result changed after its "
        "round closed, Penalty recorded or reversed."
    )
    assert "dispute" in answer.json()["error"]["fields"]["kind"]  # the codes, for a client
    answer = client.get(f"/api/tournaments/{event.slug}/audit/?round=two")
    assert answer.status_code == 400 and "not 'two'" in answer.json()["error"]["message"]


def test_an_unknown_kind_on_the_page_is_quoted_as_given_and_the_kinds_named_in_words(
    event, auditor
):
    client = reader(auditor)
    page = client.get(f"/tournaments/{event.slug}/manage/audit/?kind=bogus")
    text = page.content.decode()
    assert page.status_code == 400
    # the message starts with words, not the value (the refusal's first letter is capitalised)
    assert '<p class="error" id="kind-error">There is no kind of exception called “bogus”.' in text
    assert "Result set by the time policy, Result set by hand withdrawn" in text
    # the codes are the form's values, never its words
    words = re.sub(r'(value|data-kind)="[^"]*"', "", text)
    assert "organiser_result" not in words and "time_policy" not in words
    italian = client.get(
        f"/tournaments/{event.slug}/manage/audit/?kind=Bogus", HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert "Non esiste un tipo di eccezione chiamato “Bogus”." in italian
    assert "Risultato deciso dalla regola del tempo" in italian


def test_the_exports_carry_every_exception_with_full_hashes(event, auditor):
    client = reader(auditor)
    csv_answer = client.get(f"/tournaments/{event.slug}/manage/export/audit.csv")
    rows = list(csv.DictReader(io.StringIO(csv_answer.content.decode())))
    assert len(rows) == 8 and {len(row["hash"]) for row in rows} == {64}
    assert {row["kind"] for row in rows} == ALL_KINDS
    api_csv = client.get(f"/api/tournaments/{event.slug}/export/audit.csv?round=1")
    assert api_csv.status_code == 200 and api_csv.content.decode().count("\n") == 1 + 5
    data = json.loads(client.get(f"/tournaments/{event.slug}/manage/export/audit.json").content)
    assert len(data["exceptions"]) == 8 and data["verified"] is True


def test_a_forged_row_is_marked_where_it_stands_on_the_audit_and_the_ledgers(event, auditor):
    match = match_of(event, 1, 1)
    forged = LedgerRow.objects.get(match=match, action="hand_corrected", reason="deadwood was 40")
    LedgerRow.objects.filter(pk=forged.pk).update(reason="winner — Dev")
    event_row = LedgerRow.objects.filter(chain=event.chain, action="rules_changed").get()
    LedgerRow.objects.filter(pk=event_row.pk).update(reason="nobody asked")
    audit = selectors.tournament_audit(event)
    assert not audit.verified
    broken = {check.chain: check.broken.position for check in audit.broken_chains}
    assert broken == {f"match:{match.pk}": forged.position, event.chain: event_row.position}
    marked = {(f.chain, f.position) for f in audit.exceptions if f.broken}
    assert (f"match:{match.pk}", forged.position) in marked
    assert all(f.position >= broken[f.chain] for f in audit.exceptions if f.broken)
    assert not any(f.broken for f in audit.exceptions if f.chain not in broken)
    client = reader(auditor)
    page = client.get(f"/tournaments/{event.slug}/manage/audit/").content.decode()
    assert 'data-testid="audit-broken"' in page and "winner — Dev" in page
    ledger = client.get(f"/matches/{match.pk}/ledger/").content.decode()
    row = ledger.split(f'id="row-{forged.position}"')[1].split("</li>")[0]
    assert 'data-testid="broken-row"' in row and "the row was edited" in row
    corrections = client.get(f"/tournaments/{event.slug}/manage/corrections/").content.decode()
    assert 'role="alert"' in corrections and "The chain breaks here" in corrections


def test_a_hand_edited_in_the_tables_is_named_on_the_audit_though_every_chain_fits(event, auditor):
    match = match_of(event, 1, 1)
    hand = Hand.objects.filter(game__match=match, state=Hand.State.CONFIRMED).order_by("pk").first()
    Hand.objects.filter(pk=hand.pk).update(points=hand.points + 20)  # no ledger row
    audit = selectors.tournament_audit(event)
    assert not audit.verified
    (check,) = audit.broken_chains
    assert check.chain == f"match:{match.pk}" and check.broken is None
    assert any("points" in difference for difference in check.differences)
    page = reader(auditor).get(f"/tournaments/{event.slug}/manage/audit/").content.decode()
    assert 'data-testid="replay-differences"' in page
    data = reader(auditor).get(f"/api/tournaments/{event.slug}/audit/").json()
    assert data["verified"] is False
    (found,) = [c for c in data["chains"] if c["chain"] == f"match:{match.pk}"]
    assert found["differences"] and found["broken"] is None


def test_the_match_ledger_shows_each_entrys_device_and_full_hashes(event, auditor):
    match = match_of(event, 1, 1)
    page = reader(auditor).get(f"/matches/{match.pk}/ledger/").content.decode()
    assert "From P01&#x27;s phone · address 10.0.0.1" in page
    row = LedgerRow.objects.filter(match=match).last()
    assert f'title="{row.hash}">{row.hash}</code>' in page


def test_the_match_page_shows_the_void_and_how_a_dispute_ended(event, organiser):
    client = reader(organiser)
    voided = client.get(f"/matches/{match_of(event, 2, 1).pk}/").content.decode()
    text = re.sub(r"\s+", " ", voided)
    assert "Voided</span> by user org · reason: entered at the wrong table" in text
    disputed = re.sub(
        r"\s+", " ", client.get(f"/matches/{match_of(event, 1, 1).pk}/").content.decode()
    )
    assert "Was disputed</span> by player P02: count again · ended: Hand corrected" in disputed


def test_the_audit_is_linked_from_the_organiser_pages_and_the_corrections_page(event, organiser):
    client = reader(organiser)
    for page in ("dashboard", "corrections", "players"):
        body = client.get(f"/tournaments/{event.slug}/manage/{page}/").content.decode()
        assert f"/tournaments/{event.slug}/manage/audit/" in body, page


def test_players_and_strangers_do_not_read_the_audit(event, club):
    stranger = reader(UserFactory(username="stranger"))
    assert stranger.get(f"/api/tournaments/{event.slug}/audit/").status_code == 404
    assert Client().get(f"/tournaments/{event.slug}/manage/audit/").status_code == 302


# ----------------------------------------------------------------------------- auditors


def test_granting_and_withdrawing_an_auditor_are_ledger_rows(club, organiser):
    user = UserFactory(username="audrey")
    scoring.grant_auditor(club=club, username="audrey", actor=Actor(user=organiser))
    scoring.withdraw_auditor(club=club, user_id=user.pk, actor=Actor(user=organiser))
    rows = LedgerRow.objects.filter(chain=f"club:{club.pk}").order_by("position")
    assert [(r.action, r.after["auditor"], r.actor) for r in rows] == [
        ("auditor_granted", "audrey", "user org"),
        ("auditor_withdrawn", "audrey", "user org"),
    ]
    assert not Club.objects.get(pk=club.pk).auditors.exists()


def test_only_organisers_choose_auditors_and_the_refusals_say_why(club, organiser):
    auditor = auditor_of(club)
    client = reader(auditor)
    answer = client.post(f"/api/clubs/{club.slug}/auditors/", {"username": "x"})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "auditor_read_only"
    org = reader(organiser)
    answer = org.post(f"/api/clubs/{club.slug}/auditors/", {"username": "nobody-here"})
    assert (
        answer.status_code == 404
        and "Nobody is called 'nobody-here'" in answer.json()["error"]["message"]
    )
    answer = org.post(f"/api/clubs/{club.slug}/auditors/", {"username": "audrey"})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "already_auditor"
    answer = org.post(f"/api/clubs/{club.slug}/auditors/", {"username": "org"})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "organises"
    assert org.get(f"/api/clubs/{club.slug}/auditors/").json() == [
        {"id": auditor.pk, "username": "audrey"}
    ]
    assert org.delete(f"/api/clubs/{club.slug}/auditors/{auditor.pk}/").status_code == 204
    assert reader(auditor).get(f"/api/clubs/{club.slug}/auditors/").status_code == 404


def test_the_club_page_lists_auditors_and_gives_the_auditor_no_buttons(club, organiser):
    auditor = auditor_of(club)
    page = reader(auditor).get(f"/clubs/{club.slug}/").content.decode()
    assert "You audit this club" in page and "audrey" in page
    assert "Make auditor" not in page and "Start match" not in page
    page = reader(organiser).get(f"/clubs/{club.slug}/").content.decode()
    assert "Make auditor" in page and f"/clubs/{club.slug}/auditors/{auditor.pk}/withdraw/" in page


def test_the_page_quotes_only_words_a_person_typed(club, organiser, event):
    """A walk read the audit's Why of a clash's dispute as “knocker's deadwood: 2 (Ben)
    vs 5 (Ada); …” in quotation marks, as if Ada had written it, and the time policy's
    reason likewise: the page quotes a person's words, not the site's."""
    disputed = clash_disputed(club, organiser, name="Clash Open")
    html = reader(organiser).get(f"/tournaments/{disputed.slug}/manage/audit/").content.decode()
    figures = "knocker&#x27;s deadwood: 2 (P01) vs 5 (P02); points: 28 (P01) vs 25 (P02)"
    assert f"<dd>{figures} · “recounted”</dd>" in html
    html = reader(organiser).get(f"/tournaments/{event.slug}/manage/audit/").content.decode()
    assert "<dd><q>count again</q></dd>" in html  # a dispute's own words, no figures
    assert "<dd>time was called and P01 led on games</dd>" in html
    assert "<dd><q>P04 left ill</q></dd>" in html
