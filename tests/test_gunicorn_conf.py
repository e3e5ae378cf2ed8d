"""gunicorn.conf.py: a worker freezes what it has loaded, so full garbage collections
stop walking it (the hall's slowest polls were such collections)."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

CONF = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"


@pytest.fixture
def conf():
    spec = importlib.util.spec_from_file_location("gunicorn_conf", CONF)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    gc.unfreeze()


def test_a_loaded_worker_is_frozen(conf):
    gc.unfreeze()
    conf.post_worker_init(SimpleNamespace())
    assert gc.get_freeze_count() > 1000


def test_what_the_first_requests_load_is_frozen_too(conf):
    worker = SimpleNamespace()
    frozen = []
    for _ in range(max(conf.FREEZE_AFTER) + 5):
        gc.unfreeze()
        conf.post_request(worker, None, {}, None)
        frozen.append(gc.get_freeze_count() > 0)
    assert [n + 1 for n, yes in enumerate(frozen) if yes] == list(conf.FREEZE_AFTER)
