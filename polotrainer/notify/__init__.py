"""Reaching people where they are: calendar files and feeds, invitations by mail, reminders
and news (`manage.py notify`), and one-click unsubscribing (README "Mail and calendars")."""
