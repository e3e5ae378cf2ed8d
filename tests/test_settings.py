"""The settings module: database pragmas, production safety, deploy checks."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection, transaction

REPO = Path(__file__).resolve().parent.parent
sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="SQLite pragmas apply to the embedded database only"
)


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.pop("DATABASE_URL", None)
    clean.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@sqlite_only
@pytest.mark.django_db
def test_sqlite_connection_applies_the_concurrency_pragmas():
    with connection.cursor() as cursor:
        values = {}
        for pragma in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys"):
            cursor.execute(f"PRAGMA {pragma}")
            values[pragma] = cursor.fetchone()[0]
    assert values == {
        "journal_mode": "wal",
        "synchronous": 2,
        "busy_timeout": 20000,
        "foreign_keys": 1,
    }


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_sqlite_transactions_take_the_write_lock_at_begin():
    """IMMEDIATE: a second writer is refused as soon as our transaction starts."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        other = sqlite3.connect(connection.settings_dict["NAME"], timeout=0)
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        finally:
            other.close()


@sqlite_only
def test_the_test_database_is_a_file_not_shared_memory():
    name = str(connection.settings_dict["NAME"])
    assert "memory" not in name and name.endswith(".sqlite3") or "_gw" in name


def test_service_refuses_to_start_with_debug_off_and_no_secret_key():
    result = manage("check", env={"DJANGO_DEBUG": "0"})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


PRODUCTION = {
    "DJANGO_DEBUG": "0",
    # not a real key
    "DJANGO_SECRET_KEY": "k3#Vq9!zR2@wLp8$Nm5^Tb7&Yc1*Hd4(Jf6)Gs0-Xe_aU8+iO3=pE",
    "DJANGO_ALLOWED_HOSTS": "club.example.org",
}


@pytest.fixture(scope="module")
def deployed(tmp_path_factory) -> dict[str, str]:
    """PRODUCTION with the documented deploy steps done: `migrate` into its own SQLite
    file, `collectstatic` into its own directory (ginclub.readiness checks both)."""
    where = tmp_path_factory.mktemp("deployed")
    env = {
        **PRODUCTION,
        "SQLITE_PATH": str(where / "db.sqlite3"),
        "DJANGO_STATIC_ROOT": str(where / "staticfiles"),
    }
    steps = (("migrate", "--noinput"), ("collectstatic", "--noinput"), ("checkpoint_ledger",))
    for step in steps:
        result = manage(*step, "-v0", env=env)
        assert result.returncode == 0, result.stdout + result.stderr
    return env


@pytest.mark.parametrize(
    "mode",
    [{}, {"DJANGO_SECURE_SSL_REDIRECT": "0"}],
    ids=["django-redirects", "proxy-redirects"],
)
def test_deploy_check_passes_in_every_documented_deployment_mode(mode, deployed):
    result = manage("check", "--deploy", "--fail-level", "WARNING", env={**deployed, **mode})
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_check_fails_naming_each_forgotten_deploy_step(tmp_path):
    """Neither `migrate` nor `collectstatic` run: both are named (ginclub.readiness)."""
    env = {
        **PRODUCTION,
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "DJANGO_STATIC_ROOT": str(tmp_path / "staticfiles"),
    }
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    said = result.stdout + result.stderr
    assert "ginclub.W001" in said and "collectstatic" in said
    assert "ginclub.W002" in said and "manage.py migrate" in said
    assert not (tmp_path / "db.sqlite3").exists()  # asking created no empty database


def test_w008_is_silenced_only_when_the_proxy_redirects():
    probe = "from django.conf import settings; print(settings.SILENCED_SYSTEM_CHECKS)"
    for mode, expected in (({}, "[]"), ({"DJANGO_SECURE_SSL_REDIRECT": "0"}, "['security.W008']")):
        result = manage("shell", "-c", probe, env={**PRODUCTION, **mode})
        assert result.stdout.strip().splitlines()[-1] == expected, result.stderr


def test_axes_locks_a_username_from_one_address_only(settings):
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


