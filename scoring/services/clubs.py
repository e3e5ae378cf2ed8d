"""A club's own settings."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ginclub import ledger, permissions
from ginclub.permissions import Actor
from scoring.models import Club


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
