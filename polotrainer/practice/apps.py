from django.apps import AppConfig


class PracticeConfig(AppConfig):
    name = "polotrainer.practice"
    label = "practice"
    verbose_name = "Self-study"
