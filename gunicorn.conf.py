"""gunicorn's settings for ginclub. `gunicorn ginclub.wsgi` reads this file from the
working directory (a checkout, docs/operations.md "App servers and gunicorn"); options on
the command line win.

The garbage collector: Python's full collection walks every object that is not frozen.
In a worker that has loaded Django, the templates, the Italian catalogue and answered a
256-table dashboard it took about 110 ms, paid by whichever request triggered it: those
were the hall benchmark's slowest projector and dashboard polls. Frozen once the worker
has loaded what it keeps (after its first requests), those objects are never walked
again and a full collection takes 10-15 ms.
"""

from __future__ import annotations

import gc

# After these many requests a worker has loaded the pages it serves (templates, URL
# patterns, catalogues); what it has then is frozen again, so it is not walked either.
FREEZE_AFTER = (1, 200)


def post_worker_init(worker) -> None:
    """The application is loaded: freeze it."""
    gc.collect()
    gc.freeze()


def post_request(worker, req, environ, resp) -> None:
    """Called after the response is sent, so a collection here delays no one's answer."""
    worker.ginclub_requests = getattr(worker, "ginclub_requests", 0) + 1
    if worker.ginclub_requests in FREEZE_AFTER:
        gc.collect()
        gc.freeze()
