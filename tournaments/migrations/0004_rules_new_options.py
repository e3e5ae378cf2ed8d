"""The rule options added for fixed-length and Hollywood games (issue 8), with their
"as before" values, in every tournament's frozen rules: a table of a later round starts
with the tournament's rules and must find them equal to the profile built today."""

from django.db import migrations

AS_BEFORE = {"dead_hands_count": True, "game_bonus_min": None, "hollywood": False}


def add_options(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.only("id", "rules").iterator():
        rules = tournament.rules
        if isinstance(rules, dict) and rules and any(k not in rules for k in AS_BEFORE):
            tournament.rules = {**AS_BEFORE, **rules}
            tournament.save(update_fields=["rules"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_job"),
        ("scoring", "0003_rules_new_options"),
    ]

    operations = [migrations.RunPython(add_options, migrations.RunPython.noop)]
