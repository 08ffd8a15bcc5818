from django.apps import AppConfig


class ThrottleConfig(AppConfig):
    name = "polotrainer.throttle"
    label = "throttle"
    verbose_name = "Throttling"
    default_auto_field = "django.db.models.BigAutoField"
