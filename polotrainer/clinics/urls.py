from django.urls import URLPattern

app_name = "clinics"

urlpatterns: list[URLPattern] = []
