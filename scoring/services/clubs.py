"""A club: creating one, and its own settings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from ginclub import ledger, permissions
from ginclub.errors import Conflict, Forbidden, ServiceError
from ginclub.inputs import name_problem
from ginclub.permissions import Actor
from scoring.models import Club


def create_club(*, name: str, slug: str, actor: Actor, organisers: Iterable[Any] = ()) -> Club:
    """A new club run by `organisers` (users); a ledger row opens the club's chain. Only
    an admin creates clubs. Raises Forbidden (`admins_only`), ServiceError (`invalid`)."""
    if not permissions.may_create_club(actor):
        raise Forbidden("admins_only", _("Only admins create clubs."))
    if problem := name_problem(name):
        raise ServiceError(
            "invalid",
            _("The name %(name)s %(problem)s.") % {"name": repr(name), "problem": problem},
            fields={"name": problem},
        )
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=slug)
        club.organisers.add(*organisers)
        ledger.append(
            chain=f"club:{club.pk}",
            action="club_created",
            actor=actor.label,
            user=actor.user,
            after={"name": name, "slug": slug},
        )
    return club


def set_player_pages_public(*, club: Club, actor: Actor, public: bool) -> Club:
    """Open the club's player pages (records, statistics, charts) to everybody, or keep
    them to its members and organisers; a ledger row in the club's chain says who chose.
    Raises Forbidden."""
    # Translators: completes "Only the organisers of <club> may ..."
    permissions.require_organiser(actor, club, _("choose who reads its player pages"))
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if locked.player_pages_public == public:
            return locked
        ledger.append(
            chain=f"club:{locked.pk}",
            action="player_pages_public" if public else "player_pages_private",
            actor=actor.label,
            user=actor.user,
            reason="player pages open to everybody" if public else "player pages for members",
            before={"player_pages_public": locked.player_pages_public},
            after={"player_pages_public": public},
        )
        locked.player_pages_public = public
        locked.save(update_fields=["player_pages_public"])
    return locked


def grant_auditor(*, club: Club, username: str, actor: Actor) -> Any:
    """Make the user called `username` an auditor of `club` (reads everything of it,
    changes nothing: ginclub.permissions.audits), with a ledger row in the club's
    chain. Returns the user. Raises Forbidden, ServiceError (`invalid`, `not_found`),
    Conflict (`already_auditor`, `organises`)."""
    # Translators: completes "Only the organisers of <club> may ..."
    permissions.require_organiser(actor, club, _("choose its auditors"))
    user = _user_named(username)
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if locked.organisers.filter(pk=user.pk).exists():
            raise Conflict(
                "organises",
                _("%(name)s organises %(club)s: an organiser already reads everything of it.")
                % {"name": user.get_username(), "club": club.name},
            )
        if locked.scorekeepers.filter(pk=user.pk).exists():
            raise Conflict(
                "scorekeeps",
                _(
                    "%(name)s keeps score at %(club)s: an auditor changes nothing, so "
                    "withdraw them as scorekeeper first."
                )
                % {"name": user.get_username(), "club": club.name},
            )
        if locked.auditors.filter(pk=user.pk).exists():
            raise Conflict(
                "already_auditor",
                _("%(name)s is already an auditor of %(club)s.")
                % {"name": user.get_username(), "club": club.name},
            )
        locked.auditors.add(user)
        _log_role(locked, actor, "auditor_granted", "auditor", user, before=False, held="audits")
    return user


def withdraw_auditor(*, club: Club, user_id: int, actor: Actor) -> None:
    """`club`'s auditor `user_id` reads no more than anyone else from now on, with a
    ledger row in the club's chain. Raises Forbidden, Conflict (`not_auditor`)."""
    # Translators: completes "Only the organisers of <club> may ..."
    permissions.require_organiser(actor, club, _("choose its auditors"))
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        user = locked.auditors.filter(pk=user_id).first()
        if user is None:  # withdrawn already, or never one: nothing to withdraw
            raise Conflict(
                "not_auditor", _("That user is not an auditor of %(club)s.") % {"club": club.name}
            )
        locked.auditors.remove(user)
        _log_role(locked, actor, "auditor_withdrawn", "auditor", user, before=True, held="audits")


