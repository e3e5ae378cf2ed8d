"""WSGI entry point for gunicorn: `gunicorn ginclub.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginclub.settings")
application = get_wsgi_application()

# A login sent while every password check slot is taken is answered before Django
# handles it (ginclub.login_limits.BusyGate): a flood then passes quickly.
from ginclub.login_limits import BusyGate  # noqa: E402

application = BusyGate(application)

# Say at start-up, in gunicorn's log, what a forgotten deploy step leaves missing (pages
# answer 503 naming it until it is done: ginclub.readiness).
from ginclub.readiness import log_missing_steps  # noqa: E402

log_missing_steps()
