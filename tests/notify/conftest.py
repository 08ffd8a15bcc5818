"""The course story's people (tests/courses/conftest.py): instructors, trainees, staff."""

from tests.courses.conftest import as_user, world  # noqa: F401
