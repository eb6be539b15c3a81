"""ASGI entry point (uvicorn, and gunicorn with uvicorn workers in production)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marquoir.settings")
application = get_asgi_application()
