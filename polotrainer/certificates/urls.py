from django.urls import URLPattern

app_name = "certificates"

urlpatterns: list[URLPattern] = []
