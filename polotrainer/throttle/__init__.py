"""Throttling that slows down guessing and bulk sign-ups without locking out the real user.

Every limit lives in the database, the one thing all app processes share. The client's address
comes through a configured number of trusted proxies (addresses.client_ip). Password guessing is
django-axes plus two slower limits (guessing.GuessingHandler), none of which applies to a
browser the person logged in from before (devices); sign-ups are counted per address (rates).
Secrets guessed under a limit (clinic PINs, join codes) come with passes, so the limit never
stops whoever was given the secret. The reasoning, limit by limit, is in the README's
"Throttling" section.
"""
