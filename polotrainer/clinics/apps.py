from django.apps import AppConfig


class ClinicsConfig(AppConfig):
    name = "polotrainer.clinics"
    label = "clinics"
    verbose_name = "Clinics"
