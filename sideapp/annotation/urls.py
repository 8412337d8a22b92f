from django.urls import path

from sideapp.annotation import views

app_name = "annotation"

urlpatterns = [
    path("", views.annotate, name="annotate"),
    path("undo/", views.undo, name="undo"),
    path("recent/", views.recent, name="recent"),
    path("guidelines/", views.guidelines_page, name="guidelines"),
    path("items/<int:item>/full/<str:letter>/", views.full_text, name="full_text"),
    path("results/", views.results_page, name="results"),
    path("export.csv", views.export_csv, name="export_csv"),
    path("export.jsonl", views.export_jsonl, name="export_jsonl"),
    path("items/", views.item_admin, name="items"),
    path("items/<int:pk>/gold/", views.item_gold, name="item_gold"),
]
