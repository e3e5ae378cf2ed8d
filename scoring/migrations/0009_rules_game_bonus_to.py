"""The rule option `game_bonus_to` (issue 22): every stored match's rules get it with the
value that means "as before", `winner`, so stored rules compare equal to a profile built
today and stored games keep their scores (school matches included: they were played and
scored with the bonus to the winner only; an organiser may re-score them under the new
school profile, docs/rules.md §10). Written here, not read from the engine."""

from django.db import migrations

AS_BEFORE = {"game_bonus_to": "winner"}


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
    dependencies = [("scoring", "0008_match_decision")]

    operations = [migrations.RunPython(add_options, migrations.RunPython.noop)]
