"""The ledger's secrets, kept out of the database: the MAC keys that hash its rows and the
Ed25519 key that signs its checkpoints and archives (docs/audit.md).

Terms:
    key id      the name of one MAC key, recorded on every row it hashed
                (LedgerRow.key_id), so rows keep verifying after a rotation.
    current     the key id new rows are hashed with.
    legacy      the key id of rows written before keys existed: hashed with plain SHA-256,
                which anyone holding the database can recompute. They are never re-hashed
                (that would launder a forgery made before); the verifier counts them and
                refuses a legacy row after a keyed one in the same chain.
    ledger dir  settings.LEDGER_DIR (DJANGO_LEDGER_DIR): where the key files and the
                checkpoint live. Keep it out of database backups and copies.

Where the MAC keys come from: DJANGO_LEDGER_KEYS ("id:hexsecret,id:hexsecret", the first
current) when set; otherwise the key file `<ledger dir>/mac-keys.json`, made with one
fresh key on first use (the embedded default; `check --deploy` warns while neither
exists). `rotate()` (manage.py rotate_ledger_key) adds a key to that file and makes it
current. The signing key is `<ledger dir>/signing-key.pem`, also made on first use, with
its public half beside it (`signing-key.pub`) to hand to auditors.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core import checks
from django.utils import timezone

LEGACY = "legacy"
MAC_FILE = "mac-keys.json"
SIGNING_FILE = "signing-key.pem"
PUBLIC_FILE = "signing-key.pub"


class UnknownKey(LookupError):
    """A row names a key id this server does not hold."""


@dataclass(frozen=True)
class KeyRing:
    current: str
    keys: dict[str, bytes]


def ledger_dir() -> Path:
    return Path(settings.LEDGER_DIR)


def _temporary(path: Path, data: bytes) -> Path:
    """`data` written and synced to a new file beside `path`, readable by this user only."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return temporary


def _private_file(path: Path, data: bytes) -> None:
    """Write `path` once; a concurrent writer's file wins (linking the finished file in
    is atomic and refuses an existing name)."""
    temporary = _temporary(path, data)
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink()


def replace_file(path: Path, data: bytes) -> None:
    """Replace `path` atomically (readers see the old file or the new, never half)."""
    os.replace(_temporary(path, data), path)


# ------------------------------------------------------------------------ MAC keys


def _new_key_id() -> str:
    return f"{timezone.now():%Y%m%d}-{secrets.token_hex(3)}"


def _parse_environment(text: str) -> KeyRing:
    keys: dict[str, bytes] = {}
    order = []
    for item in text.split(","):
        key_id, _, secret = item.strip().partition(":")
        if not key_id or key_id == LEGACY or len(secret) < 32:
            raise ValueError(
                "DJANGO_LEDGER_KEYS must be 'id:hexsecret,...' with secrets of at least 32 "
                "hex digits and no id 'legacy'"
            )
        keys[key_id] = bytes.fromhex(secret)
        order.append(key_id)
    return KeyRing(current=order[0], keys=keys)


def _read_file(path: Path) -> KeyRing:
    data = json.loads(path.read_text())
    return KeyRing(
        current=data["current"], keys={k: bytes.fromhex(v) for k, v in data["keys"].items()}
    )


def _file_bytes(ring: KeyRing) -> bytes:
    keys = {key_id: secret.hex() for key_id, secret in ring.keys.items()}
    return json.dumps({"current": ring.current, "keys": keys}, indent=1).encode()


_rings: dict[tuple, KeyRing] = {}


def ring() -> KeyRing:
    """The MAC keys in force (read once per process, again when the key file changes)."""
    if settings.LEDGER_KEYS:
        cache_key: tuple = ("env", settings.LEDGER_KEYS)
        if cache_key not in _rings:
            _rings[cache_key] = _parse_environment(settings.LEDGER_KEYS)
        return _rings[cache_key]
    path = ledger_dir() / MAC_FILE
    try:
        stamp = path.stat().st_mtime_ns
    except FileNotFoundError:
        key_id = _new_key_id()
        _private_file(path, _file_bytes(KeyRing(key_id, {key_id: secrets.token_bytes(32)})))
        stamp = path.stat().st_mtime_ns
    cache_key = ("file", str(path), stamp)
    if cache_key not in _rings:
        _rings[cache_key] = _read_file(path)
    return _rings[cache_key]


def configured() -> bool:
    """Whether MAC keys exist already (the environment, or the key file)."""
    return bool(settings.LEDGER_KEYS) or (ledger_dir() / MAC_FILE).exists()


def mac(key_id: str, message: bytes) -> str:
    """HMAC-SHA256 of `message` under key `key_id`. Raises UnknownKey for a key not held."""
    secret = ring().keys.get(key_id)
    if secret is None:
        raise UnknownKey(key_id)
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def rotate() -> str:
    """Add a fresh MAC key to the key file and make it current; the old ones stay, so the
    rows they hashed keep verifying. Returns the new key id. Refused (ValueError) when
    the keys come from the environment: rotate there by prepending a new id:secret."""
    if settings.LEDGER_KEYS:
        raise ValueError(
            "The ledger keys come from DJANGO_LEDGER_KEYS: rotate by putting a new "
            "'id:hexsecret' first in it (keep the old ones after it)."
        )
    old = ring()
    key_id = _new_key_id()
    new = KeyRing(key_id, {**old.keys, key_id: secrets.token_bytes(32)})
    replace_file(ledger_dir() / MAC_FILE, _file_bytes(new))
    return key_id


# -------------------------------------------------------------------- signing key


def signing_key() -> Ed25519PrivateKey:
    """The Ed25519 key that signs checkpoints and archives (made on first use)."""
    path = ledger_dir() / SIGNING_FILE
    if not path.exists():
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        _private_file(path, pem)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    assert isinstance(key, Ed25519PrivateKey), f"{path} is not an Ed25519 key"
    public = ledger_dir() / PUBLIC_FILE
    if not public.exists():
        _private_file(public, public_pem(key))
    return key


def public_pem(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


# ------------------------------------------------------------------- deploy check


@checks.register(checks.Tags.security, deploy=True)
def check_ledger_keys(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """`ginclub.W003`, in `check --deploy` only: no ledger MAC key yet. One would be
    made in the ledger directory on the first write; say so before production runs on it."""
    if configured():
        return []
    return [
        checks.Warning(
            f"The ledger has no MAC key: neither DJANGO_LEDGER_KEYS nor "
            f"{ledger_dir() / MAC_FILE} exists, so the first ledger row will create that file.",
            hint="Set DJANGO_LEDGER_KEYS, or make the key file now with `manage.py "
            "checkpoint_ledger`; keep DJANGO_LEDGER_DIR out of database backups "
            "(docs/audit.md).",
            id="ginclub.W003",
        )
    ]
