from django.apps import AppConfig


class OfflineConfig(AppConfig):
    name = "polotrainer.offline"
    label = "offline"
    verbose_name = "Practice with no signal"
