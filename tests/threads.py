"""Real threads for concurrency tests: each has its own database connection, and a
barrier releases them at the same instant so they really collide."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def run_together(count: int, work: Callable[[int], object]) -> list[object]:
    """Run work(i) in `count` threads released at the same instant; return results/errors."""
    barrier = threading.Barrier(count)
    results: list[object] = [None] * count

    def runner(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(index)
        except Exception as error:  # collected and asserted on by the test
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results
