"""`manage.py run_worker`: django-tasks-db's `db_worker` (the same options) that outlives
the database.

`db_worker` exits on the first database error it does not expect (PostgreSQL restarted,
the network gone for a few seconds), and the jobs queued after that wait for ever. This
worker closes its connections instead, waits (1 s, then twice as long each time the
database still does not answer, never more than `MAX_DELAY`), and goes on when it
answers again. A job running when the database went away is marked failed by the
organiser's next request for it an hour later (services.jobs.STALE_AFTER), like any
worker that died under its job; nothing it wrote was committed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django_tasks_db.management.commands import db_worker

logger = logging.getLogger("django_tasks_db")

FIRST_DELAY = 1.0
MAX_DELAY = 30.0
DATABASE_DOWN = (OperationalError, InterfaceError)


class ResilientWorker(db_worker.Worker):
    """db_worker's Worker whose loop is run again after a database outage."""

    sleep: Callable[[float], None] = staticmethod(time.sleep)

    def run(self) -> None:
        while self.running:
            try:
                super().run()
                return  # --batch or --max-tasks: finished as asked
            except DATABASE_DOWN as error:
                logger.warning("The database went away (%s); the worker waits for it.", error)
                self.wait_for_database()

    def wait_for_database(self) -> None:
        """Sleep with a growing, bounded delay until a new connection answers."""
        delay = FIRST_DELAY
        while self.running:
            close_connections()  # a broken connection is never reused
            logger.info("Trying the database again in %.0f s.", delay)
            self.sleep(delay)
            if database_answers():
                logger.warning("The database answers again; the worker goes on.")
                return
            delay = min(delay * 2, MAX_DELAY)


def database_answers() -> bool:
    try:
        connections[DEFAULT_DB_ALIAS].ensure_connection()
    except DATABASE_DOWN:
        close_connections()
        return False
    return True


def close_connections() -> None:
    try:
        connections.close_all()
    except DATABASE_DOWN:  # closing a connection the server already dropped
        pass


class Command(db_worker.Command):
    help = (
        "Run the background worker (django-tasks-db's db_worker, with the same options) "
        "that waits for the database when it goes away instead of exiting."
    )

    def handle(self, *args, **options) -> None:
        # db_worker builds its Worker by name; this swaps in ours for this command only.
        original = db_worker.Worker
        db_worker.Worker = ResilientWorker
        try:
            super().handle(*args, **options)
        finally:
            db_worker.Worker = original
