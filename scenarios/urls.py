from django.urls import path

from scenarios import views

app_name = "scenarios"

urlpatterns = [
    path("rules/", views.rules, name="rules"),
    path("practice/", views.practice, name="practice"),
    path("glossary/", views.glossary, name="glossary"),
]
