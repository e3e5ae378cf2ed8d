"""The committed openapi.yaml is the schema the code generates: a client built from it
knows exactly what the API takes and returns. Regenerate with `make schema`."""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command

COMMITTED = Path(__file__).resolve().parents[1] / "openapi.yaml"


def test_the_committed_schema_is_what_the_code_generates(tmp_path):
    fresh = tmp_path / "openapi.yaml"
    call_command("spectacular", "--file", str(fresh), "--validate", "--fail-on-warn")
    assert fresh.read_text(encoding="utf-8") == COMMITTED.read_text(encoding="utf-8"), (
        "openapi.yaml is stale: run `make schema` and commit it"
    )
