"""The public API's addresses (sideapp.api.views); included at the site's root."""
from django.urls import path

from sideapp.api import patrol, views

urlpatterns = [
    path("api/v1/findings", views.findings, name="api_findings"),
    path("v1/models/editing-suggestions:predict", views.edit_check_predict, name="api_edit_check"),
    path("api/v1/claims/<int:pk>/proposal", views.claim_proposal_view, name="api_proposal"),
    path("api/v1/scan", views.scan_ask, name="api_scan"),
    path("api/v1/scans/<int:pk>", views.scan_status, name="api_scan_status"),
    path("api/v1/patrol", patrol.patrol, name="api_patrol"),
]
