"""Rule options added for fixed-length and Hollywood games (issue 8): every stored
match's rules get them with the values that mean "as before", so stored rules compare
equal to a profile built today (written here, not read from the engine, so this
migration means the same thing whatever the engine becomes)."""

from django.db import migrations

AS_BEFORE = {"dead_hands_count": True, "game_bonus_min": None, "hollywood": False}


def add_options(apps, schema_editor):
    Match = apps.get_model("scoring", "Match")
    batch = []
    for match in Match.objects.only("id", "rules").iterator(chunk_size=1000):
        if isinstance(match.rules, dict) and any(k not in match.rules for k in AS_BEFORE):
            match.rules = {**AS_BEFORE, **match.rules}
            batch.append(match)
        if len(batch) >= 1000:
            Match.objects.bulk_update(batch, ["rules"])
            batch = []
    if batch:
        Match.objects.bulk_update(batch, ["rules"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0002_table_links_and_pin_throttle")]

    operations = [migrations.RunPython(add_options, migrations.RunPython.noop)]
