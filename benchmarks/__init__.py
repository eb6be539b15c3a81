"""What `make bench` runs; each benchmark prints its figures and a baseline from the same run."""

import os

# Every benchmark that sets Django up reads the project's settings, whichever runs first
# (`python -m benchmarks` or one module alone): without it, django.setup() raises
# ImproperlyConfigured on a fresh clone.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marquoir.settings")
