from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClinicsConfig(AppConfig):
    name = "polotrainer.clinics"
    label = "clinics"
    verbose_name = _("Clinics")
