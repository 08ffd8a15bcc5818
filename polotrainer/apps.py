from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site itself: its commands, templates tags, and the checks of the whole install."""

    name = "polotrainer"
    label = "polotrainer"

    def ready(self) -> None:
        # Registers the demo.E001 system check (a database holding the demo is never served).
        from polotrainer import demo  # noqa: F401
