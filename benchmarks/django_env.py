"""A throwaway Django environment for the service benchmarks: production settings (debug
off), an SQLite file in a temporary directory (or, when a benchmark passes one, the
PostgreSQL database of a URL), migrated, with static files collected so pages are served
as in production (hashed, compressed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_django(db_path: Path, *, database_url: str | None = None) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["SQLITE_PATH"] = str(db_path)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-key-" + "x" * 40)
    os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
    os.environ["DJANGO_SETTINGS_MODULE"] = "ginclub.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.STATIC_ROOT = str(db_path.parent / "static")
    call_command("collectstatic", verbosity=0, interactive=False)
