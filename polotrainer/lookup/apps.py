from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LookupConfig(AppConfig):
    name = "polotrainer.lookup"
    label = "lookup"
    verbose_name = _("Staff look-up")
