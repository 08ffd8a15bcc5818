from django.urls import path

from scenarios.views import practice, rulebook

app_name = "scenarios"

urlpatterns = [
    path("rules/", rulebook.rules, name="rules"),
    path("rules/<int:number>/", rulebook.rule, name="rule"),
    path("rules/section/<str:ref>/", rulebook.section, name="section"),
    path("glossary/", rulebook.glossary, name="glossary"),
    path("practice/", practice.start, name="practice"),
    path("practice/next/", practice.next_question, name="next"),
    path("practice/<slug:slug>/<int:seed>/", practice.question, name="question"),
    path("practice/<slug:slug>/<int:seed>/answer/", practice.answer, name="answer"),
    path("practice/<slug:slug>/<int:seed>/what-if/", practice.whatif, name="whatif"),
]
