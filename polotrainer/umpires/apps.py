from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class UmpiresConfig(AppConfig):
    name = "polotrainer.umpires"
    label = "umpires"
    verbose_name = _("Umpires and their learning")
