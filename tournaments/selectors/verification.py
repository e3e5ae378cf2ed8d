"""A tournament's ledger verified: its own chain ("tournament:<id>") and every match's,
each chain's hashes and its last signed checkpoint (ginclub.ledger), and each match
replayed against its hands, games and result (scoring.replay). The audit page and API
read it; docs/audit.md says what it can and cannot catch."""

from __future__ import annotations

from scoring import replay
from scoring.models import Match
from tournaments.models import Tournament


def verify_tournament(tournament: Tournament) -> replay.Verification:
    """The tournament's chain and its matches' chains checked, its matches replayed."""
    matches = list(Match.objects.filter(pairing__round__tournament=tournament).order_by("pk"))
    chains = [tournament.chain, *(f"match:{match.pk}" for match in matches)]
    return replay.verify(chains, matches)
