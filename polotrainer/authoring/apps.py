from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    name = "polotrainer.authoring"
    label = "authoring"
    verbose_name = "Situations written by instructors"

    def ready(self) -> None:
        from polotrainer.authoring.audience import authored_for
        from polotrainer.authoring.photos import photo_of
        from scenarios import audience, photos

        audience.register(authored_for)
        photos.register(photo_of)
