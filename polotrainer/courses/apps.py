from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "polotrainer.courses"
    label = "courses"
    verbose_name = "Certification courses"
