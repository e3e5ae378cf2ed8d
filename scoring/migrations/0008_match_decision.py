from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0007_player_language")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="decided_by",
            field=models.CharField(
                blank=True,
                choices=[("organiser", "organiser"), ("time", "time policy")],
                max_length=12,
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="decision_reason",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="match",
            name="decided_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
