"""The app's own settings, plus one trivial logged-in view to measure the floor against."""

from polotrainer.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.urls"
