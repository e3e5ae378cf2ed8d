"""Rules-change benchmark (issue 8, finding 5): re-scoring a 1,024-match event.

The event is bench_standings.py's: 256 players, 8 Swiss rounds of 128 matches under the
tournament profile (best of five games to 250), rounds drafted, published and closed by
the tournament services, every hand generated and bulk-inserted (about 68,000 hand rows;
entering them one by one through the service would take hours and is not measured).

Then rules changes are timed as an organiser starts them: a background job (the body the
worker runs, tournaments.services.run_job, in this process) that calls
tournaments.services.rescoring.apply_rules_change in one transaction, with its progress
board. Each change moves game bonuses and boxes, so every game's total and no game's end:
every closed round stays decided and every hand of the rounds concerned is re-scored.
Three runs:
  1. the whole event, every hand row rewritten: the generated hands lack the score
     breakdown the engine stores, so the first re-score writes all of them, as a change
     that moves every hand's points would (the worst case);
  2. the whole event again, the hands' own scores unchanged (only games and matches
     written), the usual case for a change of bonuses;
  3. from round 5 on (the later half of the rounds).

Run: .venv/bin/python benchmarks/bench_rescore.py [--players 256] [--rounds 8]
It builds a throwaway SQLite database in a temporary directory; nothing else is touched.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import tempfile
import time
from pathlib import Path

from bench_standings import play_round_fast  # benchmarks/ is on sys.path as a script
from django_env import setup_django

# (label, from the later half's first round? (else the whole event), overrides)
CHANGES = (
    ("whole event, every hand row rewritten", False, {"box_bonus": 20, "game_bonus": 90}),
    ("whole event, hands' scores unchanged", False, {"box_bonus": 15, "game_bonus": 80}),
    ("later half", True, {"box_bonus": 10, "game_bonus": 70}),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    # The job is run here, in this process, by the worker's own body (run_job): queueing
    # it for a worker would only add the worker's polling interval.
    os.environ["DJANGO_TASKS_BACKEND"] = "django_tasks.backends.dummy.DummyBackend"
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        run(args)


def build(args, actor, club):
    from scoring.models import Hand, Match
    from tournaments import services

    rng = random.Random(2026)
    event = services.create_tournament(
        club=club, actor=actor, name="Bench Open", date=dt.date(2026, 11, 28), rounds=args.rounds
    )
    names = "\n".join(f"Player {n:03d}" for n in range(1, args.players + 1))
    services.import_registrations(tournament_id=event.pk, actor=actor, content="name\n" + names)
    start = time.perf_counter()
    for _ in range(args.rounds):
        rnd = services.draft_round(tournament_id=event.pk, actor=actor)
        services.publish_round(round_id=rnd.pk, actor=actor)
        play_round_fast(rnd, rng)
        services.close_round(round_id=rnd.pk, actor=actor)
    print(
        f"built {args.players} players x {args.rounds} rounds: "
        f"{Match.objects.filter(pairing__round__tournament=event).count()} matches, "
        f"{Hand.objects.count()} hands, in {time.perf_counter() - start:.0f} s"
    )
    event.refresh_from_db()
    return event


def run(args) -> None:
    from django.contrib.auth import get_user_model

    from scoring.models import Club, Hand
    from scoring.services import Actor
    from tournaments import services
    from tournaments.models import Job

    user = get_user_model().objects.create_user("bench", password="x" * 12)
    club = Club.objects.create(name="Bench Club", slug="bench")
    club.organisers.add(user)
    actor = Actor(user=user)
    event = build(args, actor, club)
    overrides = dict(event.overrides)
    for label, half, change in CHANGES:
        from_round = args.rounds // 2 + 1 if half else None
        label = f"from round {from_round} on" if half else label
        overrides.update(change)
        rescored = Hand.objects.filter(
            game__match__pairing__round__tournament=event,
            game__match__pairing__round__number__gte=from_round or 1,
        ).count()
        job = services.start_rules_change(
            tournament_id=event.pk,
            actor=actor,
            reason=f"benchmark: {label}",
            profile=event.profile,
            overrides=dict(overrides),
            from_round=from_round,
        )
        start = time.perf_counter()
        services.run_job(job.pk)
        seconds = time.perf_counter() - start
        job.refresh_from_db()
        assert job.state == Job.State.DONE, job.message
        print(
            f"rules change, {label}: {job.total} matches, {rescored} hands re-scored "
            f"({job.result['hands_changed']} changed, {job.result['results_changed']} "
            f"results) in {seconds:.1f} s, {rescored / seconds:,.0f} hands/s"
        )


if __name__ == "__main__":
    main()
