from django.apps import AppConfig


class CertificatesConfig(AppConfig):
    name = "polotrainer.certificates"
    label = "certificates"
    verbose_name = "Certificates"
