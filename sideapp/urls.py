from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from sideapp.claims import views as claims
from sideapp.corpus import views as corpus
from sideapp.scans import views as scans
from sideapp.web import home

urlpatterns = [
    path("", home.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("scans/", scans.scan_list, name="scan_list"),
    path("scans/<int:pk>/", scans.scan_detail, name="scan_detail"),
    path("claims/", claims.claim_list, name="claim_list"),
    path("claims/<int:pk>/", claims.claim_detail, name="claim_detail"),
    path("corpus/", corpus.corpus, name="corpus"),
    path("corpus/imports/<int:pk>/", corpus.corpus_import, name="corpus_import"),
    path("annotate/", include("sideapp.annotation.urls")),
    path("admin/", admin.site.urls),
    path("django-rq/", include("django_rq.urls")),
]
