from django.urls import path

from scenarios.views import rulebook

app_name = "scenarios"

urlpatterns = [
    path("rules/", rulebook.rules, name="rules"),
    path("rules/<int:number>/", rulebook.rule, name="rule"),
    path("rules/section/<str:ref>/", rulebook.section, name="section"),
    path("glossary/", rulebook.glossary, name="glossary"),
]
