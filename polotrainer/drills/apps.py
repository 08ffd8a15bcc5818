from django.apps import AppConfig


class DrillsConfig(AppConfig):
    name = "polotrainer.drills"
    label = "drills"
    default_auto_field = "django.db.models.BigAutoField"
