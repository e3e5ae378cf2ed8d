"""Ed25519 seals over JSON documents: the ledger's checkpoints and the signed tournament
archive. Standard library and the `cryptography` library only (no Django, no database),
so an archive is checked on any machine: `python -m ginclub.seals ARCHIVE PUBLIC_KEY`,
or `manage.py verify_archive` (docs/audit.md).

Terms:
    canonical   a JSON value as bytes with sorted keys and no spaces: what is signed.
    seal        {"algorithm": "ed25519", "public_key": PEM text, "fingerprint",
                "signature": base64} under the key "seal": a signature over the canonical
                form of the document's manifest when it has one, else of all the rest.
    fingerprint the first 16 hex digits of the SHA-256 of the raw public key, to read
                out and compare with the one an auditor was given.
    manifest    what a signed archive's seal covers: one digest per part of the archive,
                of its ledger's heads and of each ledger row, so a changed archive names
                the part or the row that changed, not just "the signature fails".
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ALGORITHM = "ed25519"
SEAL = "seal"
MANIFEST = "manifest"
LEDGER = "ledger"


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def fingerprint(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def load_public(pem: bytes | str) -> Ed25519PublicKey:
    key = serialization.load_pem_public_key(pem.encode() if isinstance(pem, str) else pem)
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("not an Ed25519 public key")
    return key


def _signed(document: dict[str, Any]) -> Any:
    if MANIFEST in document:
        return document[MANIFEST]
    return {k: v for k, v in document.items() if k != SEAL}


def seal(document: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """`document` with a seal (over its manifest when it has one, else over the rest)."""
    body = {k: v for k, v in document.items() if k != SEAL}
    public = key.public_key()
    pem = public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return {
        **body,
        SEAL: {
            "algorithm": ALGORITHM,
            "public_key": pem.decode(),
            "fingerprint": fingerprint(public),
            "signature": base64.b64encode(key.sign(canonical(_signed(body)))).decode(),
        },
    }


def seal_problem(document: Any, trusted: Ed25519PublicKey | None = None) -> str:
    """Why `document`'s seal does not hold ("" when it does). With `trusted`, the seal must
    be that key's; without, the key inside the document is used (say its fingerprint)."""
    if not isinstance(document, dict) or not isinstance(document.get(SEAL), dict):
        return "it carries no seal (signature)"
    found = document[SEAL]
    try:
        public = load_public(found["public_key"])
        signature = base64.b64decode(found["signature"], validate=True)
    except (KeyError, TypeError, ValueError):
        return "its seal is malformed"
    if trusted is not None and fingerprint(public) != fingerprint(trusted):
        return (
            f"it is signed by key {fingerprint(public)}, not by the trusted key "
            f"{fingerprint(trusted)}"
        )
    try:
        public.verify(signature, canonical(_signed(document)))
    except InvalidSignature:
        return "its signature does not match its content (it was changed after signing)"
    return ""


# ---------------------------------------------------------------- signed archives


def row_name(row: dict[str, Any]) -> str:
    return f"{row.get('chain')} row {row.get('position')} ({row.get('action')})"


def manifest_of(archive: dict[str, Any]) -> dict[str, Any]:
    """One digest per top-level part of the archive (the ledger's rows each on their own),
    in the order a reader finds them."""
    parts = {
        key: digest(value) for key, value in archive.items() if key not in (SEAL, MANIFEST, LEDGER)
    }
    ledger = archive.get(LEDGER) or {}
    parts[f"{LEDGER}.heads"] = digest(ledger.get("heads"))
    rows = [[row_name(row), digest(row)] for row in ledger.get("rows", [])]
    return {"parts": parts, "rows": rows}


def seal_archive(archive: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """`archive` (plain JSON values, with its "ledger") with its manifest and seal."""
    body = {k: v for k, v in archive.items() if k not in (SEAL, MANIFEST)}
    return seal({**body, MANIFEST: manifest_of(body)}, key)


def archive_problems(archive: Any, trusted: Ed25519PublicKey | None = None) -> list[str]:
    """Everything wrong with a signed archive, each naming what changed: the seal (over the
    manifest and the heads), then each part and ledger row against the manifest, then the
    chains' links and heads. Empty: the archive is as it was signed."""
    if not isinstance(archive, dict):
        return ["the file is not a JSON object"]
    problem = seal_problem(archive, trusted)
    if problem:
        return [f"the archive's seal: {problem}"]
    signed, found = archive.get(MANIFEST) or {}, manifest_of(archive)
    problems = [
        f"part '{key}' was changed after signing"
        for key in sorted(set(signed.get("parts", {})) | set(found["parts"]))
        if signed.get("parts", {}).get(key) != found["parts"].get(key)
    ]
    signed_rows = dict(tuple(pair) for pair in signed.get("rows", []))
    for name, value in found["rows"]:
        if signed_rows.pop(name, None) != value:
            problems.append(f"ledger {name} was changed after signing")
    problems += [f"ledger {name} was removed after signing" for name in signed_rows]
    return problems + chain_problems(archive.get(LEDGER) or {})


def chain_problems(ledger: dict[str, Any]) -> list[str]:
    """Each chain's rows must follow on (positions from 1, each row's prev_hash the hash
    of the one before) and end at the signed head."""
    problems, last = [], {}
    for row in ledger.get("rows", []):
        chain = row.get("chain")
        position, previous = last.get(chain, (0, "0" * 64))
        if row.get("position") != position + 1:
            problems.append(f"{row_name(row)}: position {position + 1} was expected")
        elif row.get("prev_hash") != previous:
            problems.append(f"{row_name(row)}: its previous hash is not the row before it")
        last[chain] = (row.get("position"), row.get("hash"))
    for chain, head in (ledger.get("heads") or {}).items():
        if list(last.get(chain, (0, ""))) != list(head):
            problems.append(f"chain {chain} does not end at its signed head (row {head[0]})")
    return problems


def main(argv: list[str]) -> int:
    """`python -m ginclub.seals ARCHIVE [PUBLIC_KEY.pem]`: exit 0 when it holds."""
    if len(argv) not in (1, 2):
        print("usage: python -m ginclub.seals ARCHIVE.json [PUBLIC_KEY.pem]", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as handle:
        archive = json.load(handle)
    trusted = None
    if len(argv) == 2:
        with open(argv[1], "rb") as handle:
            trusted = load_public(handle.read())
    problems = archive_problems(archive, trusted)
    for problem in problems:
        print(f"CHANGED {problem}", file=sys.stderr)
    if problems:
        return 1
    key = archive[SEAL]["fingerprint"]
    print(f"archive OK: {len(archive[LEDGER]['rows'])} ledger rows; signed by key {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
