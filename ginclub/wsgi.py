"""WSGI entry point for gunicorn: `gunicorn ginclub.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginclub.settings")
application = get_wsgi_application()

# Say at start-up, in gunicorn's log, what a forgotten deploy step leaves missing (pages
# answer 503 naming it until it is done: ginclub.readiness).
from ginclub.readiness import log_missing_steps  # noqa: E402

log_missing_steps()
