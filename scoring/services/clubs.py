"""A club: creating one, and its own settings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ginclub import ledger, permissions
from ginclub.errors import Forbidden, ServiceError
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
