from django.urls import path

from polotrainer.drills import views

app_name = "drills"

urlpatterns = [
    path("drills/", views.home, name="home"),
    path("drills/new/", views.new, name="new"),
    path("drills/assignment/<id:assignment_id>/", views.assigned, name="assigned"),
    path("drills/<id:set_id>/<id:position>/", views.play, name="play"),
    path("drills/<id:set_id>/summary/", views.summary, name="summary"),
    path("drills/play/<id:item_id>/start/", views.start, name="start"),
    path("drills/play/<id:item_id>/answer/", views.answer, name="answer"),
    path("drills/play/<id:item_id>/replay/", views.replay, name="replay"),
]
