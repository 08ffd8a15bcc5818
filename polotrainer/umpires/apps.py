from django.apps import AppConfig


class UmpiresConfig(AppConfig):
    name = "polotrainer.umpires"
    label = "umpires"
    verbose_name = "Umpires and their learning"