def auditors_of(club: Club) -> list[Any]:
    """The club's auditors, by name."""
    return list(club.auditors.order_by("username"))


def grant_scorekeeper(*, club: Club, username: str, actor: Actor) -> Any:
    """Make the user called `username` a scorekeeper of `club` (runs the rounds and the
    tables on the day, changes no settings, rules, players or roles:
    ginclub.permissions.scorekeeps), with a ledger row in the club's chain. Returns the
    user. Raises Forbidden, ServiceError (`invalid`, `not_found`), Conflict
    (`already_scorekeeper`, `organises`, `audits`)."""
    permissions.require_scorekeeper_grant(actor, club)
    user = _user_named(username, _("Give the user name of the person who keeps score."))
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if locked.organisers.filter(pk=user.pk).exists():
            raise Conflict(
                "organises",
                _("%(name)s organises %(club)s: an organiser already runs its rounds.")
                % {"name": user.get_username(), "club": club.name},
            )
        if locked.auditors.filter(pk=user.pk).exists():
            raise Conflict(
                "audits",
                _(
                    "%(name)s audits %(club)s and changes nothing there: withdraw them as "
                    "auditor first."
                )
                % {"name": user.get_username(), "club": club.name},
            )
        if locked.scorekeepers.filter(pk=user.pk).exists():
            raise Conflict(
                "already_scorekeeper",
                _("%(name)s is already a scorekeeper of %(club)s.")
                % {"name": user.get_username(), "club": club.name},
            )
        locked.scorekeepers.add(user)
        _log_role(locked, actor, "scorekeeper_granted", "scorekeeper", user, before=False)
    return user


def withdraw_scorekeeper(*, club: Club, user_id: int, actor: Actor) -> None:
    """`club`'s scorekeeper `user_id` runs nothing there from now on, with a ledger row
    in the club's chain. Raises Forbidden, Conflict (`not_scorekeeper`)."""
    permissions.require_scorekeeper_grant(actor, club)
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        user = locked.scorekeepers.filter(pk=user_id).first()
        if user is None:
            raise Conflict(
                "not_scorekeeper",
                _("That user is not a scorekeeper of %(club)s.") % {"club": club.name},
            )
        locked.scorekeepers.remove(user)
        _log_role(locked, actor, "scorekeeper_withdrawn", "scorekeeper", user, before=True)


def scorekeepers_of(club: Club) -> list[Any]:
    """The club's scorekeepers, by name."""
    return list(club.scorekeepers.order_by("username"))


def _log_role(
    club: Club, actor: Actor, action: str, role: str, user: Any, *, before: bool, held="holds"
) -> None:
    """A club role granted or withdrawn, in the club's chain (`held`: the field saying
    whether the user holds the role; the auditors' rows have always said "audits")."""
    ledger.append(
        chain=f"club:{club.pk}",
        action=action,
        actor=actor.label,
        user=actor.user,
        reason=f"user {user.get_username()}",
        before={role: user.get_username(), held: before},
        after={role: user.get_username(), held: not before},
    )


def _user_named(username: str, missing: str = "") -> Any:
    name = (username or "").strip()
    if not name:
        raise ServiceError(
            "invalid",
            missing or _("Give the user name of the person who audits the club."),
            fields={"username": _("required")},
        )
    user = get_user_model().objects.filter(username=name[:150], is_active=True).first()
    if user is None:
        raise ServiceError(
            "not_found",
            _(
                "Nobody is called %(name)s here: they need a login first, which a site "
                "admin makes (in the admin pages, Users)."
            )
            % {"name": repr(name)},
            fields={"username": _("no such user")},
            status=404,
        )
    return user