@pytest.mark.django_db
def test_failed_logins_from_one_address_do_not_lock_the_organiser_out_from_another():
    from django.contrib.auth import get_user_model
    from django.test import Client

    get_user_model().objects.create_user("organiser", password="the-right-password-42")
    stranger = Client(REMOTE_ADDR="198.51.100.66")
    for _ in range(10):
        stranger.post("/accounts/login/", {"username": "organiser", "password": "guess"})
    right = {"username": "organiser", "password": "the-right-password-42"}
    stranger.post("/accounts/login/", right)
    assert "_auth_user_id" not in stranger.session  # that address is locked
    organiser = Client(REMOTE_ADDR="203.0.113.5")
    answer = organiser.post("/accounts/login/", right)
    assert answer.status_code == 302 and "_auth_user_id" in organiser.session


def test_debug_off_turns_on_secure_cookies_and_hsts(settings):
    from django.conf import settings as live

    assert live.DEBUG is False
    assert live.SESSION_COOKIE_SECURE and live.CSRF_COOKIE_SECURE
    assert live.SECURE_HSTS_SECONDS >= 31536000


@pytest.mark.parametrize(("given", "expected"), [({}, 60), ({"DJANGO_CONN_MAX_AGE": "15"}, 15)])
def test_postgresql_connections_are_kept_and_health_checked(given, expected):
    show = (
        "from django.conf import settings; d = settings.DATABASES['default'];"
        "print(d['ENGINE'], d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    )
    env = {"DJANGO_DEBUG": "1", "DATABASE_URL": "postgres://u@127.0.0.1:5432/x", **given}
    result = manage("shell", "-c", show, env=env)
    assert result.returncode == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.split() == ["django.db.backends.postgresql", str(expected), "True"]


@pytest.mark.parametrize(("given", "expected"), [({}, 60), ({"DJANGO_CONN_MAX_AGE": "0"}, 0)])
def test_sqlite_connections_are_kept_too(given, expected, tmp_path):
    """A busy hall opened a connection, its pragmas and functions for every poll."""
    show = "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    env = {"DJANGO_DEBUG": "1", "SQLITE_PATH": str(tmp_path / "db.sqlite3"), **given}
    result = manage("shell", "-c", show, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == str(expected)


SHOW_CACHES = (
    "import json; from django.conf import settings; c = settings.CACHES;"
    "print(json.dumps({a: [c[a]['BACKEND'], c[a].get('LOCATION'), c[a].get('KEY_PREFIX', ''),"
    " c[a].get('TIMEOUT')] for a in ('default', 'shared', 'jobs')}))"
)


def caches_with(env: dict[str, str]) -> dict[str, list]:
    result = manage("shell", "-c", SHOW_CACHES, env={"DJANGO_DEBUG": "1", **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_without_redis_the_workers_share_files_on_this_machine(tmp_path):
    caches = caches_with({"SQLITE_PATH": str(tmp_path / "db.sqlite3")})
    files = "django.core.cache.backends.filebased.FileBasedCache"
    assert caches["default"][0] == "django.core.cache.backends.locmem.LocMemCache"
    assert caches["shared"] == [files, str(tmp_path / "db.sqlite3-cache"), "", 3600]
    assert caches["jobs"] == [files, str(tmp_path / "db.sqlite3-progress"), "", 86400]


def test_with_redis_every_cache_the_workers_share_is_in_redis_under_the_deployment():
    env = {"DATABASE_URL": "postgres://u@10.0.0.7:5432/club", "REDIS_URL": "redis://r:6379/3"}
    caches = caches_with({**env, "DJANGO_CACHE_KEY_PREFIX": "riverside"})
    redis = "ginclub.redis_cache.SharedRedisCache"
    assert caches["default"][0] == "django.core.cache.backends.locmem.LocMemCache"  # per worker
    assert caches["shared"] == [redis, "redis://r:6379/3", "riverside:shared", 3600]
    assert caches["jobs"] == [redis, "redis://r:6379/3", "riverside:jobs", 86400]


def test_two_deployments_sharing_one_redis_get_different_prefixes_unless_named():
    """Unnamed, a deployment's prefix follows its database: the app servers of one share
    their entries, another deployment's database (or the same name on another host) does
    not."""
    redis = {"REDIS_URL": "redis://r:6379/0"}

    def prefix(database_url: str) -> str:
        return caches_with({**redis, "DATABASE_URL": database_url})["shared"][2]

    one = prefix("postgres://u@10.0.0.7:5432/club")
    assert one == prefix("postgres://u@10.0.0.7:5432/club")
    assert one.endswith(":shared")
    others = {prefix("postgres://u@10.0.0.7:5432/other"), prefix("postgres://u@10.0.0.8/club")}
    assert one not in others and len(others) == 2
