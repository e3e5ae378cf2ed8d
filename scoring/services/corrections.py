"""Previews of an organiser's correction or void: what it would change, before it does.

A preview runs the real service (correct_hand, void_hand) inside a transaction that is
then rolled back, so it shows exactly what applying would do (the hand, the match's
result, and what the result guards of the apps above say, e.g. the tournament standings
rows that move and the later rounds paired from the old ones), or raises the very
refusal applying would give. Nothing of it is kept: no entry, no ledger row.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from ginclub.permissions import Actor
from scoring.hand_input import HandInput
from scoring.models import Game, Hand
from scoring.services.base import Outcome, snapshot
from scoring.services.hand_entry import correct_hand, void_hand

# A preview may be asked before the reason is typed; the service wants one.
PREVIEW_REASON = "(preview)"


@dataclass
class CorrectionPreview:
    """What a correction or void would do (the API's shape:
    scoring.serializers.CorrectionPreviewOutputSerializer)."""

    action: str
    hand_before: dict[str, Any]
    hand_after: dict[str, Any]
    result_before: dict[str, Any]
    result_after: dict[str, Any]
    consequences: list[dict[str, Any]] = field(default_factory=list)
    # The match's games before and after ({number, total_a, total_b, winner, state}): a
    # hand's correction moves its game's totals even when the match result stays.
    games_before: list[dict[str, Any]] = field(default_factory=list)
    games_after: list[dict[str, Any]] = field(default_factory=list)

    @property
    def result_changed(self) -> bool:
        return self.result_before != self.result_after

    @property
    def games_changed(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(before, after) of each game the change moves, in order."""
        before = {g["number"]: g for g in self.games_before}
        moved = [g for g in self.games_after if before.get(g["number"]) != g]
        return [(before.get(g["number"], {}), g) for g in moved]

    @property
    def tournament(self) -> dict[str, Any] | None:
        return next((c for c in self.consequences if c.get("kind") == "tournament"), None)


class _Rollback(Exception):
    def __init__(self, preview: CorrectionPreview) -> None:
        super().__init__("preview")
        self.preview = preview


def preview_correction(
    *, hand_id: int, actor: Actor, hand_input: HandInput, version: int, reason: str = ""
) -> CorrectionPreview:
    """What correct_hand would do with these values; writes nothing.
    Raises what correct_hand raises (but never `reason_required`)."""
    return _rolled_back(
        "correct",
        hand_id,
        lambda key: correct_hand(
            hand_id=hand_id,
            actor=actor,
            hand_input=hand_input,
            version=version,
            reason=reason.strip() or PREVIEW_REASON,
            idempotency_key=key,
        ),
    )


def preview_void(
    *, hand_id: int, actor: Actor, version: int, reason: str = ""
) -> CorrectionPreview:
    """What void_hand would do; writes nothing. Raises what void_hand raises (but never
    `reason_required`)."""
    return _rolled_back(
        "void",
        hand_id,
        lambda key: void_hand(
            hand_id=hand_id,
            actor=actor,
            version=version,
            reason=reason.strip() or PREVIEW_REASON,
            idempotency_key=key,
        ),
    )


def _games_of(hand_id: int) -> list[dict[str, Any]]:
    match_id = Hand.objects.filter(pk=hand_id).values_list("game__match_id", flat=True).first()
    return list(
        Game.objects.filter(match_id=match_id)
        .order_by("number")
        .values("number", "total_a", "total_b", "winner", "state")
    )


def _rolled_back(action: str, hand_id: int, run) -> CorrectionPreview:
    games_before = _games_of(hand_id)
    try:
        with transaction.atomic():
            outcome: Outcome = run(f"preview-{uuid.uuid4().hex}")
            preview = _preview_of(action, outcome)
            preview.games_before, preview.games_after = games_before, _games_of(hand_id)
            raise _Rollback(preview)
    except _Rollback as done:
        return done.preview


def _preview_of(action: str, outcome: Outcome) -> CorrectionPreview:
    hand: Hand = outcome.hand
    report = outcome.extra["result"]
    return CorrectionPreview(
        action=action,
        hand_before=outcome.extra["before"],
        hand_after=snapshot(hand),
        result_before=report.before,
        result_after=report.after,
        consequences=report.consequences,
    )
