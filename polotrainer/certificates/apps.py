"""Certificates anyone can verify: issued on a passed exam or by an instructor, signed with
the install's Ed25519 key, checked on a public verify page."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CertificatesConfig(AppConfig):
    name = "polotrainer.certificates"
    label = "certificates"
    verbose_name = _("Certificates")

    def ready(self) -> None:
        from polotrainer.certificates import checks, issuing
        from polotrainer.courses.exams.signals import exam_pass_withdrawn, exam_passed

        checks.register()
        exam_passed.connect(issuing.on_exam_passed, dispatch_uid="certificates-exam-passed")
        exam_pass_withdrawn.connect(
            issuing.on_exam_pass_withdrawn, dispatch_uid="certificates-exam-pass-withdrawn"
        )
