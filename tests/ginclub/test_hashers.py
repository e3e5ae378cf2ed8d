"""Passwords are hashed with Django's PBKDF2, unchanged, in a thread of its own that
runs at the lowest CPU priority (ginclub.hashers), so a flood of login checks leaves the
cores to the phones' polls."""

from __future__ import annotations

import os
import sys
import threading

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, make_password

from ginclub import hashers

LOW = hashers.LowPriorityPBKDF2PasswordHasher()


def test_the_hash_is_djangos_pbkdf2_to_the_byte():
    plain = PBKDF2PasswordHasher()
    assert LOW.algorithm == plain.algorithm == "pbkdf2_sha256"
    assert LOW.encode("secret", "salt", iterations=1000) == plain.encode(
        "secret", "salt", iterations=1000
    )


def test_passwords_hashed_before_still_verify_and_are_not_rehashed(settings):
    settings.PASSWORD_HASHERS = ["ginclub.hashers.LowPriorityPBKDF2PasswordHasher"]
    plain = PBKDF2PasswordHasher()
    stored = plain.encode("secret", plain.salt(), iterations=plain.iterations)
    assert check_password("secret", stored)
    assert not check_password("wrong", stored)
    assert not LOW.must_update(stored)
    assert make_password("secret").startswith("pbkdf2_sha256$")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness is Linux's")
def test_the_hash_runs_in_another_thread_at_the_lowest_priority(monkeypatch):
    seen = []
    encode = PBKDF2PasswordHasher.encode

    def watched(self, password, salt, iterations=None):
        thread = threading.get_native_id()
        seen.append((thread, os.getpriority(os.PRIO_PROCESS, thread)))
        return encode(self, password, salt, iterations)

    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", watched)
    LOW.encode("secret", "salt", iterations=1000)
    [(thread, priority)] = seen
    assert thread != threading.get_native_id()
    assert priority == hashers.CHECK_PRIORITY
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) < priority  # ours kept


def test_the_site_hashes_new_passwords_with_it():
    from django.conf import settings

    # The suite hashes with MD5 for speed (tests/conftest.py); production's list is here.
    from ginclub import settings as site_settings

    assert site_settings.PASSWORD_HASHERS[0] == "ginclub.hashers.LowPriorityPBKDF2PasswordHasher"
    assert settings.PASSWORD_HASHERS != site_settings.PASSWORD_HASHERS
