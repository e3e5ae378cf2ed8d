"""A table's result moves to its match (scoring.Match.decided_by and the result fields);
a bye keeps the games and points it counts for on its pairing."""

from django.db import migrations, models


def results_to_matches(apps, schema_editor):
    Pairing = apps.get_model("tournaments", "Pairing")
    Match = apps.get_model("scoring", "Match")
    for pairing in Pairing.objects.filter(resolved_at__isnull=False).iterator():
        if pairing.player_b_id is None:
            pairing.bye_games, pairing.bye_points = pairing.result_games_a, pairing.result_points_a
            pairing.save(update_fields=["bye_games", "bye_points"])
        elif pairing.match_id is not None and pairing.result_winner:
            Match.objects.filter(pk=pairing.match_id).update(
                winner=pairing.result_winner,
                games_won_a=pairing.result_games_a,
                games_won_b=pairing.result_games_b,
                points_a=pairing.result_points_a,
                points_b=pairing.result_points_b,
                state="closed",
                decided_by=pairing.result_by or "organiser",
                decision_reason=pairing.result_reason,
                decided_at=pairing.resolved_at,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_job_words"),
        ("scoring", "0008_match_decision"),
    ]

    operations = [
        migrations.AddField(
            model_name="pairing",
            name="bye_games",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="pairing",
            name="bye_points",
            field=models.IntegerField(default=0),
        ),
        migrations.RunPython(results_to_matches, migrations.RunPython.noop),
        migrations.RemoveField(model_name="pairing", name="result_winner"),
        migrations.RemoveField(model_name="pairing", name="result_reason"),
        migrations.RemoveField(model_name="pairing", name="result_games_a"),
        migrations.RemoveField(model_name="pairing", name="result_games_b"),
        migrations.RemoveField(model_name="pairing", name="result_points_a"),
        migrations.RemoveField(model_name="pairing", name="result_points_b"),
        migrations.RemoveField(model_name="pairing", name="resolved_at"),
        migrations.RemoveField(model_name="pairing", name="result_by"),
    ]
