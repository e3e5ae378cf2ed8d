"""Seasons stored before their dates were bounded (issue 24) brought into the dates a
club may store, 2000-01-01 to 2100-12-31 (ginclub.inputs): a season "to 9999-12-31"
counts the same matches to 2100-12-31 and can be changed again without first being
refused for its own last day. The bounds are written out here: a migration keeps the
values it was written with."""

import datetime as dt

from django.db import migrations

FIRST = dt.date(2000, 1, 1)
LAST = dt.date(2100, 12, 31)


def clamp_dates(apps, schema_editor):
    Season = apps.get_model("tournaments", "Season")
    for field in ("starts_on", "ends_on"):
        Season.objects.filter(**{f"{field}__lt": FIRST}).update(**{field: FIRST})
        Season.objects.filter(**{f"{field}__gt": LAST}).update(**{field: LAST})


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0013_rules_game_bonus_to")]

    operations = [migrations.RunPython(clamp_dates, migrations.RunPython.noop)]
