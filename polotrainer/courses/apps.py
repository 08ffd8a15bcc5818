from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoursesConfig(AppConfig):
    name = "polotrainer.courses"
    label = "courses"
    verbose_name = _("Certification courses")

    def import_models(self) -> None:
        """The app's models are in two modules: `models` (courses, cohorts, assignments) and
        `exams.models` (timed exams, in their own package). Both load while Django loads models,
        so the exam rows keep the `courses` label, their tables and their migrations."""
        super().import_models()
        import_module(f"{self.name}.exams.models")

    def ready(self) -> None:
        from polotrainer.courses.exams import attempts
        from polotrainer.umpires import closedbook

        # Offline practice packs stop from a closed-book exam's opening (umpires.closedbook).
        closedbook.register_open_exams(attempts.open_closed_book)
