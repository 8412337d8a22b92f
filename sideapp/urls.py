from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from sideapp.claims import views as claims
from sideapp.corpus import views as corpus
from sideapp.edits import views as edits
from sideapp.scans import views as scans
from sideapp.web import home, people, staff

urlpatterns = [
    path("", home.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("scans/", scans.scan_list, name="scan_list"),
    path("scans/<int:pk>/", scans.scan_detail, name="scan_detail"),
    path("scans/<int:pk>/cancel/", scans.scan_cancel_view, name="scan_cancel"),
    path("scans/<int:pk>/rerun/", scans.scan_rerun_view, name="scan_rerun"),
    path("wikis/", scans.wiki_list, name="wiki_list"),
    path("claims/", claims.claim_list, name="claim_list"),
    path("claims/<int:pk>/", claims.claim_detail, name="claim_detail"),
    path("claims/<int:pk>/dismiss/", claims.claim_dismiss, name="claim_dismiss"),
    path("claims/<int:pk>/verified/", claims.claim_verified, name="claim_verified"),
    path("claims/<int:pk>/undo/", claims.claim_review_undo, name="claim_review_undo"),
    path("claims/<int:pk>/suggestions/<int:spk>/apply/", edits.suggestion_apply, name="suggestion_apply"),
    path("claims/<int:pk>/tag/", edits.claim_tag, name="claim_tag"),
    path("claims/<int:pk>/archive/", edits.claim_archive, name="claim_archive"),
    path("claims/<int:pk>/correct/", edits.claim_correct, name="claim_correct"),
    path("articles/<int:pk>/report/", edits.article_report, name="article_report"),
    path("corpus/", corpus.corpus, name="corpus"),
    path("corpus/update/", corpus.corpus_update, name="corpus_update"),
    path("corpus/imports/<int:pk>/", corpus.corpus_import, name="corpus_import"),
    path("people/", people.people, name="people"),
    path("annotate/", include("sideapp.annotation.urls")),
    path("admin/login/", staff.admin_login),  # the app's login or its 403, not the admin's own form
    path("admin/", admin.site.urls),
    path("django-rq/", include("django_rq.urls")),
    path("", include("sideapp.patrol.urls")),
    path("", include("sideapp.api.urls")),
    path("", include("sideapp.gadget.urls")),
]

# What went wrong, as pages of the app (and fragments for htmx): sideapp/web/errors.py.
handler403 = "sideapp.web.errors.forbidden"
handler404 = "sideapp.web.errors.not_found"
handler500 = "sideapp.web.errors.server_error"
