"""The rule option `game_bonus_to` (issue 22), with its "as before" value `winner`, in
every tournament's frozen rules: a table of a later round starts with the tournament's
rules and must find them equal to the profile built today."""

from django.db import migrations

AS_BEFORE = {"game_bonus_to": "winner"}


def add_options(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.only("id", "rules").iterator():
        rules = tournament.rules
        if isinstance(rules, dict) and rules and any(k not in rules for k in AS_BEFORE):
            tournament.rules = {**AS_BEFORE, **rules}
            tournament.save(update_fields=["rules"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_result_on_the_match"),
        ("scoring", "0009_rules_game_bonus_to"),
    ]

    operations = [migrations.RunPython(add_options, migrations.RunPython.noop)]
