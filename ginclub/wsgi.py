"""WSGI entry point for gunicorn: `gunicorn ginclub.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginclub.settings")
application = get_wsgi_application()
