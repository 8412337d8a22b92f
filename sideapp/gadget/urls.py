from django.urls import path

from sideapp.gadget import views

urlpatterns = [
    path("gadget/", views.instructions, name="gadget_install"),
    path("gadget/side-editor.js", views.script, name="gadget_script"),
    path("gadget/side-editor.css", views.style, name="gadget_style"),
]
