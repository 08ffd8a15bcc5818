"""Small pieces every screen shares, knowing only Django: htmx fragments, the language choice.

A leaf like the engine: it imports none of the apps, so every app may import it.
"""
