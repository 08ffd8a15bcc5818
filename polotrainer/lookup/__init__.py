"""Staff look-up: Django's admin, staff only, read-only where a change would break integrity."""
