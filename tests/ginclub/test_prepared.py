"""Prepared queries (ginclub.prepared): a queryset built and compiled once per
connection gives, for every later set of values, the rows the queryset itself gives;
a build whose values do not reach the SQL as parameters is refused, not run wrong."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from ginclub.prepared import Prepared
from scoring.models import Club, Player
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    north, south = ClubFactory(name="North"), ClubFactory(name="South")
    for name in ("Ann", "Bob", "Cyd"):
        PlayerFactory(club=north, name=name)
    PlayerFactory(club=south, name="Dee")
    return north, south


def players_named(club_id: int, prefix: str):
    return (
        Player.objects.filter(club_id=club_id, name__gte=prefix)
        .select_related("club")
        .order_by("name")
    )


COLUMNS = ("name", "club__name", "created_at", "club__player_pages_public")


def test_every_run_gives_what_the_queryset_gives_and_builds_it_once(clubs):
    north, south = clubs
    built = []

    def build(club_id: int, name: str):
        built.append((club_id, name))
        return Player.objects.filter(club_id=club_id, name=name).values_list(*COLUMNS)

    query = Prepared(build, {"club_id": int, "name": str})
    for club, name in [(north, "Bob"), (north, "Cyd"), (south, "Dee"), (south, "Bob")]:
        expected = list(Player.objects.filter(club=club, name=name).values_list(*COLUMNS))
        got = query(club_id=club.pk, name=name)
        assert got == expected
        # converted as the queryset converts them (SQLite sends text and 0 or 1)
        assert all(isinstance(row[2], datetime) and type(row[3]) is bool for row in got)
    assert len(built) == 1  # the stand-ins, once
    assert built[0][0] not in (north.pk, south.pk)


def test_model_rows_come_with_their_select_related_objects_in_one_statement(clubs):
    north, _ = clubs
    query = Prepared(
        lambda club_id: (
            Player.objects.filter(club_id=club_id).select_related("club").order_by("name")
        ),
        {"club_id": int},
    )
    query(club_id=north.pk)  # compiled here
    with CaptureQueriesContext(connection) as sent:
        players = query(club_id=north.pk)
        assert [(p.name, p.club.name) for p in players] == [
            ("Ann", "North"),
            ("Bob", "North"),
            ("Cyd", "North"),
        ]
    assert len(sent) == 1
    assert all(isinstance(p, Player) and p.pk for p in players)


def test_a_values_query_keeps_its_rows_shape(clubs):
    north, _ = clubs
    as_tuples = Prepared(
        lambda club_id: Club.objects.filter(pk=club_id).values_list("name", flat=True),
        {"club_id": int},
    )
    as_dicts = Prepared(
        lambda club_id: Club.objects.filter(pk=club_id).values("name"), {"club_id": int}
    )
    assert as_tuples(club_id=north.pk) == ["North"]
    assert as_dicts(club_id=north.pk) == [{"name": "North"}]


@pytest.mark.parametrize(
    "build",
    [
        # transformed by the ORM: the SQL takes "%<value>%", not the value
        lambda club_id, name: Player.objects.filter(club_id=club_id, name__contains=name),
        # not a value of the query at all
        lambda club_id, name: Player.objects.filter(club_id=club_id),
        # a parameter made from a value, the value being one too: it would go unchanged
        lambda club_id, name: (
            Player.objects.filter(club_id=club_id).exclude(name=f"{name}!").filter(name=name)
        ),
        lambda club_id, name: Player.objects.filter(club_id=club_id, name=f"{name} {club_id}"),
    ],
    ids=["transformed", "unused", "made from it as well", "made from two"],
)
def test_a_value_that_is_not_a_parameter_of_the_sql_is_refused(clubs, build):
    query = Prepared(build, {"club_id": int, "name": str})
    with pytest.raises(ImproperlyConfigured, match="name"):
        query(club_id=clubs[0].pk, name="Bob")


def test_wrong_or_missing_values_are_refused_before_any_sql(clubs):
    query = Prepared(players_named, {"club_id": int, "prefix": str})
    with CaptureQueriesContext(connection) as sent:
        with pytest.raises(TypeError, match="club_id must be int"):
            query(club_id=str(clubs[0].pk), prefix="B")
        with pytest.raises(TypeError, match="prefix"):
            query(club_id=clubs[0].pk)
    assert len(sent) == 0
    with pytest.raises(ImproperlyConfigured, match="int or str"):
        Prepared(players_named, {"club_id": float})


@pytest.mark.django_db(transaction=True)  # outside any transaction, as Django checks
def test_a_locking_read_outside_a_transaction_is_refused_where_the_database_locks_rows(clubs):
    query = Prepared(
        lambda club_id: Club.objects.select_for_update().filter(pk=club_id), {"club_id": int}
    )
    with transaction.atomic():
        assert [c.name for c in query(club_id=clubs[0].pk)] == ["North"]
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            query(club_id=clubs[0].pk)
    else:  # SQLite: the transaction is the lock, and Django sends no FOR UPDATE
        assert [c.name for c in query(club_id=clubs[0].pk)] == ["North"]


@pytest.mark.django_db(transaction=True)
def test_each_thread_runs_it_on_its_own_connection(clubs):
    north, south = clubs
    query = Prepared(players_named, {"club_id": int, "prefix": str})
    assert [p.name for p in query(club_id=north.pk, prefix="")] == ["Ann", "Bob", "Cyd"]
    answers = {}

    def other_thread():
        try:
            answers["names"] = [p.name for p in query(club_id=south.pk, prefix="D")]
            answers["connection"] = connections["default"]
            answers["compiled for it"] = query.compiled_on(connections["default"])
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join(timeout=60)
    assert answers["names"] == ["Dee"]
    assert answers["connection"] is not connections["default"]
    assert answers["compiled for it"]
    assert query.compiled_on(connections["default"])
